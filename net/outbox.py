"""A connection's frames on their way out: batched per loop turn, behind the journal.

Frames queued during one event-loop turn go out together at the start of the
next (one ``write`` per connection per turn, not one per frame), and only
after the journal has committed what was accepted in that turn: a view is
never sent ahead of the command it shows. Nothing here waits for the socket
to drain: a client whose unsent bytes pass the limit is dropped instead, so
one sleeping laptop never stalls a room.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Protocol

from partyhost.net import protocol as p
from partyhost.net.config import HostConfig
from partyhost.net.hoststats import LatencyMeter, Sample
from partyhost.net.store import Store

log = logging.getLogger(__name__)

JOURNAL_RETRY = 0.2
"""Seconds before queued frames try again to go out after the journal failed to commit."""


class OutboxHost(Protocol):
    """What an outbox needs from the host: the journal to wait for, the latency meter."""

    @property
    def journal(self) -> Store | None:
        """Committed before queued frames go out (None before the host has one)."""

    @property
    def meter(self) -> LatencyMeter | None:
        """Times commands from arrival to their last frame written (None: not measured)."""


class Line(Protocol):
    """The connection an outbox writes to, as the outbox sees it."""

    @property
    def transport(self) -> asyncio.Transport | None: ...

    @property
    def closed(self) -> bool: ...

    def abort(self, reason: str) -> None:
        """Close now, discarding whatever is unsent."""


class Outbox:
    """The frames one connection has queued and not yet written."""

    def __init__(self, line: Line, host: OutboxHost, config: HostConfig) -> None:
        self.line = line
        self.host = host
        self.config = config
        self._frames: list[bytes] = []
        self._samples: list[Sample] = []
        """Commands being timed that have a frame in the outbox."""
        self._flush_planned = False

    def send_frame(self, frame: bytes, *, journaled: bool = True) -> None:
        """Queue ``frame`` without waiting; it goes out with this loop turn's others.

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
        journal = self.host.journal
        if not journaled and journal is not None and journal.failing:
            self._write(transport, frame)
            return
        self._frames.append(frame)
        meter = self.host.meter
        if meter is not None and meter.current is not None:
            sample = meter.current
            if not self._samples or self._samples[-1] is not sample:
                sample.waiting += 1
                self._samples.append(sample)
        if not self._flush_planned:
            self._flush_planned = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Write the queued frames at once, after the journal has committed.

        Drops the client if its unsent bytes pass the limit.
        """
        self._flush_planned = False
        frames = self._frames
        transport = self.line.transport
        if not frames or self.line.closed or transport is None or transport.is_closing():
            frames.clear()  # (close() flushes before it marks the connection closed)
            self._frames_gone()
            return
        journal = self.host.journal
        if journal is not None and not journal.commit():
            if sum(map(len, frames)) > self.config.max_unsent_bytes:
                limit = self.config.max_unsent_bytes
                log.info("%r: over %d bytes held for the journal; dropping it", self.line, limit)
                self.line.abort("too far behind")
            elif not self.line.closed:  # nothing goes out ahead of the journal: try again soon
                self._flush_planned = True
                asyncio.get_running_loop().call_later(JOURNAL_RETRY, self.flush)
            return
        self._frames = []
        self._write(transport, frames[0] if len(frames) == 1 else b"".join(frames))
        self._frames_gone()

    def drop(self) -> None:
        """Forget the unsent frames: the connection is gone or given up on."""
        self._frames.clear()
        self._frames_gone()

    def _write(self, transport: asyncio.Transport, data: bytes) -> None:
        """Hand ``data`` to the socket; drop the client if its unsent bytes pass the limit."""
        transport.write(data)
        limit = self.config.max_unsent_bytes
        if transport.get_write_buffer_size() > limit:
            log.info("%r: over %d unsent bytes; dropping it", self.line, limit)
            self.line.abort("too far behind")

    def _frames_gone(self) -> None:
        """The outbox was written (or dropped): the commands timed in it are done here."""
        if not self._samples:
            return
        meter = self.host.meter
        samples, self._samples = self._samples, []
        if meter is not None:
            now = time.perf_counter()
            for sample in samples:
                meter.written(sample, now)
