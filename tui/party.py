"""What a screen may use of the app (:class:`Party`), so the app, which routes to the
screens, and the screens never import each other; ``tui/app.py`` checks the promise."""

from __future__ import annotations

from typing import Protocol

from partyhost.tui.clock import HostClock
from partyhost.tui.hostlink import HostRequests
from partyhost.tui.text import Frame, Glyphs
from textual.binding import Binding, BindingType

APP_BINDINGS: list[BindingType] = [
    Binding("f1", "help", "Help"),
    Binding("question_mark", "help", "Help", show=False),
]
"""Keys that work on every screen (the help screen lists them under "Everywhere")."""


class PauseControls(Protocol):
    """How screens ask for a pause (:class:`partyhost.tui.pausing.Pauser`)."""

    def toggle(self) -> None:
        """The owner's pause key: pause, or resume."""

    def dialog_opened(self) -> None:
        """A screen went over a game's table."""

    def dialog_closed(self) -> None:
        """The game's table is on top again."""


class Party(Protocol):
    """The app as screens see it: read its state, send through ``requests``."""

    welcome: Frame | None
    rooms: tuple[Frame, ...]
    decks: tuple[Frame, ...]
    room: Frame | None
    room_code: str | None
    seat: int | None
    view: Frame | None
    events: tuple[Frame, ...]
    chat: tuple[Frame, ...]
    link: str
    retry_at: float | None
    """When the host said the seat may be asked for again (``time.monotonic``), or None."""
    connect_error: str
    requests: HostRequests
    glyphs: Glyphs
    ascii_only: bool
    animated: bool
    remember: bool
    start_address: str | None
    locked_address: str | None
    """The only host the connect screen may offer (a locked client's), or None."""
    start_name: str | None
    create_choices: Frame
    offer_create: bool
    prepare_dialogs: bool
    past_games: tuple[Frame, ...]
    standings: Frame | None
    clock: HostClock

    @property
    def pauser(self) -> PauseControls:
        """Asks the host to pause and resume."""

    solo: bool
    """``partyhost play``: you and bots alone; leaving quits."""

    def play(self, command: Frame) -> bool:
        """Send a game command (a filled legal template); False if not connected."""

    def connect(self, address_text: str, name: str) -> None:
        """Open a connection to a typed ``host[:port]`` as ``name`` (ValueError if unreadable)."""

    def open_replay(self, game_id: int) -> None:
        """Ask the host for a finished game's replay and show it when it comes."""

    def disconnect(self) -> None:
        """Close the connection and go back to the connect screen."""

    def game_running(self) -> bool:
        """Whether the room's game is on (not over, not between games)."""

    def leave_room(self) -> None:
        """Give up the seat (against bots alone: quit)."""

    def exit(self, result: int | None = None) -> None:
        """End the app."""


def legal_of(view: Frame, kind: str) -> list[Frame]:
    """The view's legal commands of one type (the only moves the UI offers)."""
    return [c for c in view.get("legal", []) if isinstance(c, dict) and c.get("type") == kind]
