"""What each game lends the replay screen and the text export: its log words and its table
with nothing hidden (:data:`PLAIN` for a game this client does not know)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from partyhost.tui.shared.seats import seat_style
from partyhost.tui.text import Frame, Glyphs, Name, literal
from rich.console import RenderableType
from rich.pretty import Pretty
from rich.text import Text

Narrate = Callable[[Frame, Frame, Name, Glyphs], Text | None]
"""(event, the step's view, name of a seat, glyphs) -> the log line, or None to leave it out."""
DrawTable = Callable[[Frame, Name, Glyphs, bool], RenderableType]
"""(replay view, name of a seat, glyphs, ascii only) -> the table with every card shown."""


def _by_kind(event: Frame, view: Frame, name: Name, glyphs: Glyphs) -> Text | None:
    return Text(str(event.get("kind", "?")), "dim")


def _plain_data(view: Frame, name: Name, glyphs: Glyphs, ascii_only: bool) -> RenderableType:
    return Pretty(view)


def round_of(number: object) -> str:
    return f"Round {number}"


@dataclass(frozen=True)
class ReplayParts:
    """How a game's replay words its log and draws its table."""

    narrate: Narrate = _by_kind
    table: DrawTable = _plain_data
    round_title: Callable[[object], str] = round_of
    """What the replay's round is called: ``Round 3``, ``Game 2``, ``5 cards on the table``."""


PLAIN = ReplayParts()


def namer(info: Frame, *, coloured: bool = False) -> Name:
    """A seat's name as typed, from a replay's players (``seat N`` for one it does not list)."""
    names = {int(p["seat"]): str(p["name"]) for p in info.get("players", []) if "seat" in p}

    def name(seat: object) -> Text:
        if not isinstance(seat, int) or seat not in names:
            return Text("?" if seat is None else f"seat {seat}")
        return literal(names[seat], f"bold {seat_style(seat)}" if coloured else "bold")

    return name


def by_seat(entries: object) -> dict[int, Frame]:
    """A view's list of ``{"seat": n, ...}`` entries, by seat."""
    if not isinstance(entries, list):
        return {}
    return {e["seat"]: e for e in entries if isinstance(e, dict) and isinstance(e.get("seat"), int)}


def joined(parts: list[Text], separator: str = " · ") -> list[Text | str]:
    """``parts`` with ``separator`` between them, for ``Text.assemble``."""
    out: list[Text | str] = []
    for index, part in enumerate(parts):
        if index:
            out.append(separator)
        out.append(part)
    return out
