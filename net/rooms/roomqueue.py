"""A room's queue: what goes on it, the protocols where connections and rooms meet, and
the frames on their way out.

Connections and the host never change a room: they post an item that the
room's task (:meth:`.Room.run`) turns into one call on the room. Frames out are held
until the journal has committed, then written at once: a room's task flushes right
after each item, so a view leaves in the same loop turn as the command it shows, never
ahead of it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Protocol

from partyhost.net.store.database import Store


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
    """Told each time a room has handled a client's request and written what it caused: this
    default does nothing, a benchmark hands ``Host(config, observer=...)`` its own."""

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

JOURNAL_RETRY = 0.2
"""Seconds before held frames try again to go out after the journal failed to commit."""


class Holder(Protocol):
    """A connection holding frames, as :class:`Outgoing` sees it."""

    def write_held(self, committed: bool) -> bool:
        """Write the held frames if the journal has ``committed``; True if they stay held."""


class Outgoing:
    """The connections holding frames, written together behind one journal commit."""

    def __init__(self) -> None:
        self.journal: Store | None = None
        """Committed before held frames go out (None until the host opens its store)."""
        self._holders: list[Holder] = []
        self._planned = False

    def holding(self, holder: Holder) -> None:
        """``holder`` has its first frame: write it by the end of this loop turn at the latest."""
        self._holders.append(holder)
        if not self._planned:
            self._planned = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Commit the journal, then have every holder write its frames; if it cannot commit,
        the frames wait and try again soon (a holder drops a client held too far behind)."""
        self._planned = False
        holders, self._holders = self._holders, []
        if not holders:
            return
        committed = self.journal is None or self.journal.commit()
        self._holders = [holder for holder in holders if holder.write_held(committed)]
        if self._holders and not self._planned:
            self._planned = True
            asyncio.get_running_loop().call_later(JOURNAL_RETRY, self.flush)
