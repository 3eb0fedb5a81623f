"""Frames on their way out: held until the journal has committed, then written at once.

Each connection queues its frames in its :class:`Outbox`; the host's one
:class:`Outgoing` commits the journal once and writes every waiting outbox
(one ``write`` per connection, however many frames it holds). A room's task
calls :meth:`Outgoing.flush` right after each item it handled, so a view
leaves in the same loop turn as the command it shows, never ahead of it;
frames queued anywhere else go out at the end of the loop turn.

Nothing here waits for a socket to drain: a client whose unsent bytes pass
the limit is dropped instead, so one sleeping laptop never stalls a room.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from partyhost.net import protocol as p
from partyhost.net.config import HostConfig
from partyhost.net.journal import Journal

log = logging.getLogger(__name__)

JOURNAL_RETRY = 0.2
"""Seconds before held frames try again to go out after the journal failed to commit."""


class OutboxHost(Protocol):
    """What frames on their way out need from the host: the journal to wait for."""

    @property
    def config(self) -> HostConfig: ...

    @property
    def journal(self) -> Journal | None:
        """Committed before queued frames go out (None before the host has one)."""


class Line(Protocol):
    """The connection an outbox writes to, as the outbox sees it."""

    @property
    def transport(self) -> asyncio.Transport | None: ...

    @property
    def closed(self) -> bool: ...

    def abort(self, reason: str) -> None:
        """Close now, discarding whatever is unsent."""


class Outgoing:
    """The outboxes holding frames, written together behind one journal commit."""

    def __init__(self, host: OutboxHost) -> None:
        self.host = host
        self._waiting: list[Outbox] = []
        self._planned = False

    def holding(self, outbox: Outbox) -> None:
        """``outbox`` has its first frame: write it by the end of this loop turn at the latest."""
        self._waiting.append(outbox)
        if not self._planned:
            self._planned = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Commit the journal, then write every held frame.

        If the journal cannot commit, nothing goes out ahead of it: the frames
        wait and try again soon, and a client whose held frames pass the
        unsent-bytes limit is dropped.
        """
        self._planned = False
        waiting, self._waiting = self._waiting, []
        if not waiting:
            return
        journal = self.host.journal
        committed = journal is None or journal.commit()
        for outbox in waiting:
            if outbox.write(committed):
                self._waiting.append(outbox)
        if self._waiting and not self._planned:
            self._planned = True
            asyncio.get_running_loop().call_later(JOURNAL_RETRY, self.flush)


class Outbox:
    """The frames one connection has queued and not yet written."""

    def __init__(self, line: Line, outgoing: Outgoing) -> None:
        self.line = line
        self.outgoing = outgoing
        self.limit = outgoing.host.config.max_unsent_bytes
        self._frames: list[bytes] = []

    def send_frame(self, frame: bytes, *, journaled: bool = True) -> None:
        """Queue ``frame`` without waiting; it goes out behind the journal's next commit.

        ``journaled=False`` marks a frame that shows no game state (a ping, a
        pong, a refusal): while the journal cannot write, such a frame goes
        out at once instead of waiting behind the views the journal holds back.
        """
        transport = self.line.transport
        if self.line.closed or transport is None or transport.is_closing():
            return
        if len(frame) - p.HEADER.size > p.MAX_HOST_FRAME:
            log.error(
                "%r: dropping a %d-byte frame over the host frame limit", self.line, len(frame)
            )
            return
        journal = self.outgoing.host.journal
        if not journaled and journal is not None and journal.failing:
            self._write(transport, frame)
            return
        if not self._frames:
            self.outgoing.holding(self)
        self._frames.append(frame)

    def write(self, committed: bool) -> bool:
        """Write the queued frames if the journal has ``committed``; True if they stay held."""
        frames = self._frames
        transport = self.line.transport
        if not frames or self.line.closed or transport is None or transport.is_closing():
            frames.clear()  # (close() flushes before it marks the connection closed)
            return False
        if not committed:
            if sum(map(len, frames)) <= self.limit:
                return True
            log.info("%r: over %d bytes held for the journal; dropping it", self.line, self.limit)
            self.line.abort("too far behind")
            return False
        self._frames = []
        self._write(transport, frames[0] if len(frames) == 1 else b"".join(frames))
        return False

    def drop(self) -> None:
        """Forget the unsent frames: the connection is gone or given up on."""
        self._frames.clear()

    def _write(self, transport: asyncio.Transport, data: bytes) -> None:
        """Hand ``data`` to the socket; drop the client if its unsent bytes pass the limit."""
        transport.write(data)
        if transport.get_write_buffer_size() > self.limit:
            log.info("%r: over %d unsent bytes; dropping it", self.line, self.limit)
            self.line.abort("too far behind")
