"""One chat line as text, for the chat panel and the game log alike."""

from __future__ import annotations

from partyhost.tui.shared.seats import seat_style
from partyhost.tui.text import Frame, literal
from rich.text import Text


def chat_text(line: Frame) -> Text:
    """``Ann: hi`` for people; host notices in dim italics."""
    seat = line.get("seat")
    name = line.get("name") or ""
    if not name:
        return literal(line.get("text", ""), "dim italic")
    shown = literal(name, f"bold {seat_style(seat)}")
    if seat is None:
        shown.append(" (watching)", "dim")
    shown.append(": ")
    shown.append_text(literal(line.get("text", "")))
    return shown


def chat_in_log(line: Frame) -> Text:
    """A chat line among the game's events: marked as said, so it is not read as a move."""
    return Text.assemble(("said ", "dim"), chat_text(line))
