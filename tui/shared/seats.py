"""The room's seats with their markers: owner, you, bot, ready, and each player's presence
(in words on the room screen and the table dialog, as a short badge on a game's rows)."""

from __future__ import annotations

from functools import partial
from typing import Any, cast

from partyhost.tui.party import Party
from partyhost.tui.shared.dialogs import confirm_then
from partyhost.tui.text import Frame, Glyphs, literal
from rich.text import Text
from textual.app import App
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


def present_seats(room: Frame) -> list[Frame]:
    """Seats still taken (people who left are not shown)."""
    return [s for s in room.get("seats", []) if isinstance(s, dict) and not s.get("left")]


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
    levels: bool = False,
) -> Text:
    """One seat as a line: ``▶ ★ Ann  ✔ ready``, or ``  Bob  ○ offline, 87 s left``; with
    ``levels``, a bot's level after its name: ``  ⚙ Bot 1 (hard)  ✔ ready``."""
    seat = entry.get("seat")
    line = Text()
    line.append(glyphs.you if seat == you and you is not None else " ", "bold")
    line.append(" ")
    line.append_text(seat_markers(entry, room, glyphs))
    line.append(" ")
    line.append_text(literal(entry.get("name", "?"), f"bold {seat_style(seat)}"))
    if seat == you and you is not None:
        line.append(" (you)", "dim")
    level = entry.get("bot_level")
    if levels and entry.get("bot") and isinstance(level, str):
        line.append_text(literal(f" ({level})", "dim"))
    # Its presence when its player is not there, else (in the lobby) its ready flag.
    if presence_of(entry) != "connected":
        line.append_text(Text.assemble("  ", presence_words(entry, glyphs, grace_left)))
    elif lobby and (entry.get("ready") or entry.get("bot")):
        line.append_text(Text.assemble("  ", (f"{glyphs.ready} ready", "green")))
    elif lobby:
        line.append_text(Text.assemble("  ", (f"{glyphs.not_ready} not ready", "dim")))
    return line


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


def offer_the_room(app: App[Any], entry: Frame, after: str = "") -> None:
    """Ask the owner to confirm handing the room to ``entry`` (``after`` follows the question);
    a handover the host would refuse is not asked about: the owner is told why instead."""
    party = cast(Party, app)
    refusal = None
    if entry.get("seat") == party.seat:
        refusal = "You own the room already."
    elif entry.get("bot") or presence_of(entry) != "connected":
        refusal = f"{entry.get('name', '?')} cannot own the room: only a person who is here can."
    if refusal is not None:
        app.notify(refusal, severity="warning", markup=False)
        return
    question = Text.assemble("Hand the room to ", literal(entry.get("name", "?")), "?", after)
    hand_over = partial(party.requests.give_ownership, int(entry["seat"]))
    confirm_then(app, question, "Hand over", hand_over)


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


class SeatList(OptionList):
    """Selectable seats; the highlighted one is what the owner's kick acts on."""

    DEFAULT_CSS = """
    SeatList, SeatList:focus { height: auto; max-height: 12; border: none; padding: 0; }
    SeatList:focus { background: $boost; }
    """

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

    def highlighted_entry(self, seats: list[Frame]) -> Frame | None:
        """The highlighted seat's entry among ``seats``; None (and a word to say so) if none."""
        seat = self.highlighted_seat()
        entry = next((s for s in seats if seat is not None and s.get("seat") == seat), None)
        if entry is None:
            self.notify("Highlight a seat first (arrow keys, or tap it).", severity="warning")
        return entry

    def highlighted_seat(self) -> int | None:
        if self.highlighted is None or self.option_count == 0:
            return None
        option_id = self.get_option_at_index(self.highlighted).id or ""
        number = option_id.removeprefix("seat-")
        return int(number) if number.lstrip("-").isdigit() else None
