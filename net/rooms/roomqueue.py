"""A room's queue: what goes on it, and the protocols where connections and rooms meet.

Connections and the host never change a room: they post an item that the
room's task (:meth:`.Room.run`) turns into one call on the room.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


class RoomInbox(Protocol):
    """What a connection, or the host for it, may do with a room: post to its queue."""

    def post(self, item: RoomItem) -> None: ...


class Peer(Protocol):
    """What a room needs of a client connection."""

    name: str
    written_name: str
    """The name as typed (controls removed, invisible characters kept): see ``names``."""
    room: RoomInbox | None
    """The room this connection is in (or joining), or None."""
    peer_host: str
    """The client's IP address (a room's ban list holds the addresses of kicked players)."""

    @property
    def closed(self) -> bool: ...

    def send(self, message: dict[str, Any]) -> None: ...

    def send_frame(self, frame: bytes) -> None: ...

    def close(self, reason: str) -> None: ...


@dataclass
class Join:
    """A connection asks for the next free seat, or to watch."""

    peer: Peer
    spectate: bool


@dataclass
class Resume:
    """A connection is back with a seat token the lobby knows."""

    peer: Peer
    member_id: int
    token: str


@dataclass
class Request:
    """A validated client message for the room (see ``protocol.validate_client_message``)."""

    peer: Peer
    message: dict[str, Any]
    arrived: float = 0.0
    """When the message was read from its socket (``time.perf_counter``)."""


class Observer:
    """Told each time a room has handled a client's request and written what it caused.

    The host measures nothing itself: this default does nothing, and a
    benchmark hands ``Host(config, observer=...)`` its own to time requests
    from their arrival to their last frame written.
    """

    def handled(self, request: Request) -> None:
        """``request`` is done: every frame it caused (views, errors) is written."""


@dataclass
class Gone:
    """A connection closed."""

    peer: Peer


class CloseRoom:
    """The host's console closes the room: everyone in it is sent out, the journal forgets it."""


class Stop:
    """Host shutdown: the task ends, everything stays in the journal."""


RoomItem = Join | Resume | Request | Gone | CloseRoom | Stop
