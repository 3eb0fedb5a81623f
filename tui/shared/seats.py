"""The room's seats with their markers: owner, you, bot, ready, away, offline."""

from __future__ import annotations

from typing import Any

from partyhost.tui.text import Glyphs, literal
from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

Frame = dict[str, Any]
SEAT_STYLES = (
    "cyan",
    "magenta",
    "yellow",
    "green",
    "blue",
    "red",
    "bright_cyan",
    "bright_magenta",
    "bright_yellow",
    "bright_green",
)


def seat_style(seat: object) -> str:
    """A stable color per seat, so a name looks the same in chat, log and scores."""
    return SEAT_STYLES[seat % len(SEAT_STYLES)] if isinstance(seat, int) else ""


def present_seats(room: Frame | None) -> list[Frame]:
    """Seats still taken (people who left are not shown)."""
    if room is None:
        return []
    seats = room.get("seats", [])
    return [s for s in seats if isinstance(s, dict) and not s.get("left")]


def seat_markers(entry: Frame, room: Frame, glyphs: Glyphs) -> Text:
    """Owner/bot markers in front of a name (two cells, aligned in lists)."""
    markers = Text()
    markers.append(glyphs.owner if entry.get("seat") == room.get("owner") else " ", "yellow")
    markers.append(glyphs.bot if entry.get("bot") else " ", "dim")
    return markers


def seat_line(entry: Frame, room: Frame, you: int | None, glyphs: Glyphs, *, lobby: bool) -> Text:
    """One seat as a line: ``▶ ★ Ann  ✔ ready``."""
    seat = entry.get("seat")
    line = Text()
    line.append(glyphs.you if seat == you and you is not None else " ", "bold")
    line.append(" ")
    line.append_text(seat_markers(entry, room, glyphs))
    line.append(" ")
    line.append_text(literal(entry.get("name", "?"), f"bold {seat_style(seat)}"))
    if seat == you and you is not None:
        line.append(" (you)", "dim")
    state = seat_state(entry, glyphs, lobby=lobby)
    if state.plain:
        line.append("  ")
        line.append_text(state)
    return line


def seat_state(entry: Frame, glyphs: Glyphs, *, lobby: bool) -> Text:
    if not entry.get("connected", True) and not entry.get("bot"):
        if entry.get("away"):
            return Text(f"{glyphs.away} away", "yellow")
        return Text(f"{glyphs.offline} offline", "yellow")
    if lobby:
        if entry.get("ready") or entry.get("bot"):
            return Text(f"{glyphs.ready} ready", "green")
        return Text(f"{glyphs.not_ready} not ready", "dim")
    return Text()


class SeatList(OptionList):
    """Selectable seats; the highlighted one is what the owner's kick acts on."""

    DEFAULT_CSS = """
    SeatList, SeatList:focus { height: auto; max-height: 12; border: none; padding: 0; }
    SeatList:focus { background: $boost; }
    """

    def show(self, room: Frame | None, you: int | None, glyphs: Glyphs) -> None:
        highlighted = self.highlighted_seat()
        self.clear_options()
        if room is None:
            return
        for entry in present_seats(room):
            line = seat_line(entry, room, you, glyphs, lobby=room.get("status") == "lobby")
            self.add_option(Option(line, id=f"seat-{entry.get('seat')}"))
        if highlighted is not None:
            for index in range(self.option_count):
                if self.get_option_at_index(index).id == f"seat-{highlighted}":
                    self.highlighted = index

    def highlighted_seat(self) -> int | None:
        if self.highlighted is None or self.option_count == 0:
            return None
        option_id = self.get_option_at_index(self.highlighted).id or ""
        number = option_id.removeprefix("seat-")
        return int(number) if number.lstrip("-").isdigit() else None
