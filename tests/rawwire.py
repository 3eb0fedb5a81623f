"""A bare TCP client for wire tests: raw bytes out, decoded frames in, pings answered.

Unlike the client library it sends exactly what it is given (broken frames
too) and keeps every frame it receives, in order, so a test can check the
host's answers and their order as a third-party client would see them.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack
from partyhost.net import protocol as p
from partyhost.net.clients.client import RequestMethods

Message = dict[str, Any]


class RawClient(RequestMethods[Awaitable[None]]):
    """One connection; ``received`` holds every frame but the host's pings.

    Well-formed requests go through the typed client API (``await
    client.list_rooms()``); ``send``, ``send_body`` and ``send_bytes`` write
    anything else.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.received: list[Message] = []
        self.pings: list[Message] = []
        self.closed = False
        self._taken = 0
        self._arrived = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, port: int, host: str = "127.0.0.1") -> RawClient:
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer)

    async def _read(self) -> None:
        try:
            while True:
                header = await self.reader.readexactly(4)
                (length,) = struct.unpack(">I", header)
                frame = p.decode_body(await self.reader.readexactly(length), strict_keys=False)
                if frame.get("t") == p.PING:
                    self.pings.append(frame)
                    self._arrived.set()
                    await self.pong(frame.get("n", 0))
                    continue
                self.received.append(frame)
                self._arrived.set()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.closed = True
            self._arrived.set()

    async def send_bytes(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def send(self, message: Message) -> None:
        await self.send_bytes(p.encode(message))

    async def send_body(self, body: bytes) -> None:
        """A frame around a body given as bytes (for bodies ``encode`` would not make)."""
        await self.send_bytes(struct.pack(">I", len(body)) + body)

    async def next(self, index: int, timeout: float = 5.0) -> Message:
        """The frame at ``index`` in ``received`` (waiting for it to arrive)."""
        async with asyncio.timeout(timeout):
            while len(self.received) <= index:
                if self.closed:
                    raise AssertionError(f"closed before frame {index}: {self.received}")
                self._arrived.clear()
                await self._arrived.wait()
        return self.received[index]

    async def take(self, count: int, timeout: float = 5.0) -> list[Message]:
        """The next ``count`` frames after those already taken."""
        start = self._taken
        await self.next(start + count - 1, timeout)
        self._taken = start + count
        return self.received[start : start + count]

    def last(self, kind: str) -> Message:
        return next(frame for frame in reversed(self.received) if frame["t"] == kind)

    async def until(self, kind: str, count: int = 1, timeout: float = 5.0) -> None:
        """Wait until ``count`` frames of type ``kind`` have arrived in all."""
        await self.wait_for(
            lambda: sum(frame["t"] == kind for frame in self.received) >= count, kind, timeout
        )

    async def wait_for(self, done: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
        async with asyncio.timeout(timeout):
            while not done():
                if self.closed:
                    raise AssertionError(f"closed while waiting for {what}: {self.received}")
                self._arrived.clear()
                await self._arrived.wait()

    async def greet(self, name: str) -> Message:
        """The hello of this protocol version, then the welcome it gets back."""
        await self.hello(p.PROTOCOL_VERSION, name)
        (welcome,) = await self.take(1)
        assert welcome["t"] == p.WELCOME, welcome
        return welcome

    async def wait_closed(self, timeout: float = 5.0) -> None:
        async with asyncio.timeout(timeout):
            await self._task

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()
        self._task.cancel()
        with contextlib.suppress(BaseException):
            await self._task


def packed(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def welcome_of(port: int, host: str = "127.0.0.1") -> Message:
    """The host's welcome to a bare TCP client that says hello (blocking: for a host in
    another process, as any client would meet it)."""
    with socket.create_connection((host, port), timeout=15) as connection:
        hello = {"t": p.HELLO, "protocol": p.PROTOCOL_VERSION, "name": "Tess"}
        connection.sendall(p.encode(hello))
        reader = connection.makefile("rb")
        frame: Message = {}
        for _ in range(10):
            (length,) = p.HEADER.unpack(reader.read(p.HEADER.size))
            frame = p.decode_body(reader.read(length), strict_keys=False)
            if frame.get("t") == p.WELCOME:
                return frame
    raise AssertionError(f"no welcome, last frame: {frame}")
