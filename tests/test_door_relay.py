"""A visitor's client on its pty: what the door promises whatever the visitor's terminal does.

Screen output the visitor's terminal does not take piles up only to a ceiling,
then the visitor is hung up; keys are read no faster than the meter allows; a
window change reaches the client; a client that ignores the hangup is killed.
Each "client" here is a small Python program on a real pty, started as the
door starts the real one, with a stand-in for the SSH session.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import time
from pathlib import Path

import asyncssh
import pytest
from partyhost.net.addresslimits import TokenBucket
from partyhost.net.door import doorclients
from partyhost.net.door.doorclients import (
    KEY_BYTES,
    MAX_UNSENT,
    READ_BYTES,
    TAKE_TERMINAL,
    VisitorClient,
)
from partyhost.net.door.visitorenv import (
    INPUT_BURST,
    INPUT_BYTES_PER_SECOND,
    MAX_COLUMNS,
    MAX_ROWS,
    client_environment,
)
from tmuxdriver import WAIT_SECONDS

SHOWS_SIZE = (
    "import os, signal, time\n"
    "def show(*_):\n"
    "    print('size', *os.get_terminal_size(1), flush=True)\n"
    "signal.signal(signal.SIGWINCH, show)\n"
    "show()\n"
    "time.sleep(60)\n"
)
"""A client that prints its window size at start and on every change."""
WAITS_FOR_A_HANGUP = "import time\nprint('ready', flush=True)\ntime.sleep(60)\n"


class Session:
    """The parts of an asyncssh server session the relay uses; keys come from ``keys``."""

    def __init__(self, *, reads_screen: bool = True, flood: bool = False) -> None:
        self.stdin = self.stdout = self.channel = self
        self.screen = bytearray()
        self.unsent = 0
        self.reads_screen = reads_screen
        self.flood = flood
        self.keys_read = 0
        self.keys: asyncio.Queue[bytes | Exception] = asyncio.Queue()
        self.gone = asyncio.Event()

    async def read(self, size: int) -> bytes:
        if self.flood:  # a giant paste: as much as the door will take, at once
            self.keys_read += size
            return b"a" * size
        key = await self.keys.get()
        if isinstance(key, Exception):
            raise key
        return key

    def write(self, data: bytes) -> None:
        self.screen += data
        if not self.reads_screen:
            self.unsent += len(data)

    def get_write_buffer_size(self) -> int:
        return self.unsent

    async def wait_closed(self) -> None:
        await self.gone.wait()

    async def until_shown(self, text: bytes) -> None:
        async with asyncio.timeout(WAIT_SECONDS):
            while text not in self.screen:
                await asyncio.sleep(0.02)


async def start(tmp_path: Path, program: str, columns: int = 100, rows: int = 30) -> VisitorClient:
    """``program`` as a door client: isolated Python on a fresh pty it takes as its terminal."""
    env = client_environment("xterm-256color", {}, tmp_path)
    command = [sys.executable, "-I", "-c", TAKE_TERMINAL + program]
    return await VisitorClient.start(command, env, tmp_path, columns, rows)


async def test_a_visitor_whose_terminal_stops_reading_is_hung_up_not_waited_for(
    tmp_path: Path,
) -> None:
    flood = f"print('x' * {4 * MAX_UNSENT}, flush=True)\n"
    client = await start(tmp_path, flood + WAITS_FOR_A_HANGUP)
    session = Session(reads_screen=False)
    try:
        outcome = await asyncio.wait_for(client.relay(session), WAIT_SECONDS)  # type: ignore[arg-type]
        assert outcome is None, "the visitor is hung up, not the client's exit awaited"
        assert MAX_UNSENT < session.unsent <= MAX_UNSENT + READ_BYTES
    finally:
        await client.end()
    assert client.process.returncode == -signal.SIGHUP


async def test_a_clients_last_output_reaches_the_visitor_with_its_exit_code(
    tmp_path: Path,
) -> None:
    last_words = "import sys\nprint('z' * 300000 + 'done', flush=True)\nsys.exit(3)"
    client = await start(tmp_path, last_words)
    session = Session()
    try:
        assert await asyncio.wait_for(client.relay(session), WAIT_SECONDS) == 3  # type: ignore[arg-type]
    finally:
        await client.end()
    assert session.screen.count(b"z") == 300000 and b"done" in session.screen


async def test_a_flood_of_keys_is_read_no_faster_than_the_meter_allows(tmp_path: Path) -> None:
    reader = "import os, tty\ntty.setraw(0)\nprint('raw', flush=True)\nwhile 1: os.read(0, 65536)"
    client = await start(tmp_path, reader)
    session = Session(flood=True)
    relay = asyncio.ensure_future(client.relay(session))  # type: ignore[arg-type]
    try:
        started = time.monotonic()
        await asyncio.sleep(1.5)
        elapsed = time.monotonic() - started
        assert relay.done() is False, "the client is still there, reading"
        assert b"raw" in session.screen
        assert session.keys_read >= KEY_BYTES
        assert session.keys_read <= INPUT_BURST + INPUT_BYTES_PER_SECOND * elapsed + KEY_BYTES
    finally:
        relay.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await relay
        await client.end()


async def test_a_window_change_reaches_the_client(tmp_path: Path) -> None:
    client = await start(tmp_path, SHOWS_SIZE, columns=100, rows=30)
    session = Session()
    relay = asyncio.ensure_future(client.relay(session))  # type: ignore[arg-type]
    try:
        await session.until_shown(b"size 100 30")  # the size the visitor's terminal had
        session.keys.put_nowait(asyncssh.TerminalSizeChanged(132, 43, 0, 0))
        await session.until_shown(b"size 132 43")
        session.gone.set()  # the visitor leaves
        assert await asyncio.wait_for(relay, WAIT_SECONDS) is None
    finally:
        relay.cancel()
        await client.end()
    assert client.process.returncode == -signal.SIGHUP


async def test_a_giant_window_is_clamped_at_start_and_on_every_change(tmp_path: Path) -> None:
    """A visitor claiming a 3000x1000 window (or 99999 wide, past a pty's 16 bits) gets the cap."""
    client = await start(tmp_path, SHOWS_SIZE, columns=3000, rows=1000)
    session = Session()
    relay = asyncio.ensure_future(client.relay(session))  # type: ignore[arg-type]
    capped = f"size {MAX_COLUMNS} {MAX_ROWS}".encode()
    try:
        await session.until_shown(capped)
        session.keys.put_nowait(asyncssh.TerminalSizeChanged(132, 43, 0, 0))
        await session.until_shown(b"size 132 43")
        session.screen.clear()
        session.keys.put_nowait(asyncssh.TerminalSizeChanged(99999, 99999, 0, 0))
        await session.until_shown(capped)
        assert not relay.done(), "the relay goes on after an impossible size"
    finally:
        session.gone.set()
        relay.cancel()
        await client.end()


async def test_a_client_that_ignores_the_hangup_is_killed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(doorclients, "HANGUP_SECONDS", 0.3)
    stubborn = "import signal\nsignal.signal(signal.SIGHUP, signal.SIG_IGN)\n" + WAITS_FOR_A_HANGUP
    client = await start(tmp_path, stubborn)
    session = Session()
    relay = asyncio.ensure_future(client.relay(session))  # type: ignore[arg-type]
    try:
        await session.until_shown(b"ready")
        session.gone.set()
        assert await asyncio.wait_for(relay, WAIT_SECONDS) is None
    finally:
        relay.cancel()
        await client.end()
    assert client.process.returncode == -signal.SIGKILL


def test_the_input_meter_keeps_to_its_rate_after_a_burst() -> None:
    meter = TokenBucket(rate=1000.0, burst=4000)
    now = time.monotonic()
    assert meter.wait_after(3000, now) == 0.0  # typing and pastes within the burst wait nothing
    assert meter.wait_after(3000, now) == pytest.approx(2.0)  # 2000 bytes over: 2 s at 1000 B/s
    assert meter.wait_after(500, now + 2.0) == pytest.approx(0.5)
