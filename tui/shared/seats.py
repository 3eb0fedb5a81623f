"""The room's seats with their markers: owner, you, bot, ready, and each player's presence
(in words on the room screen and the table dialog, as a short badge on a game's rows)."""

from __future__ import annotations

from collections.abc import Callable

from partyhost.tui.text import Frame, Glyphs, literal
from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

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


def seat_line(
    entry: Frame,
    room: Frame,
    you: int | None,
    glyphs: Glyphs,
    *,
    lobby: bool,
    grace_left: int | None = None,
) -> Text:
    """One seat as a line: ``▶ ★ Ann  ✔ ready``, or ``  Bob  ○ offline, 87 s left``."""
    seat = entry.get("seat")
    line = Text()
    line.append(glyphs.you if seat == you and you is not None else " ", "bold")
    line.append(" ")
    line.append_text(seat_markers(entry, room, glyphs))
    line.append(" ")
    line.append_text(literal(entry.get("name", "?"), f"bold {seat_style(seat)}"))
    if seat == you and you is not None:
        line.append(" (you)", "dim")
    state = seat_state(entry, glyphs, lobby=lobby, grace_left=grace_left)
    if state.plain:
        line.append("  ")
        line.append_text(state)
    return line


def seat_state(entry: Frame, glyphs: Glyphs, *, lobby: bool, grace_left: int | None = None) -> Text:
    """A seat's presence when its player is not there, else (in the lobby) its ready flag."""
    if presence_of(entry) != "connected":
        return presence_words(entry, glyphs, grace_left)
    if lobby:
        if entry.get("ready") or entry.get("bot"):
            return Text(f"{glyphs.ready} ready", "green")
        return Text(f"{glyphs.not_ready} not ready", "dim")
    return Text()


def presence_of(entry: Frame) -> str:
    """``connected``, ``disconnected``, ``away`` or ``gone`` (older hosts: from the flags)."""
    presence = entry.get("presence")
    if presence in ("connected", "disconnected", "away", "gone"):
        return str(presence)
    if entry.get("left"):
        return "gone"
    if entry.get("bot") or entry.get("connected", True):
        return "connected"
    return "away" if entry.get("away") else "disconnected"


def cannot_own(entry: Frame, you: int | None) -> str | None:
    """Why the room cannot go to ``entry`` (None: it can), said before the owner is asked
    to confirm a handover the host would refuse."""
    if entry.get("seat") == you:
        return "You own the room already."
    if entry.get("bot") or presence_of(entry) != "connected":
        return f"{entry.get('name', '?')} cannot own the room: only a person who is here can."
    return None


def presence_words(entry: Frame, glyphs: Glyphs, grace_left: int | None) -> Text:
    """``● here``, ``○ offline, 87 s left`` (to come back), ``☾ away: a bot plays``, ``✗ gone``."""
    presence = presence_of(entry)
    if presence == "connected":
        return Text(f"{glyphs.here} {'bot' if entry.get('bot') else 'here'}", "green")
    if presence == "disconnected":
        wait = "" if grace_left is None else f", {grace_left} s left"
        return Text(f"{glyphs.offline} offline{wait}", "yellow")
    if presence == "away":
        doing = ": a bot plays" if entry.get("stand_in") else ""
        return Text(f"{glyphs.away} away{doing}", "yellow")
    return Text(f"{glyphs.gone} gone", "dim")


def presence_badge(entry: Frame, glyphs: Glyphs, grace_left: int | None) -> tuple[str, str]:
    """A short badge for a game's row of a player who is not there (``("", "")`` if they are):
    ``○87s`` while disconnected, ``☾bot`` or ``☾away``, ``✗gone``."""
    presence = presence_of(entry)
    if presence == "connected":
        return "", ""
    if presence == "disconnected":
        return f"{glyphs.offline}{'' if grace_left is None else f'{grace_left}s'}", "bold yellow"
    if presence == "away":
        return f"{glyphs.away}{'bot' if entry.get('stand_in') else 'away'}", "yellow"
    return f"{glyphs.gone}gone", "dim"


GraceLeft = Callable[[Frame], int | None]
"""A disconnected seat's whole seconds of grace left (the app's clock counts them down)."""


def no_grace(entry: Frame) -> int | None:
    return None


class SeatList(OptionList):
    """Selectable seats; the highlighted one is what the owner's kick acts on."""

    DEFAULT_CSS = """
    SeatList, SeatList:focus { height: auto; max-height: 12; border: none; padding: 0; }
    SeatList:focus { background: $boost; }
    """

    def show(
        self, room: Frame | None, you: int | None, glyphs: Glyphs, grace: GraceLeft = no_grace
    ) -> None:
        """The room's present seats (a room's list, before and during its game)."""
        if room is None:
            self.show_lines([])
            return
        lobby = room.get("status") == "lobby"
        self.show_lines(
            [
                (entry, self.seat_text(entry, room, you, glyphs, lobby, grace(entry)))
                for entry in present_seats(room)
            ]
        )

    def seat_text(
        self,
        entry: Frame,
        room: Frame,
        you: int | None,
        glyphs: Glyphs,
        lobby: bool,
        grace_left: int | None,
    ) -> Text:
        """One seat's line (a list may say more about a seat)."""
        return seat_line(entry, room, you, glyphs, lobby=lobby, grace_left=grace_left)

    def show_lines(self, lines: list[tuple[Frame, Text]], *, first: bool = False) -> None:
        """These seats' lines; the highlighted seat stays highlighted (else the first one,
        with ``first``)."""
        highlighted = self.highlighted_seat()
        self.clear_options()
        for entry, line in lines:
            self.add_option(Option(line, id=f"seat-{entry.get('seat')}"))
        if highlighted is not None:
            for index in range(self.option_count):
                if self.get_option_at_index(index).id == f"seat-{highlighted}":
                    self.highlighted = index
        elif first and self.option_count:
            self.highlighted = 0

    def highlighted_seat(self) -> int | None:
        if self.highlighted is None or self.option_count == 0:
            return None
        option_id = self.get_option_at_index(self.highlighted).id or ""
        number = option_id.removeprefix("seat-")
        return int(number) if number.lstrip("-").isdigit() else None
