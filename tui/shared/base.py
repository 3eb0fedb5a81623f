"""What every partyhost screen shares: typed access to the app and its state."""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar, cast

from partyhost.tui.party import Party
from partyhost.tui.shared.log import GameLog
from partyhost.tui.shared.seats import seat_style
from partyhost.tui.text import Glyphs, literal
from rich.text import Text
from textual.screen import ModalScreen, Screen

ResultT = TypeVar("ResultT")


class PartyScreen(Screen[None]):
    """A main screen; ``KIND`` tells the app's router which one is showing."""

    KIND: ClassVar[str] = ""

    @property
    def party(self) -> Party:
        return cast("Party", self.app)

    @property
    def glyphs(self) -> Glyphs:
        return self.party.glyphs


class GameScreen(PartyScreen):
    """A game's table: every game screen reads the same view, names seats, logs and leaves alike."""

    @property
    def view(self) -> dict[str, Any]:
        return self.party.view or {}

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
    def party(self) -> Party:
        return cast("Party", self.app)

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


def decks_title(welcome: dict[str, Any] | None, room: dict[str, Any]) -> Text:
    """The decks a room plays, by title: ``Classic + Office party (sent)``."""
    decks = [d for d in room.get("decks") or [] if isinstance(d, dict)]
    if not decks:
        return literal(deck_title(welcome, room.get("game"), room.get("deck")))
    text = Text()
    for number, deck in enumerate(decks):
        text.append(" + " if number else "")
        text.append_text(literal(deck.get("title") or deck.get("name") or "?"))
        if deck.get("source") == "upload":
            text.append(" (sent)", "dim")
    return text


def seat_name(room: dict[str, Any] | None, seat: object) -> str:
    """The name at ``seat`` as plain text (callers wrap it with ``literal``)."""
    if not isinstance(seat, int) or room is None:
        return "?" if seat is None else f"seat {seat}"
    for entry in room.get("seats", []):
        if isinstance(entry, dict) and entry.get("seat") == seat:
            return str(entry.get("name", f"seat {seat}"))
    return f"seat {seat}"
