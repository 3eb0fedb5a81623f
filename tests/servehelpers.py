"""A real ``partyhost serve`` process for attack tests: its port, its console, its output.

Clients connect from chosen loopback addresses (127.0.0.2, .3, ...), so limits
that follow an address can be attacked from one and checked from another.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from nethelpers import LOOPBACK, Seat

START_SECONDS = 20.0
LISTENING = re.compile(r"listening on [\d.]+:(\d+)")


class Serve:
    """One ``partyhost serve`` on loopback; what it prints is kept in ``lines``."""

    def __init__(self, process: asyncio.subprocess.Process, log: Path) -> None:
        self.process = process
        self.log = log
        self.port = 0
        self.lines: list[str] = []
        self._changed = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None

    async def ready(self) -> None:
        self._reader = asyncio.get_running_loop().create_task(self._read())
        found = await self.printed(LISTENING, START_SECONDS)
        self.port = int(found.group(1))

    async def _read(self) -> None:
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            self.lines.append(line.decode(errors="replace").rstrip("\n"))
            self._changed.set()
        self._changed.set()

    async def printed(self, pattern: re.Pattern[str] | str, timeout: float = 10.0) -> re.Match[str]:
        """The first printed line (since start) matching ``pattern``."""
        wanted = re.compile(pattern) if isinstance(pattern, str) else pattern
        async with asyncio.timeout(timeout):
            while True:
                for line in self.lines:
                    found = wanted.search(line)
                    if found:
                        return found
                if self.process.returncode is not None or (
                    self._reader is not None and self._reader.done()
                ):
                    raise AssertionError(
                        f"serve ended: {self.lines} {self.log.read_text(encoding='utf-8')}"
                    )
                self._changed.clear()
                await self._changed.wait()

    def type(self, line: str) -> None:
        """A line typed into the host's console."""
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")

    async def seat(self, name: str, source: str) -> Seat:
        """A recording client connected from address ``source``."""
        return await Seat.open(self.port, name, source=source)

    async def stop(self) -> int:
        if self.process.returncode is None:
            self.process.terminate()
        async with asyncio.timeout(15):
            code = await self.process.wait()
        if self._reader is not None:
            await self._reader
        return code

    def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()


@contextlib.asynccontextmanager
async def serve(
    data: Path, *flags: str, runner: Sequence[str] = ("-m", "partyhost.cli")
) -> AsyncIterator[Serve]:
    """``partyhost serve`` on 127.0.0.1 (any free port) with ``data`` and ``flags``.

    ``runner`` is what Python runs with the ``serve`` arguments: the command line, or a
    script that wraps it (the benchmarks' watched host).
    """
    data.mkdir(parents=True, exist_ok=True)
    log = data.parent / f"{data.name}-serve.log"
    with log.open("ab") as errors:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            *runner,
            "serve",
            *("--host", LOOPBACK, "--port", "0", "--data", str(data), "--no-discovery"),
            *flags,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=errors,
        )
    host = Serve(process, log)
    try:
        await host.ready()
        yield host
    finally:
        host.kill()
        await host.stop()


async def listed(seat: Seat) -> list[dict[str, object]]:
    """The rooms the lobby lists to ``seat`` now."""
    mark = seat.mark()
    await seat.list_rooms()
    rooms = await seat.expect("rooms", since=mark)
    return list(rooms["rooms"])
