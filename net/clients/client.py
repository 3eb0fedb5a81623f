"""The one client library: what the TUI, network bots and tests talk to a host with.

:class:`RequestMethods` is the only place a client builds a message (one method
per client message type; a test holds them in step with the protocol).
:class:`ReconnectingClient` comes back with the seat token when the link drops
and reports it as ``{"t": "connection", "state": ...}`` messages, so a UI can
show what is happening.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from partyhost import __version__
from partyhost.net import protocol as p

Message = dict[str, Any]
Sent = TypeVar("Sent")
"""What a class's ``send`` returns, and so every request method (an awaitable, a flag...)."""


class NetError(Exception):
    """Base of the client library's errors."""


class ConnectionFailed(NetError):
    """Could not connect, or the host refused the hello (``code`` says why)."""

    def __init__(self, message: str, code: str = "connect_failed") -> None:
        super().__init__(message)
        self.code = code


class ProtocolMismatch(ConnectionFailed):
    """The host speaks another protocol version; the message names both."""

    def __init__(self, message: str, host_protocol: int | None, client_protocol: int) -> None:
        super().__init__(message, "protocol_mismatch")
        self.host_protocol = host_protocol
        self.client_protocol = client_protocol


class ConnectionLost(NetError):
    """The connection ended (``reason`` says how); nothing more will arrive."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class RequestMethods(Generic[Sent]):
    """One method per client message; optional fields left at ``None`` are not sent."""

    def send(self, message: Message) -> Sent:
        raise NotImplementedError

    def _send_with(self, kind: str, **fields: Any) -> Sent:
        return self.send({"t": kind, **{k: v for k, v in fields.items() if v is not None}})

    def hello(
        self, protocol: int, name: str, client: str | None = None, token: str | None = None
    ) -> Sent:
        """The first message of a connection (``connect`` sends it; a second is refused)."""
        return self._send_with(p.HELLO, protocol=protocol, name=name, client=client, token=token)

    def ping(self, n: int | None = None) -> Sent:
        return self._send_with(p.PING, n=n)

    def pong(self, n: int | None = None) -> Sent:
        """The answer to the host's ``ping`` (the connections send it by themselves)."""
        return self._send_with(p.PONG, n=n)

    def list_rooms(self) -> Sent:
        return self._send_with(p.LIST_ROOMS)

    def list_decks(self) -> Sent:
        """Every deck file of the host, broken ones too; the host answers ``decks``."""
        return self._send_with(p.LIST_DECKS)

    def create_room(
        self,
        game: str,
        deck: str | None = None,
        options: dict[str, Any] | None = None,
        password: str | None = None,
        bot_takeover: bool | None = None,
        decks: list[str] | None = None,
        deck_files: list[dict[str, str]] | None = None,
    ) -> Sent:
        """A new room; ``decks`` plays several of the host's decks together and
        ``deck_files`` sends decks from this computer, ``{"name", "text"}`` each
        (:func:`read_deck_files` reads them)."""
        return self._send_with(
            p.CREATE_ROOM,
            game=game,
            deck=deck,
            decks=decks,
            deck_files=deck_files,
            options=options,
            password=password,
            bot_takeover=bot_takeover,
        )

    def join_room(self, code: str, password: str | None = None, spectate: bool = False) -> Sent:
        return self._send_with(
            p.JOIN_ROOM, code=code, password=password, spectate=True if spectate else None
        )

    def resume_seat(self, token: str) -> Sent:
        """Back to the seat a token from ``joined`` names (as ``hello``'s token does)."""
        return self._send_with(p.RESUME_SEAT, token=token)

    def leave_room(self) -> Sent:
        return self._send_with(p.LEAVE_ROOM)

    def set_ready(self, ready: bool = True) -> Sent:
        return self._send_with(p.SET_READY, ready=ready)

    def set_options(self, options: dict[str, Any], bot_takeover: bool | None = None) -> Sent:
        return self._send_with(p.SET_OPTIONS, options=options, bot_takeover=bot_takeover)

    def start_game(self) -> Sent:
        return self._send_with(p.START_GAME)

    def kick(self, seat: int) -> Sent:
        return self._send_with(p.KICK, seat=seat)

    def add_bot(self, level: str | None = None) -> Sent:
        """An in-host bot: ``easy``, ``normal`` or ``hard`` (None: the host's default)."""
        return self._send_with(p.ADD_BOT, level=level)

    def remove_bot(self, seat: int) -> Sent:
        return self._send_with(p.REMOVE_BOT, seat=seat)

    def replace_with_bot(self, seat: int) -> Sent:
        """The owner has a bot play a disconnected or away player's seat now."""
        return self._send_with(p.REPLACE_WITH_BOT, seat=seat)

    def give_ownership(self, seat: int) -> Sent:
        return self._send_with(p.GIVE_OWNERSHIP, seat=seat)

    def pause_game(self) -> Sent:
        return self._send_with(p.PAUSE_GAME)

    def resume_game(self) -> Sent:
        return self._send_with(p.RESUME_GAME)

    def chat(self, text: str) -> Sent:
        return self._send_with(p.CHAT, text=text)

    def play(self, cmd: dict[str, Any], ref: int | None = None) -> Sent:
        """A game command, one of the view's ``legal`` templates (``ref`` comes back in errors)."""
        return self._send_with(p.PLAY, cmd=cmd, ref=ref)

    def list_past_games(self, night: str | None = None) -> Sent:
        """The games the host kept (``past_games``), of one night (``YYYY-MM-DD``) or all."""
        return self._send_with(p.LIST_PAST_GAMES, night=night)

    def get_replay(
        self,
        id: int,
        first: int | None = None,
        count: int | None = None,
        *,
        token: str | None = None,
        password: str | None = None,
    ) -> Sent:
        """A page of past game ``id``'s replay (``replay``) from step ``first`` (default 0); a
        ``locked`` game needs the seat token it was played with or its room's password."""
        return self._send_with(
            p.GET_REPLAY, id=id, first=first, count=count, token=token, password=password
        )

    def get_standings(self, night: str | None = None) -> Sent:
        """A night's standings (``standings``; default tonight's)."""
        return self._send_with(p.GET_STANDINGS, night=night)

    def seen(self) -> Sent:
        """This player has read the round's result (the room's ``pause`` waits for it)."""
        return self._send_with(p.SEEN)

    def reclaim_answer(self, ask: int, yes: bool) -> Sent:
        """Answer a ``reclaim_ask``: whether the visitor is the absent player they say."""
        return self._send_with(p.RECLAIM_ANSWER, ask=ask, yes=yes)


class MessageBuilder(RequestMethods[Message]):
    """The messages themselves, sent nowhere: ``build.add_bot("hard")``."""

    def send(self, message: Message) -> Message:
        return message


build = MessageBuilder()
"""Every client message as a value (handshakes, tests, tools that write frames themselves)."""


class Requests(RequestMethods[Awaitable[None]]):
    """What both connection classes share: every request awaits its ``send``, and
    ``async for message in client`` runs over :meth:`recv`, ending when the link does."""

    async def send(self, message: Message) -> None:
        raise NotImplementedError

    async def recv(self) -> Message:
        """The next message; :class:`ConnectionLost` once the stream is over."""
        raise NotImplementedError

    def __aiter__(self) -> AsyncIterator[Message]:
        return self

    async def __anext__(self) -> Message:
        try:
            return await self.recv()
        except ConnectionLost:
            raise StopAsyncIteration from None


CLIENT_NAME = f"partyhost-python/{__version__}"
CONNECTION = "connection"
"""``t`` of the synthetic status messages a :class:`ReconnectingClient` yields."""

Tap = Callable[[bytes], None]
"""Called with every raw frame (length prefix included) a connection receives."""


async def _read_frame(reader: asyncio.StreamReader, tap: Tap | None = None) -> Message:
    header = await reader.readexactly(p.HEADER.size)
    (length,) = p.HEADER.unpack(header)
    if length > p.MAX_HOST_FRAME:
        raise p.ProtocolError("frame_too_large", f"host frame of {length} bytes", fatal=True)
    body = await reader.readexactly(length)
    if tap is not None:
        tap(header + body)
    message = p.decode_body(body, strict_keys=False)
    if not isinstance(message, dict) or not isinstance(message.get("t"), str):
        raise p.ProtocolError("bad_message", "host sent a frame that is not a message")
    return message


class HostConnection(Requests):
    """One live connection to a host, after a successful hello."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        welcome: Message,
        token: str | None,
        tap: Tap | None = None,
    ) -> None:
        self._reader = reader
        self._tap = tap
        self._writer = writer
        self.welcome = welcome
        self.token = token
        """The latest seat token (from ``joined``); pass it to ``connect`` to come back."""
        self.code: str | None = None
        self.seat: int | None = None
        self.close_reason: str | None = None
        self._inbox: asyncio.Queue[Message | ConnectionLost] = asyncio.Queue()
        self._reader_task = asyncio.create_task(self._read_loop())

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        name: str,
        *,
        token: str | None = None,
        timeout: float = 5.0,
        protocol: int = p.PROTOCOL_VERSION,
        tap: Tap | None = None,
        source: str | None = None,
    ) -> HostConnection:
        """Connect, say hello and wait for ``welcome`` (raises ConnectionFailed); ``tap`` sees
        every later frame's bytes, ``source`` is the local address to connect from."""
        local = None if source is None else (source, 0)
        try:
            async with asyncio.timeout(timeout):
                reader, writer = await asyncio.open_connection(host, port, local_addr=local)
                try:
                    hello = build.hello(protocol, name, CLIENT_NAME, token or None)
                    writer.write(p.encode(hello))
                    welcome = await cls._await_welcome(reader, writer, protocol)
                except BaseException:
                    writer.close()
                    raise
        except TimeoutError:
            raise ConnectionFailed(f"No answer from {host}:{port} within {timeout:g}s.") from None
        except (OSError, asyncio.IncompleteReadError, p.ProtocolError) as exc:
            raise ConnectionFailed(f"Cannot connect to {host}:{port}: {exc}") from None
        return cls(reader, writer, welcome, token if welcome.get("resumed") else None, tap)

    @staticmethod
    async def _await_welcome(
        reader: asyncio.StreamReader, writer: asyncio.StreamWriter, protocol: int
    ) -> Message:
        while True:
            message = await _read_frame(reader)
            kind = message["t"]
            if kind == p.WELCOME:
                return message
            if kind == p.PING:
                writer.write(p.encode(build.pong(message.get("n", 0))))
            elif kind == p.ERROR:
                text = str(message.get("message", "the host refused the connection"))
                if message.get("code") == "protocol_mismatch":
                    raise ProtocolMismatch(text, message.get("host_protocol"), protocol)
                raise ConnectionFailed(text, str(message.get("code", "refused")))

    async def _read_loop(self) -> None:
        reason = "connection closed by the host"
        try:
            while True:
                message = await _read_frame(self._reader, self._tap)
                kind = message["t"]
                if kind == p.PING:
                    self._writer.write(p.encode(build.pong(message.get("n", 0))))
                    continue
                if kind == p.JOINED:
                    self.code, self.seat = message.get("code"), message.get("seat")
                    self.token = message.get("token") or self.token
                elif kind == p.LEFT:
                    self.code, self.seat, self.token = None, None, None
                elif kind == p.BYE:
                    reason = f"host said bye: {message.get('reason', '')}"
                self._inbox.put_nowait(message)
        except asyncio.IncompleteReadError:
            pass
        except (OSError, p.ProtocolError) as exc:
            reason = f"connection failed: {exc}"
        except asyncio.CancelledError:
            reason = "closed"
        finally:
            self._finish(reason)

    def _finish(self, reason: str) -> None:
        """Mark the connection over (once): readers see the end, the socket closes."""
        if self.closed:
            return
        self.close_reason = reason
        self._inbox.put_nowait(ConnectionLost(reason))
        self._writer.close()

    @property
    def closed(self) -> bool:
        return self.close_reason is not None

    def abort(self) -> None:
        """Cut the link at once, as a network failure would (fault-injection tools): a
        :class:`ReconnectingClient` then comes back by itself."""
        self._writer.transport.abort()

    def write(self, message: Message) -> None:
        """Hand ``message`` to the socket without waiting for it to drain, so a person's
        request leaves before the screen redraws (ConnectionLost once it is over)."""
        if self.closed or self._writer.is_closing():
            raise ConnectionLost(self.close_reason or "connection closed")
        self._writer.write(p.encode(message))

    async def send(self, message: Message) -> None:
        try:
            self.write(message)
            await self._writer.drain()
        except (OSError, RuntimeError) as exc:
            raise ConnectionLost(f"send failed: {exc}") from None

    async def recv(self) -> Message:
        """The next message from the host; ConnectionLost once the connection is over."""
        item = await self._inbox.get()
        if isinstance(item, ConnectionLost):
            self._inbox.put_nowait(item)  # every later recv() sees the end too
            raise ConnectionLost(item.reason)
        return item

    async def wait_for(self, *kinds: str, timeout: float = 5.0) -> Message:
        """The next message of one of ``kinds``; others are discarded (tests, bots)."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.recv()
                if message["t"] in kinds:
                    return message

    async def close(self) -> None:
        self._reader_task.cancel()
        await asyncio.wait([self._reader_task], timeout=1.0)
        self._finish("closed")
        with contextlib.suppress(OSError, TimeoutError):
            async with asyncio.timeout(1.0):
                await self._writer.wait_closed()


@dataclass(frozen=True)
class ReconnectPolicy:
    """How hard a :class:`ReconnectingClient` tries before giving up."""

    attempts: int = 12
    first_delay: float = 0.25
    max_delay: float = 5.0
    total_seconds: float = 120.0
    connect_timeout: float = 5.0

    def delays(self) -> list[float]:
        """Exponential backoff with jitter, capped."""
        return [
            min(self.max_delay, self.first_delay * 2**attempt) * random.uniform(0.8, 1.2)
            for attempt in range(self.attempts)
        ]


def status(state: str, **fields: Any) -> Message:
    return {"t": CONNECTION, "state": state, **fields}


class ReconnectingClient(Requests):
    """A connection that comes back by itself, with its seat, when the link drops. Reconnecting
    runs in its own task, so :meth:`recv` may be cancelled (a timeout, a closing UI) at any
    moment without losing the link or a message."""

    def __init__(
        self, connection: HostConnection, host: str, port: int, name: str, policy: ReconnectPolicy
    ) -> None:
        """Made by :meth:`open`, around its first connection."""
        self.host, self.port, self.name = host, port, name
        self.policy = policy
        self.connection: HostConnection | None = connection
        self._token: str | None = None
        """The seat token the link had when it dropped (while connected: the connection's)."""
        self._closing = False
        self._statuses: asyncio.Queue[Message | ConnectionLost] = asyncio.Queue()
        self._reconnector: asyncio.Task[None] | None = None
        self._resuming = bool(connection.welcome.get("resumed"))
        """The host is taking the seat back for this connection and has not answered yet."""
        self._asked_again = False
        """The seat was refused for now and asked for again: its ``joined`` restores the link."""
        self._retry: asyncio.Task[None] | None = None
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        """How the client waits before asking again (a test records the waits)."""

    @classmethod
    async def open(
        cls,
        host: str,
        port: int,
        name: str,
        *,
        token: str | None = None,
        policy: ReconnectPolicy | None = None,
    ) -> ReconnectingClient:
        """Connect once (errors are raised: the first attempt is the user's to retry)."""
        policy = policy or ReconnectPolicy()
        connection = await HostConnection.connect(
            host, port, name, token=token, timeout=policy.connect_timeout
        )
        return cls(connection, host, port, name, policy)

    @property
    def welcome(self) -> Message:
        return self.connection.welcome if self.connection is not None else {}

    @property
    def token(self) -> str | None:
        return self.connection.token if self.connection is not None else self._token

    def _live(self) -> HostConnection:
        if self.connection is None:
            raise ConnectionLost("not connected (reconnecting)")
        return self.connection

    def write(self, message: Message) -> None:
        """See :meth:`HostConnection.write`; ConnectionLost while reconnecting."""
        self._live().write(message)

    async def send(self, message: Message) -> None:
        await self._live().send(message)

    async def recv(self) -> Message:
        """The next message or status change; ConnectionLost once it has given up."""
        while True:
            if not self._statuses.empty() or self.connection is None:
                item = await self._statuses.get()
                if isinstance(item, ConnectionLost):
                    self._statuses.put_nowait(item)
                    raise ConnectionLost(item.reason)
                return item
            try:
                message = await self.connection.recv()
            except ConnectionLost as lost:
                if self._closing:
                    raise
                self._token = self.connection.token
                self.connection = None
                self._cancel_retry()
                self._reconnector = asyncio.create_task(self._reconnect(lost.reason))
                continue
            if not self._answers_resume(message):
                return message

    def _answers_resume(self, message: Message) -> bool:
        """Whether ``message``, the host's answer to taking the seat back, is handled here: a
        refusal with ``retry_after`` becomes a ``reconnecting`` status and a new request that
        late; the ``joined`` after such a wait is preceded by ``restored``."""
        if not self._resuming:
            return False
        kind, code = message.get("t"), message.get("code")
        if kind == p.JOINED:
            self._resuming = False
            if self._asked_again:
                self._asked_again = False
                self._statuses.put_nowait(status("restored", resumed=True))
                self._statuses.put_nowait(message)
                return True
            return False
        if kind != p.ERROR or code not in ("rate_limited", "token_unknown"):
            return False
        self._resuming = False
        wait = message.get("retry_after")
        if code != "rate_limited" or not isinstance(wait, int | float) or wait < 0:
            return False
        detail = str(message.get("message", ""))
        self._statuses.put_nowait(status("reconnecting", retry_after=float(wait), detail=detail))
        self._retry = asyncio.create_task(self._ask_again(float(wait)))
        return True

    async def _ask_again(self, wait: float) -> None:
        """After the wait the host asked for, the seat once more on the same connection."""
        await self.sleep(wait)
        connection = self.connection
        if connection is None or connection.closed or connection.token is None:
            return
        self._resuming = self._asked_again = True
        with contextlib.suppress(ConnectionLost):
            await connection.resume_seat(connection.token)

    def _cancel_retry(self) -> None:
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None

    async def _reconnect(self, reason: str) -> None:
        self._statuses.put_nowait(status("lost", detail=reason))
        give_up_at = time.monotonic() + self.policy.total_seconds
        last_error = reason
        for attempt, delay in enumerate(self.policy.delays(), start=1):
            if time.monotonic() + delay > give_up_at:
                break
            await asyncio.sleep(delay)
            self._statuses.put_nowait(status("reconnecting", attempt=attempt, detail=last_error))
            try:
                connection = await HostConnection.connect(
                    self.host,
                    self.port,
                    self.name,
                    token=self._token,
                    timeout=self.policy.connect_timeout,
                )
            except ProtocolMismatch as mismatch:
                last_error = str(mismatch)
                break
            except ConnectionFailed as failed:
                last_error = str(failed)
                continue
            self.connection = connection
            self._resuming = bool(connection.welcome.get("resumed"))
            self._asked_again = False
            self._statuses.put_nowait(status("restored", resumed=self._resuming))
            return
        self._statuses.put_nowait(status("failed", detail=last_error))
        self._statuses.put_nowait(ConnectionLost(f"gave up reconnecting: {last_error}"))

    async def close(self) -> None:
        self._closing = True
        self._cancel_retry()
        if self._reconnector is not None:
            self._reconnector.cancel()
            await asyncio.wait([self._reconnector], timeout=1.0)
        if self.connection is not None:
            await self.connection.close()
        self.connection = None
        self._statuses.put_nowait(ConnectionLost("closed"))


# --- deck files sent with create_room -------------------------------------------


class DeckFileUnsendable(Exception):
    """A deck file this computer cannot send (unreadable, not text, too big for one request)."""


UPLOAD_ALLOWANCE = p.MAX_CLIENT_FRAME - 2048
"""Bytes of deck text one ``create_room`` can carry, leaving room for its other fields."""


def read_deck_files(paths: Sequence[Path]) -> list[dict[str, str]]:
    """Each file's ``{"name", "text"}``, read as the host reads its own, for ``create_room``;
    :class:`DeckFileUnsendable` says which file the host would refuse, before anything is sent."""
    from partyhost.decks.files import DeckFileError, decode_deck_bytes  # games load with it

    files: list[dict[str, str]] = []
    total = 0
    if len(paths) > p.MAX_DECK_FILES:
        raise DeckFileUnsendable(f"At most {p.MAX_DECK_FILES} deck files go with one room.")
    for path in paths:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise DeckFileUnsendable(f"{path}: cannot read it ({exc.strerror}).") from None
        try:
            text = decode_deck_bytes(raw, str(path))
        except DeckFileError as refused:
            raise DeckFileUnsendable(f"{refused.errors[0]}.") from None
        total += len(text.encode("utf-8", "surrogatepass")) + len(path.name)  # as sent
        if total > UPLOAD_ALLOWANCE:
            raise DeckFileUnsendable(
                f"{path}: deck files sent to a host may total {UPLOAD_ALLOWANCE // 1024} KiB;"
                f" this one brings them to {total // 1024} KiB. Ask the host to put it in"
                " a deck folder instead."
            )
        files.append({"name": path.name, "text": text})
    return files


# --- past games ------------------------------------------------------------------

PAGE = 200


class HostRefused(NetError, p.Refused):
    """The host answered with an ``error`` (``code`` is its stable code)."""


async def _answer(connection: HostConnection, kind: str) -> dict[str, Any]:
    message = await connection.wait_for(kind, p.ERROR, timeout=30.0)
    if message["t"] == p.ERROR:
        raise HostRefused(str(message.get("code")), str(message.get("message")))
    return message


async def fetch_past_games(connection: HostConnection) -> list[dict[str, Any]]:
    """The host's kept games, newest first (``past_games``)."""
    await connection.list_past_games()
    games: list[dict[str, Any]] = (await _answer(connection, p.PAST_GAMES))["games"]
    return games


async def fetch_replay(
    connection: HostConnection, game_id: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A finished game's ``info`` and every step of its replay."""
    steps: list[dict[str, Any]] = []
    while True:
        await connection.get_replay(game_id, len(steps), PAGE)
        page = await _answer(connection, p.REPLAY)
        steps += page["steps"]
        if len(steps) >= page["total"] or not page["steps"]:
            return page["info"], steps
