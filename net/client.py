"""The one client library: what the TUI, network bots and tests talk to a host with.

:class:`HostConnection` is one TCP connection: ``connect`` says hello and
waits for ``welcome``; a background reader answers the host's pings and
queues everything else for :meth:`~HostConnection.recv` / ``async for``.
:class:`ReconnectingClient` wraps it: when the link drops it retries with the
seat token (exponential backoff, bounded attempts and time) and reports
``{"t": "connection", "state": "lost" | "reconnecting" | "restored" | "failed"}``
in the message stream so a UI can show what is happening.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from partyhost import __version__
from partyhost.net import protocol as p
from partyhost.net.clientbase import (
    ConnectionFailed,
    ConnectionLost,
    End,
    Message,
    MessageBuilder,
    NetError,
    ProtocolMismatch,
    RequestMethods,
    Requests,
    build,
)

__all__ = [
    "CONNECTION",
    "ConnectionFailed",
    "ConnectionLost",
    "HostConnection",
    "Message",
    "MessageBuilder",
    "NetError",
    "ProtocolMismatch",
    "ReconnectPolicy",
    "ReconnectingClient",
    "RequestMethods",
    "Requests",
    "build",
    "open_client",
]

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
        self._ended = False
        self._inbox: asyncio.Queue[Message | End] = asyncio.Queue()
        self._reader_task = asyncio.get_running_loop().create_task(self._read_loop())

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        name: str,
        *,
        token: str | None = None,
        timeout: float = 5.0,
        client: str = CLIENT_NAME,
        protocol: int = p.PROTOCOL_VERSION,
        tap: Tap | None = None,
        source: str | None = None,
    ) -> HostConnection:
        """Connect, say hello and wait for ``welcome`` (raises ConnectionFailed).

        ``tap`` sees every later frame as raw bytes (debugging, wire tests);
        ``source`` is the local address to connect from (None: the system's choice).
        """
        local = None if source is None else (source, 0)
        try:
            async with asyncio.timeout(timeout):
                reader, writer = await asyncio.open_connection(host, port, local_addr=local)
                try:
                    hello = build.hello(protocol, name, client, token or None)
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
        if self._ended:
            return
        self._ended = True
        self.close_reason = self.close_reason or reason
        self._inbox.put_nowait(End(self.close_reason))
        self._writer.close()

    @property
    def closed(self) -> bool:
        return self.close_reason is not None

    def abort(self) -> None:
        """Cut the link at once, as a network failure would: no goodbye, unsent bytes dropped.

        The read loop then ends as for any lost link, so a :class:`ReconnectingClient`
        comes back by itself (fault-injection tools rely on exactly that).
        """
        self._writer.transport.abort()

    def write(self, message: Message) -> None:
        """Hand ``message`` to the socket at once, without waiting for it to drain.

        For a person's requests (a few small frames): they leave before the
        screen redraws. Raises ConnectionLost once the connection is over.
        """
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
        if isinstance(item, End):
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
        delay, out = self.first_delay, []
        for _ in range(self.attempts):
            out.append(min(self.max_delay, delay) * random.uniform(0.8, 1.2))
            delay *= 2
        return out


def status(state: str, **fields: Any) -> Message:
    return {"t": CONNECTION, "state": state, **fields}


class ReconnectingClient(Requests):
    """A connection that comes back by itself, with its seat, when the link drops.

    Reconnecting runs in its own task, so :meth:`recv` may be cancelled (a
    timeout, a closing UI) at any moment without losing the link or a message.
    """

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        *,
        token: str | None = None,
        policy: ReconnectPolicy | None = None,
    ) -> None:
        self.host, self.port, self.name = host, port, name
        self.policy = policy or ReconnectPolicy()
        self.connection: HostConnection | None = None
        self._token = token
        self._closing = False
        self._statuses: asyncio.Queue[Message | End] = asyncio.Queue()
        self._reconnector: asyncio.Task[None] | None = None

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
        client = cls(host, port, name, token=token, policy=policy)
        client.connection = await HostConnection.connect(
            host, port, name, token=token, timeout=client.policy.connect_timeout
        )
        return client

    @property
    def welcome(self) -> Message:
        return self.connection.welcome if self.connection is not None else {}

    @property
    def token(self) -> str | None:
        if self.connection is not None:
            return self.connection.token
        return self._token

    def write(self, message: Message) -> None:
        """See :meth:`Client.write`; ConnectionLost while reconnecting."""
        if self.connection is None:
            raise ConnectionLost("not connected (reconnecting)")
        self.connection.write(message)

    async def send(self, message: Message) -> None:
        if self.connection is None:
            raise ConnectionLost("not connected (reconnecting)")
        await self.connection.send(message)

    async def recv(self) -> Message:
        """The next message or status change; ConnectionLost once it has given up."""
        while True:
            if not self._statuses.empty() or self.connection is None:
                item = await self._statuses.get()
                if isinstance(item, End):
                    self._statuses.put_nowait(item)
                    raise ConnectionLost(item.reason)
                return item
            try:
                return await self.connection.recv()
            except ConnectionLost as lost:
                if self._closing:
                    raise
                self._token = self.connection.token
                self.connection = None
                self._reconnector = asyncio.get_running_loop().create_task(
                    self._reconnect(lost.reason)
                )

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
            self._statuses.put_nowait(
                status("restored", resumed=bool(connection.welcome.get("resumed")))
            )
            return
        self._statuses.put_nowait(status("failed", detail=last_error))
        self._statuses.put_nowait(End(f"gave up reconnecting: {last_error}"))

    async def close(self) -> None:
        self._closing = True
        if self._reconnector is not None:
            self._reconnector.cancel()
            await asyncio.wait([self._reconnector], timeout=1.0)
        if self.connection is not None:
            await self.connection.close()
        self.connection = None
        self._statuses.put_nowait(End("closed"))


async def open_client(host: str, port: int, name: str) -> ReconnectingClient:
    """The TUI's connection factory: a reconnecting client, hello done."""
    return await ReconnectingClient.open(host, port, name)
