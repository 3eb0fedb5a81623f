"""Helpers for the tests that attack a host process: clients from chosen source addresses.

Every address used is in 127.0.0.0/8, so the kernel delivers it on loopback
and the host sees each as a different machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from nethelpers import LOOPBACK
from partyhost.net import protocol as p
from partyhost.net.clients.client import RequestMethods

Message = dict[str, Any]
TIMEOUT = 10.0


class RawClient(RequestMethods[None]):
    """A protocol client bound to ``source``: answers pings, records everything else.

    Requests go through the typed client API (``client.chat(text)``); ``send`` takes any map.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.log: list[Message] = []
        self.closed = False
        self.changed = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, port: int, source: str, name: str | None = "Guest") -> RawClient:
        """Connected from ``source`` and, unless ``name`` is None, ``hello`` sent."""
        async with asyncio.timeout(TIMEOUT):
            reader, writer = await asyncio.open_connection(LOOPBACK, port, local_addr=(source, 0))
        client = cls(reader, writer)
        if name is not None:
            client.hello(p.PROTOCOL_VERSION, name)
        return client

    def send(self, message: Message) -> None:
        self.writer.write(p.encode(message))

    async def _read(self) -> None:
        try:
            while True:
                header = await self.reader.readexactly(p.HEADER.size)
                (length,) = p.HEADER.unpack(header)
                message = p.decode_body(await self.reader.readexactly(length), strict_keys=False)
                if message["t"] == p.PING:
                    self.pong(message.get("n", 0))
                    continue
                self.log.append(message)
                self.changed.set()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.closed = True
            self.changed.set()

    async def until(self, found: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        async with asyncio.timeout(timeout):
            while not found():
                self.changed.clear()
                await self.changed.wait()

    async def first(
        self, kinds: Sequence[str], since: int = 0, timeout: float = TIMEOUT
    ) -> Message:
        """The first message of one of ``kinds`` at or after log index ``since``."""
        hits: list[Message] = []

        def seen() -> bool:
            hits.extend(m for m in self.log[since:] if m["t"] in kinds)
            if not hits and self.closed:
                raise AssertionError(f"closed while waiting for {kinds}; log {self.log[-3:]}")
            return bool(hits)

        await self.until(seen, timeout)
        return hits[0]

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(BaseException):
            async with asyncio.timeout(2):
                await self.task


def partyhost(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> Any:
    """The real ``partyhost`` command, as a person runs it (output captured)."""
    return subprocess.run(
        [sys.executable, "-m", "partyhost.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        stdin=subprocess.DEVNULL,
        check=False,
        encoding="utf-8",
    )


def serve_args(data: Path) -> list[str]:
    """``partyhost serve`` on loopback, any free port, no LAN announcements."""
    return ["serve", "--host", LOOPBACK, "--port", "0", "--data", str(data), "--no-discovery"]
