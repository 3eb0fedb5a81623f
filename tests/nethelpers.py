"""Helpers for the net tests: a host on loopback, seats that record every frame.

Everything here has a timeout: a test that waits for something that never
comes fails in seconds instead of hanging the suite.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import importlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from partyhost.engine import registry
from partyhost.engine.core import Game
from partyhost.engine.registry import get_game
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from partyhost.net.clients.client import (
    HostConnection,
    ReconnectingClient,
    ReconnectPolicy,
    RequestMethods,
)
from partyhost.net.config import HostConfig
from partyhost.net.hosting.host import Host

TESTS = Path(__file__).resolve().parent
LOOPBACK = "127.0.0.1"
DECK_DIR = Path(tempfile.mkdtemp(prefix="partyhost-netdecks-"))
atexit.register(shutil.rmtree, DECK_DIR, ignore_errors=True)

Message = dict[str, Any]


def deck_text(cards: int = 400) -> str:
    """A deck file for the counting game; every word is distinctive (for leak tests)."""
    lines = [
        "game: counting",
        "version: 1",
        "name: Counting words",
        'description: "Words worth 1 to 3, for testing the host."',
        "cards:",
    ]
    for n in range(cards):
        lines.append(f'  - {{word: "secret-word-{n:04d}", value: {1 + n % 3}}}')
    return "\n".join(lines) + "\n"


def write_deck(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "counting.yaml"
    path.write_text(deck_text(), encoding="utf-8")
    return path


write_deck(DECK_DIR)


def host_config(**overrides: Any) -> HostConfig:
    config = HostConfig(
        host=LOOPBACK,
        port=0,
        data_dir=None,
        host_name="test host",
        bot_delay=(0.0, 0.0),
        heartbeat_interval=1.0,
        deck_dirs=(DECK_DIR,),
        extra_games=("netgame",),
        shutdown_timeout=2.0,
        max_rooms_per_address=64,  # every client of these tests comes from 127.0.0.1
    )
    return replace(config, **overrides)


@contextlib.asynccontextmanager
async def running_host(**overrides: Any) -> AsyncIterator[Host]:
    host = Host(host_config(**overrides))
    await host.start()
    try:
        yield host
    finally:
        await host.close("test over")


async def connect(port: int, name: str, **kwargs: Any) -> HostConnection:
    return await HostConnection.connect(LOOPBACK, port, name, timeout=3.0, **kwargs)


class Seat(RequestMethods[Awaitable[None]]):
    """A client that records everything it receives, with waits that time out.

    Requests go through the typed client API (``await seat.join_room(code)``).
    """

    def __init__(self, conn: HostConnection | ReconnectingClient) -> None:
        self.conn = conn
        self.log: list[Message] = []
        self.changed = asyncio.Event()
        self.done = False
        self.task = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, port: int, name: str, **kwargs: Any) -> Seat:
        return cls(await connect(port, name, **kwargs))

    @classmethod
    async def reconnecting(cls, port: int, name: str) -> Seat:
        policy = ReconnectPolicy(first_delay=0.05, max_delay=0.5, attempts=40, total_seconds=30)
        return cls(await ReconnectingClient.open(LOOPBACK, port, name, policy=policy))

    async def _read(self) -> None:
        try:
            async for message in self.conn:
                self.log.append(message)
                self.changed.set()
        finally:
            self.done = True
            self.changed.set()

    def last(self, kind: str) -> Message | None:
        for message in reversed(self.log):
            if message["t"] == kind:
                return message
        return None

    @property
    def view(self) -> Message | None:
        return self.last(p.VIEW)

    @property
    def room(self) -> Message | None:
        return self.last(p.ROOM)

    @property
    def version(self) -> int:
        view = self.view
        return -1 if view is None else int(view["version"])

    async def until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        async with asyncio.timeout(timeout):
            while not predicate():
                if self.done:
                    raise AssertionError(
                        f"connection ended while waiting; log tail {self.log[-3:]}"
                    )
                self.changed.clear()
                await self.changed.wait()

    async def expect(
        self,
        kind: str,
        since: int = 0,
        timeout: float = 5.0,
        where: Callable[[Message], bool] = lambda message: True,
    ) -> Message:
        """The first ``kind`` message at or after log index ``since`` matching ``where``."""
        found: list[Message] = []

        def seen() -> bool:
            for message in self.log[since:]:
                if message["t"] == kind and where(message):
                    found.append(message)
                    return True
                if message["t"] == p.ERROR and kind != p.ERROR:
                    raise AssertionError(f"unexpected error while waiting for {kind}: {message}")
            return False

        await self.until(seen, timeout)
        return found[0]

    def mark(self) -> int:
        return len(self.log)

    async def send(self, message: Message) -> None:
        await self.conn.send(message)

    async def close(self) -> None:
        await self.conn.close()
        with contextlib.suppress(BaseException):
            async with asyncio.timeout(2):
                await self.task


async def table(
    port: int,
    names: Sequence[str],
    options: Message | None = None,
    start: bool = True,
    game: str = "counting",
    opener: Callable[[int, str], Any] = Seat.open,
) -> tuple[list[Seat], str]:
    """Seats ``names`` in a new room (first one owns it) and starts the game."""
    owner = await opener(port, names[0])
    await owner.create_room(game, options=options or {})
    joined = await owner.expect(p.JOINED)
    code = joined["code"]
    seats = [owner]
    for name in names[1:]:
        seat = await opener(port, name)
        await seat.join_room(code)
        await seat.expect(p.JOINED)
        await seat.set_ready()
        seats.append(seat)
    for seat in seats[1:]:
        await owner.expect(p.ROOM, where=lambda room, s=seat: _is_ready(room, s))
    if start:
        mark = owner.mark()
        await owner.start_game()
        await owner.expect(p.VIEW, since=mark)
        for seat in seats:
            await seat.until(lambda s=seat: s.view is not None)
    return seats, code


def _is_ready(room: Message, seat: Seat) -> bool:
    joined = seat.last(p.JOINED)
    assert joined is not None
    return any(s["seat"] == joined["seat"] and s["ready"] for s in room["seats"])


def seat_number(seat: Seat) -> int:
    joined = seat.last(p.JOINED)
    assert joined is not None and joined["seat"] is not None
    return int(joined["seat"])


async def quiet(seats: Sequence[Seat], for_seconds: float = 0.15) -> None:
    """Wait until no seat has received anything for ``for_seconds`` (timers included)."""
    while True:
        counts = [len(seat.log) for seat in seats]
        await asyncio.sleep(for_seconds)
        if counts == [len(seat.log) for seat in seats]:
            return


async def step(seats: Sequence[Seat], game: Game, rng: Rng, timeout: float = 5.0) -> bool:
    """Lockstep play: the first seat with a bot move plays it; wait until all see it.

    False when nobody has a move even after the table has gone quiet (a
    timer, such as a game's opening tick, may still be on its way).
    """
    for attempt in range(2):
        for seat in seats:
            view = seat.view
            if view is None:
                continue
            command = game.bot_command(view["view"], rng, time.time())
            if command is None:
                continue
            version = seat.version
            await seat.play(command)
            for other in seats:
                await other.until(lambda o=other, v=version: o.version > v, timeout)
            return True
        if attempt == 0:
            await quiet(seats)
    return False


async def play_out(seats: Sequence[Seat], game: Game, rng: Rng, max_steps: int = 5000) -> int:
    """Lockstep until nobody has a move (the game is over); returns the steps taken."""
    for taken in range(max_steps):
        if not await step(seats, game, rng):
            return taken
    raise AssertionError("the game did not end")


async def play_until_over(seat: Seat, seed: int, timeout: float = 20.0) -> float:
    """Play ``seat`` with the bot policy (others play themselves) until the game is over."""
    game, rng = counting(), Rng(seed)
    started = time.monotonic()
    async with asyncio.timeout(timeout):
        while seat.room is None or seat.room["status"] != p.OVER:
            view = seat.view
            command = game.bot_command(view["view"], rng, 0) if view else None
            seen = len(seat.log)
            if command is not None:
                version = seat.version
                await seat.play(command)
                await seat.until(lambda v=version: seat.version > v)
            else:
                await seat.until(lambda n=seen: len(seat.log) > n)
    return time.monotonic() - started


def counting() -> Game:
    """The test game, registered on first use (see netgame's docstring)."""
    importlib.import_module("netgame")
    return get_game("counting")


def swap_game(monkeypatch: pytest.MonkeyPatch, game_id: str, **changed: Any) -> Game:
    """Make the registry hand out ``game_id`` with ``changed`` declarations, for one test."""
    game = replace(get_game(game_id), **changed)
    monkeypatch.setitem(registry._GAMES, game_id, game)
    return game


# --- a host in a real subprocess ------------------------------------------------


class HostProcess:
    """``python -m partyhost.net`` on loopback, reading the port it prints."""

    def __init__(self, data_dir: Path, port: int = 0, extra: Sequence[str] = ()) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")])
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "partyhost.net",
                "--host",
                LOOPBACK,
                "--port",
                str(port),
                "--data",
                str(data_dir),
                "--games",
                "netgame",
                "--deck-dir",
                str(DECK_DIR),
                "--bot-delay",
                "0",
                "0",
                "--heartbeat",
                "1",
                *extra,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            encoding="utf-8",
        )
        self.port = 0

    async def ready(self, timeout: float = 15.0) -> int:
        assert self.process.stdout is not None
        stdout = self.process.stdout
        line = await asyncio.wait_for(asyncio.to_thread(stdout.readline), timeout)
        found = re.search(r"listening on [\d.]+:(\d+)", line)
        if not found:
            _, err = self.process.communicate(timeout=5)
            raise AssertionError(f"host did not start: {line!r} {err}")
        self.port = int(found.group(1))
        return self.port

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)

    def stop(self) -> str:
        """SIGTERM and wait; returns stderr (for diagnostics)."""
        if self.process.poll() is None:
            self.process.terminate()
        try:
            _, err = self.process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, err = self.process.communicate()
        return err or ""
