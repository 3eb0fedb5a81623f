"""What every partyhost screen shares: typed access to the app and its state.

Every game's table (:class:`GameScreen`) also shares the table's keys: ``o``
shows the seats and, to the owner, their controls; ``P`` pauses and resumes.
Each seat's row gets a badge while its player is not there, counting down
the grace period, and the status line says who paused the game. In
``partyhost play`` a dialog over a real-time game pauses it until it closes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from partyhost.tui.shared.log import GameLog
from partyhost.tui.shared.seats import presence_badge, presence_of, seat_style
from partyhost.tui.text import Glyphs, literal
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen
from textual.timer import Timer

if TYPE_CHECKING:
    from partyhost.tui.app import PartyApp

ResultT = TypeVar("ResultT")


class PartyScreen(Screen[None]):
    """A main screen; ``KIND`` tells the app's router which one is showing."""

    KIND: ClassVar[str] = ""

    @property
    def party(self) -> PartyApp:
        return cast("PartyApp", self.app)

    @property
    def glyphs(self) -> Glyphs:
        return self.party.glyphs


Badge = tuple[str, str]
"""A short text and its style, added to a seat's row (``("○87s", "bold yellow")``)."""


TABLE_KEYS: list[BindingType] = [
    Binding("o", "table", "Table"),
    Binding("P", "pause", "Pause/resume (owner)", show=False),
]
"""The keys every game's table has (each game lists them among its own, before Leave)."""


class GameScreen(PartyScreen):
    """A game's table: every game screen reads the same view, names seats, logs and leaves alike."""

    def __init__(self) -> None:
        super().__init__()
        self._presence_clock: Timer | None = None

    @property
    def view(self) -> dict[str, Any]:
        return self.party.view or {}

    # --- the table: presence, pause, the owner's controls ---------------------------

    def on_mount(self) -> None:
        self.watch(self.party, "room", self._count_graces)

    def redraw_table(self) -> None:
        """Draw everything again (each game's own way); the presence clock calls it."""

    def presence_badges(self) -> dict[int, Badge]:
        """A badge for each seat whose player is not there: ``○87s``, ``☾bot``, ``✗gone``."""
        badges: dict[int, Badge] = {}
        for entry in (self.party.room or {}).get("seats", []):
            seat = entry.get("seat") if isinstance(entry, dict) else None
            if isinstance(seat, int):
                badge = presence_badge(entry, self.glyphs, self.party.clock.grace_left(entry))
                if badge[0]:
                    badges[seat] = badge
        return badges

    def _count_graces(self) -> None:
        """While someone's grace period runs, redraw each second so it counts down."""
        seats = (self.party.room or {}).get("seats", [])
        counting = any(presence_of(entry) == "disconnected" for entry in seats)
        if counting and self._presence_clock is None:
            self._presence_clock = self.set_interval(1, self.redraw_table)
        elif not counting and self._presence_clock is not None:
            self._presence_clock.stop()
            self._presence_clock = None

    def pause_note(self) -> Text:
        """``Paused by Ann.`` at the head of the status line while the game is paused."""
        paused = (self.party.room or {}).get("paused")
        if not isinstance(paused, dict):
            return Text()
        return Text.assemble(
            ("Paused by ", "bold reverse yellow"),
            literal(paused.get("by") or "the owner", "bold reverse yellow"),
            (". ", "bold reverse yellow"),
            " ",
        )

    def game_time(self) -> float:
        """The room's game clock now (deadlines in the view are on it; it stops when paused)."""
        return self.party.clock.game_time(self.party.room)

    def is_owner(self) -> bool:
        seat = self.party.seat
        return seat is not None and (self.party.room or {}).get("owner") == seat

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pause":
            return self.is_owner() and (self.party.room or {}).get("status") == "playing"
        return True

    def action_table(self) -> None:
        from partyhost.tui.shared.tablecontrols import TableControlsScreen

        self.app.push_screen(TableControlsScreen())

    def action_pause(self) -> None:
        self.party.pauser.toggle()

    def on_screen_suspend(self) -> None:
        self.party.pauser.dialog_opened()

    def on_screen_resume(self) -> None:
        self.party.pauser.dialog_closed()

    def seat_color(self, seat: object) -> str:
        """The style a seat's name is drawn in; a game may colour seats its own way."""
        return seat_style(seat)

    def _who(self, seat: object) -> Text:
        """A seat's name exactly as typed, in its colour, underlined when it is you."""
        style = f"bold {self.seat_color(seat)}"
        if seat == self.view.get("you") and seat is not None:
            style += " underline"
        return literal(seat_name(self.party.room, seat), style)

    def _show_log(self) -> None:
        self.query_one(GameLog).show(self.party.events)

    def _leave(self, answer: bool | None) -> None:
        """The answer to "Leave this game?": give the seat up only on a yes."""
        if answer:
            self.party.requests.leave_room()


class PartyModal(ModalScreen[ResultT], Generic[ResultT]):
    """A dialog over a main screen; Escape closes it without a result."""

    @property
    def party(self) -> PartyApp:
        return cast("PartyApp", self.app)

    @property
    def glyphs(self) -> Glyphs:
        return self.party.glyphs


def deck_title(welcome: dict[str, Any] | None, game: object, deck: object) -> str:
    """A deck's title ("Classic") from the welcome, or its file name if unknown."""
    for description in (welcome or {}).get("games", []):
        if description.get("id") == game:
            for entry in description.get("decks", []):
                if entry.get("name") == deck:
                    return str(entry.get("title") or deck)
    return str(deck or "default")


def seat_name(room: dict[str, Any] | None, seat: object) -> str:
    """The name at ``seat`` as plain text (callers wrap it with ``literal``)."""
    if not isinstance(seat, int) or room is None:
        return "?" if seat is None else f"seat {seat}"
    for entry in room.get("seats", []):
        if isinstance(entry, dict) and entry.get("seat") == seat:
            return str(entry.get("name", f"seat {seat}"))
    return f"seat {seat}"
