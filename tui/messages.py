"""Messages the network worker posts to the app: one per kind of host frame.

The worker never touches widgets; it turns frames into these and the app
updates its reactive state on its own loop. ``ViewUpdated`` carries the whole
event log so far, so a newer one can replace an unprocessed older one without
losing log lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from textual.message import Message

Frame = dict[str, Any]


@dataclass
class Connected(Message):
    """The hello is done; ``welcome`` lists the host's games."""

    welcome: Frame


@dataclass
class ConnectFailed(Message):
    """The first connection attempt failed (wrong address, host down, bad protocol)."""

    reason: str


@dataclass
class ConnectionChanged(Message):
    """The link dropped, is being retried, came back, or was given up on."""

    state: str
    detail: str = ""


@dataclass
class RoomsListed(Message):
    rooms: list[Frame]

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, RoomsListed)


@dataclass
class Joined(Message):
    code: str
    seat: int | None
    token: str | None = None


@dataclass
class RoomUpdated(Message):
    room: Frame

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, RoomUpdated)


@dataclass
class ViewUpdated(Message):
    """A fresh game view; only the newest one needs rendering."""

    view: Frame
    events: tuple[Frame, ...] = field(default=())
    now: float | None = None
    """The room's game clock when the host sent the view (times in the view are on it)."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, ViewUpdated)


@dataclass
class PastGamesListed(Message):
    """The games the host kept (finished, and running ones marked so)."""

    games: list[Frame]

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, PastGamesListed)


@dataclass
class StandingsShown(Message):
    """A night's standings (``night``, ``tonight``, ``nights``, ``rows``)."""

    standings: Frame

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, StandingsShown)


@dataclass
class ReplayPage(Message):
    """Steps ``first`` on of past game ``game_id``'s replay (every page counts: never replaced)."""

    game_id: int
    info: Frame
    first: int
    steps: list[Frame]
    total: int


@dataclass
class ChatReceived(Message):
    line: Frame


@dataclass
class NoticeReceived(Message):
    """A host announcement; it joins the game log too (``events``, the whole log so far)."""

    text: str
    events: tuple[Frame, ...] = field(default=())


@dataclass
class DecksListed(Message):
    """Every deck file of the host, broken ones included (``decks``)."""

    decks: list[Frame]

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, DecksListed)


@dataclass
class HostError(Message):
    code: str
    text: str
    problems: tuple[Frame, ...] = ()
    """For ``bad_deck``: each problem of a deck with its file, line and column."""


@dataclass
class LeftRoom(Message):
    reason: str


@dataclass
class HostClosing(Message):
    reason: str


@dataclass
class ConnectionClosed(Message):
    """The worker has ended for good (closed by us, or the host went away)."""

    reason: str
