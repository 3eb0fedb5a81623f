"""One client connection: frames in, frames out, never blocking anyone else.

A room request goes straight onto the room's queue from ``data_received``.
Lobby requests (and what the same client sends after one, to keep its order)
go to a per-connection queue, so a slow one only delays its sender. Frames out
are never awaited: a client whose unsent bytes pass the limit is dropped, so
one sleeping laptop never stalls a room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from partyhost.net import protocol as p
from partyhost.net.addresslimits import AddressAllowance, AddressLimits, TokenBucket, take_all
from partyhost.net.config import HostConfig
from partyhost.net.deckshelf import UPLOADER
from partyhost.net.protocol import ProtocolError
from partyhost.net.rooms.roomqueue import Outgoing, Request, RoomInbox
from partyhost.net.store import pastgames
from partyhost.net.store.database import Store

log = logging.getLogger(__name__)

LINGER = 2.0
"""Seconds a closing connection keeps draining input before it closes for good."""
PAUSE_AT = 64
"""Queued messages at which we stop reading from the socket until the queue drains."""
WHILE_JOURNAL_FAILS = frozenset({p.HELLO, p.LIST_ROOMS, p.LIST_DECKS, *pastgames.REQUESTS})
"""Requests still answered while the journal cannot write: they change nothing."""
LOBBY_REQUESTS = WHILE_JOURNAL_FAILS | {p.CREATE_ROOM, p.JOIN_ROOM, p.RESUME_SEAT}
"""Answered by the host's lobby (:meth:`.Lobby.handle`); every other request is a room's."""
NOT_SAVING = (
    "The host cannot save games right now (its disk may be full), so it takes no"
    " requests; try again in a moment."
)
BUSY_NOT_SAVING = (
    "The host's database is busy (another program holds it), so the host cannot save games"
    " and takes no requests that change something; try again in a moment."
)
FULL_AND_NOT_SAVING = (
    "The host's disk is full and it cannot save games right now, so it takes no requests;"
    " try again once the host has space."
)
NEW_GAMES = frozenset({p.CREATE_ROOM, p.START_GAME})
"""Requests that start a game: the first refused when the disk fills up."""
DISK_FULL = (
    "The host's disk is full, so it starts no new games; the games already running go on."
    " Try again once the host has space."
)

LobbyRequests = Callable[["Connection", dict[str, Any]], Awaitable[None]]
"""Answers one lobby request of a connection (the host's :meth:`.Lobby.handle`)."""


class ConnectionHost(Protocol):
    """What a connection needs from the host that accepted it."""

    config: HostConfig
    journal: Store | None
    """Committed before queued frames go out (None before the host has one)."""
    address_limits: AddressLimits
    """The rate limits shared by every connection of one address."""
    outgoing: Outgoing
    """Writes every connection's frames behind the journal."""

    def admit(self, connection: Connection) -> str | None:
        """``None`` when the connection is taken in, else why not (for the refusal)."""

    def forget(self, connection: Connection) -> None: ...


class Connection(asyncio.Protocol):
    """The host's end of one client socket."""

    def __init__(self, host: ConnectionHost, lobby: LobbyRequests) -> None:
        self.host = host
        self.lobby = lobby
        self.config = host.config
        self.decoder = p.FrameDecoder(self.config.max_client_frame)
        self._broken: ProtocolError | None = None
        """A framing error met after messages still in the inbox: hang up once they are handled."""
        self.transport: asyncio.Transport | None = None
        self.peer_address = "?"
        self.peer_host = "?"
        """The client's IP address: limits that follow a person's machine use it."""
        self.name = "Player"
        self.written_name = "Player"
        self.greeted = False
        self.room: RoomInbox | None = None
        self.opened = time.monotonic()
        self.last_heard = self.opened
        self.limiter = TokenBucket(self.config.messages_per_second, self.config.message_burst)
        self.chat_limiter = TokenBucket(self.config.chat_per_second, self.config.chat_burst)
        self.shared: AddressAllowance | None = None
        """The buckets of this connection's address, once admitted."""
        self._inbox: deque[tuple[dict[str, Any], float]] = deque()
        """Lobby requests and what came after them, each with when it was read
        (``time.perf_counter``)."""
        self._answering = False
        """The worker is answering a lobby request (later messages queue behind it)."""
        self.outgoing = host.outgoing
        self._held: list[bytes] = []
        """Frames waiting for the journal's next commit (see :class:`.Outgoing`)."""
        self._wakeup = asyncio.Event()
        self._reading_paused = False
        self.closed = False
        """Closing or closed: nothing more is read or sent."""
        self.close_reason = ""
        self.worker: asyncio.Task[None] | None = None

    def __repr__(self) -> str:
        return f"<Connection {self.peer_address} {self.name!r}>"

    # --- asyncio.Protocol ----------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.peer_address = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.peer_host = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        sock = transport.get_extra_info("socket")  # (asyncio sets TCP_NODELAY itself)
        if sock is not None and self.config.socket_send_buffer:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.config.socket_send_buffer)
        # We never wait for drain; the limits only decide when pause_writing fires.
        transport.set_write_buffer_limits(high=self.config.max_unsent_bytes)
        refusal = self.host.admit(self)
        if refusal is not None:
            self.send(p.error("host_full", refusal), journaled=False)
            self.close("host full")
            return
        self.shared = self.host.address_limits.connected(self.peer_host)
        self.worker = asyncio.get_running_loop().create_task(self._work(), name=repr(self))

    def data_received(self, data: bytes) -> None:
        if self.closed or self._broken is not None:
            return
        self.last_heard = time.monotonic()
        arrived = time.perf_counter()
        try:
            bodies = self.decoder.feed(data)
        except ProtocolError as broken:
            self._framing_failed(broken)
            return
        for body in bodies:
            if self.closed:
                return
            self._receive(body, arrived)
        if self.decoder.error is not None and not self.closed:
            self._fail_after_inbox(self.decoder.error)
            return
        if len(self._inbox) >= PAUSE_AT and not self._reading_paused and self.transport:
            self._reading_paused = True
            self.transport.pause_reading()

    def _fail_after_inbox(self, broken: ProtocolError) -> None:
        """Hang up once the messages already read are handled: they came before the bad bytes."""
        if not self._inbox:
            self._framing_failed(broken)
            return
        self._broken = broken
        if self.transport is not None:
            self.transport.pause_reading()  # nothing after the bad length can be framed

    def _framing_failed(self, broken: ProtocolError) -> None:
        """The byte stream cannot be followed any more: say why and hang up."""
        self.send(p.error(broken.code, broken.message))
        self.close(broken.code)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._held.clear()
        if not self.close_reason:
            self.close_reason = "connection lost" if exc is None else f"connection lost: {exc}"
        if self.worker is not None:
            self.worker.cancel()
        if self.shared is not None:
            self.host.address_limits.disconnected(self.peer_host)
            self.shared = None
        self.host.forget(self)

    # --- receiving -----------------------------------------------------------

    def _receive(self, body: bytes, arrived: float) -> None:
        try:
            decoded = p.decode_body(body)
            if not self.greeted and self._other_protocol(decoded):
                return
            message = p.validate_client_message(decoded)
        except ProtocolError as bad:
            self._refuse(bad.code, bad.message, fatal=bad.fatal or not self.greeted)
            return
        kind = message["t"]
        if not self.greeted:
            if kind != p.HELLO:
                self._refuse("hello_required", "Send 'hello' first.", fatal=True)
                return
            self.greeted = True
        elif kind == p.HELLO:
            self._refuse("already_greeted", "This connection already said hello.")
            return
        if kind == p.PING:
            self.send({"t": p.PONG, "n": message.get("n", 0)}, journaled=False)
            return
        if kind == p.PONG:
            return
        # A token from this connection's bucket and from its address's (see addresslimits).
        shared = self.shared
        if not take_all((self.limiter,) if shared is None else (self.limiter, shared.messages)):
            rate, burst = self.config.messages_per_second, self.config.message_burst
            self._refuse(
                "rate_limited",
                f"Too many messages (at most {rate:g} a second, bursts of {burst}); slow down.",
                ref=message.get("ref"),
            )
            return
        chat = (self.chat_limiter,) if shared is None else (self.chat_limiter, shared.chat)
        if kind == p.CHAT and not take_all(chat):
            rate, burst = self.config.chat_per_second, self.config.chat_burst
            self._refuse(
                "rate_limited",
                f"You are chatting too fast (chat limit: {rate:g} a second, bursts of {burst});"
                " wait a moment.",
            )
            return
        if self._inbox or self._answering or kind in LOBBY_REQUESTS:
            self._inbox.append((message, arrived))
            self._wakeup.set()
        else:
            self._to_room(message, arrived)

    def _not_saving(self, message: dict[str, Any]) -> bool:
        """Refused (True) if the journal cannot write and ``message`` would change something."""
        journal = self.host.journal
        if journal is None:
            return False
        if journal.failing and message["t"] not in WHILE_JOURNAL_FAILS:
            if journal.short_of_space:
                why = FULL_AND_NOT_SAVING
            else:
                why = BUSY_NOT_SAVING if journal.busy else NOT_SAVING
        elif journal.short_of_space and message["t"] in NEW_GAMES:
            why = DISK_FULL
        else:
            return False
        self.send(p.error("journal_unavailable", why, message.get("ref")), journaled=False)
        return True

    def _to_room(self, message: dict[str, Any], arrived: float) -> None:
        if self._not_saving(message):
            return
        if self.room is None:
            self.send(p.error("not_in_room", "Join or create a room first.", message.get("ref")))
            return
        self.room.post(Request(self, message, arrived))

    def _other_protocol(self, decoded: Any) -> bool:
        """A hello of another version: say so, naming both, even if its fields differ."""
        if not isinstance(decoded, dict) or decoded.get("t") != p.HELLO:
            return False
        version = decoded.get("protocol")
        if type(version) is not int or version == p.PROTOCOL_VERSION:  # a bool is not a version
            return False
        self.send(p.mismatch_error(version))
        self.close("protocol mismatch")
        return True

    def _refuse(
        self, code: str, message: str, *, fatal: bool = False, ref: int | None = None
    ) -> None:
        self.send(p.error(code, message, ref), journaled=False)
        if fatal:
            self.close(code)

    async def _work(self) -> None:
        """Answer this connection's lobby requests in order; errors stay here."""
        UPLOADER.set(self.peer_host)  # this task's own context: deck files are charged to it
        while not self.closed:
            if not self._inbox:
                if self._broken is not None:
                    self._framing_failed(self._broken)
                    return
                self._wakeup.clear()
                await self._wakeup.wait()
                continue
            message, arrived = self._inbox.popleft()
            if self._reading_paused and len(self._inbox) < PAUSE_AT // 4 and self.transport:
                self._reading_paused = False
                self.transport.resume_reading()
            if message["t"] not in LOBBY_REQUESTS:
                self._to_room(message, arrived)
                continue
            if self._not_saving(message):
                continue
            self._answering = True
            try:
                await self.lobby(self, message)
            except Exception:
                log.exception("%r: failed handling %s", self, message.get("t"))
                why = "The host failed to handle that; nothing changed."
                self.send(p.error("internal", why, message.get("ref")))  # (validated: int or nil)
            finally:
                self._answering = False

    # --- sending -------------------------------------------------------------

    def send(self, message: dict[str, Any], *, journaled: bool = True) -> None:
        """Encode and queue ``message`` (see :meth:`send_frame` for ``journaled``)."""
        if self.closed:
            return
        try:
            frame = p.encode(message)
        except Exception:
            log.exception("%r: cannot encode a %s frame", self, message.get("t"))
            return
        self.send_frame(frame, journaled=journaled)

    def send_frame(self, frame: bytes, *, journaled: bool = True) -> None:
        """Queue ``frame`` without waiting; it goes out behind the journal's next commit, or
        at once while the journal cannot write if it shows no game state (``journaled=False``:
        a ping, a pong, a refusal)."""
        transport = self.transport
        if self.closed or transport is None or transport.is_closing():
            return
        if len(frame) - p.HEADER.size > p.MAX_HOST_FRAME:
            log.error("%r: dropping a %d-byte frame over the host frame limit", self, len(frame))
            return
        journal = self.host.journal
        if not journaled and journal is not None and journal.failing:
            self._write(transport, frame)
            return
        if not self._held:
            self.outgoing.holding(self)
        self._held.append(frame)

    def write_held(self, committed: bool) -> bool:
        """Write the held frames if the journal has ``committed``; True if they stay held
        (counted against the unsent-bytes limit all the same)."""
        frames = self._held
        transport = self.transport
        if not frames or self.closed or transport is None or transport.is_closing():
            frames.clear()  # (close() flushes before it marks the connection closed)
            return False
        if not committed:
            limit = self.config.max_unsent_bytes
            if sum(map(len, frames)) <= limit:
                return True
            log.info("%r: over %d bytes held for the journal; dropping it", self, limit)
            self.abort("too far behind")
            return False
        self._held = []
        self._write(transport, frames[0] if len(frames) == 1 else b"".join(frames))
        return False

    def _write(self, transport: asyncio.Transport, data: bytes) -> None:
        """Hand ``data`` to the socket; drop the client if its unsent bytes pass the limit."""
        transport.write(data)
        limit = self.config.max_unsent_bytes
        if transport.get_write_buffer_size() > limit:
            log.info("%r: over %d unsent bytes; dropping it", self, limit)
            self.abort("too far behind")

    def close(self, reason: str) -> None:
        """Close after the frames already queued are written, lingering: send FIN, keep reading
        (and ignoring) what the client still sends, then close. Closing with unread input
        makes the kernel reset the connection: the client could lose our last frame, which
        usually explains why we hung up."""
        transport = self.transport
        if transport is None or self.closed:
            return
        self.outgoing.flush()
        self.close_reason = self.close_reason or reason
        self.closed = True
        if transport.can_write_eof():
            try:
                transport.write_eof()
            except OSError:  # the peer is already gone (not connected): nothing to linger for
                transport.close()
                return
            asyncio.get_running_loop().call_later(LINGER, transport.close)
        else:
            transport.close()

    def abort(self, reason: str) -> None:
        """Close now, discarding whatever is unsent."""
        self._held.clear()
        if self.transport is not None:
            self.close_reason = self.close_reason or reason
            self.closed = True
            self.transport.abort()
