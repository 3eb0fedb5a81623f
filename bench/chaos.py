"""Chaos bench: every game played over a host that keeps getting killed, with evidence.

Rooms of every game and variant are played by network bots (real TCP clients
that reconnect with their seat token) against a real host process with a
journal, while the harness:

- SIGKILLs the host at random moments and restarts it on the same port,
- cuts random bots' connections (they come back by themselves),
- sends hostile clients: garbage bytes, oversized frames, bad hellos, malformed
  messages, spectators that try to play, half frames,
- and visitors (``chaos_visitors``): rooms created with deck files sent along (valid,
  broken, repeated in another order), requests for replays of finished games, and
  strangers who ask for a bot's seat by its name while the bot is away (its table
  answers yes, no or nothing),
- while it samples the host's memory (``chaos_memory``); kills stop for the last
  part of the run so that one host life warms up and is then watched for growth.

When a room's game is over, its journal is replayed on a fresh engine with no
host, network or crash (``chaos_check``): every view any bot was ever shown must
be the replayed state's view for that seat and version, and the game must be
over. The game history's replay of it (the one players watch) must match that
replay step for step. At the end the host must have logged no traceback, never died by itself,
and left no process behind; every finished game must be in its history; and the watched
life's memory must not have grown by more than 10% after its warm-up.

Usage: python bench/chaos.py [--minutes 10] [--rooms 12] [--seed N] [--warmup SECONDS]
    [--calm MINUTES] [--without KIND ...] [--trace-memory DIR] [--smoke]
(``--smoke``: one room, one game, to check that it still runs; ``--warmup``: seconds of
the watched life before its memory is the reference; ``--calm``: how long that kill-free
life is; ``--without``: leave a kind of guest out, to see what the memory grows with;
``--trace-memory``: run the host under tracemalloc, see bench/traced_host.py. The memory's
growth is also reported split by what was running, and as anonymous memory, which other
processes sharing the host's libraries do not move.)
Prints a table, then one JSON line with every figure. Exit status 1 on any failure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from chaos_check import ReplayVerdict, RoomVerdict, check_replay, check_room
from chaos_host import LOOPBACK, ChaosHost
from chaos_hostile import attack
from chaos_memory import MemoryFigures, MemoryWatch
from chaos_players import ChaosBot, RoomPlan
from chaos_resizes import resize_visit
from chaos_visitors import reclaim, replay, upload
from partyhost.net import protocol as p
from partyhost.net.clients.client import ConnectionFailed
from partyhost.net.store.database import StoreUnusable, read_store
from partyhost.net.store.records import StoredRoom

GUESTS = ("hostile", "drops", "uploads", "replays", "reclaims", "web")
"""The kinds of guest besides the players, each of which ``--without`` can leave out."""

PLANS = [
    RoomPlan("tshirt", 4, {"target": 1000}),
    RoomPlan("stealing-home", 3),
    RoomPlan("scramble", 3),
    RoomPlan("gridiron", 3),
    RoomPlan("four-corners", 2),
    RoomPlan("meme", 4),
]
"""Every game and variant, with options that keep one game to a minute or two."""


@dataclass
class ChaosSettings:
    seconds: float = 600.0
    """New rooms open until this much time has passed (running games then finish)."""
    rooms: int = 12
    """Rooms playing at once."""
    max_rooms: int | None = None
    """Stop opening rooms after this many (None: only the clock limits it)."""
    seed: int = 1
    kill_every: tuple[float, float] = (4.0, 15.0)
    down_for: tuple[float, float] = (0.05, 1.5)
    drop_every: tuple[float, float] = (0.3, 2.0)
    hostile_every: tuple[float, float] = (0.1, 0.8)
    bot_delay: tuple[float, float] = (0.0, 0.08)
    games: tuple[str, ...] = tuple(plan.game for plan in PLANS)
    """The games whose rooms are opened, in turn."""
    room_timeout: float = 300.0
    setup_timeout: float = 25.0
    upload_every: tuple[float, float] = (1.0, 4.0)
    replay_every: tuple[float, float] = (0.5, 2.0)
    reclaim_every: tuple[float, float] = (2.0, 6.0)
    away_for: tuple[float, float] = (1.0, 3.0)
    """How long a bot whose seat a stranger asks for stays away."""
    resize_every: tuple[float, float] | None = (8.0, 20.0)
    """Browser pages opened on the host's web door, which resize (None: no door)."""
    memory_every: float = 2.0
    calm_seconds: float = 0.0
    """The last part of the opening time with no kills: one host life to watch."""
    warmup_seconds: float = 300.0
    """Of the watched life, before its memory is the reference for growth."""
    max_memory_growth: float = 10.0
    """Percent the watched life's memory may grow after its warm-up."""
    without: frozenset[str] = frozenset()
    """Kinds of guest (:data:`GUESTS`) left out of the run."""
    trace_memory: Path | None = None
    """Run the host under tracemalloc, its snapshots in this folder (bench/traced_host.py)."""


@dataclass
class ChaosReport:
    seconds: float = 0.0
    rooms: Counter[str] = field(default_factory=Counter)
    """Finished and checked rooms, by game."""
    setup_retries: int = 0
    """Rooms abandoned before their game started (a kill during setup) and opened again."""
    kills: int = 0
    host_starts: int = 0
    drops: int = 0
    reconnects: int = 0
    hostile_connections: int = 0
    hostile_frames: int = 0
    versions_replayed: int = 0
    views_checked: int = 0
    replays: Counter[str] = field(default_factory=Counter)
    """Finished games whose replay from the game history matched the journal, by game."""
    replay_steps_checked: int = 0
    freed_after_the_end: int = 0
    """Bots away past the grace once their game was over: the host let their seat go, as it
    should, so their token was unknown when they came back (checked against the journal)."""
    divergences: list[str] = field(default_factory=list)
    """Rooms whose game differs from its replay (or never ended), with their first problem."""
    host_crashes: int = 0
    tracebacks: list[str] = field(default_factory=list)
    leftover_processes: list[int] = field(default_factory=list)
    uploads: Counter[str] = field(default_factory=Counter)
    """Rooms asked for with deck files sent along, by outcome (accepted, refused:CODE, lost)."""
    upload_files: Counter[str] = field(default_factory=Counter)
    """The deck files those requests carried: valid or broken."""
    replay_requests: Counter[str] = field(default_factory=Counter)
    """Replay pages asked for over the wire, by outcome (served, refused:CODE, lost)."""
    reclaims: Counter[str] = field(default_factory=Counter)
    """Strangers asking for an away bot's seat by name, by outcome (given, refused:CODE)."""
    reclaim_answers: Counter[str] = field(default_factory=Counter)
    """What the tables' bots answered: yes, no or silent (the time limit says no)."""
    resizes: Counter[str] = field(default_factory=Counter)
    """Browser pages of the web door, by outcome (redrawn: it drew after its resizes)."""
    resizes_sent: int = 0
    memory: MemoryFigures = field(default_factory=MemoryFigures)
    max_memory_growth: float = 10.0
    games_in_history: int = 0
    """Finished games found, over, in the host's history at the end."""
    missing_from_history: list[str] = field(default_factory=list)
    history_mib: float = 0.0
    """The host's database files at the end (it keeps them under ``--max-history-mib``)."""

    @property
    def memory_grew(self) -> bool:
        growth = self.memory.growth_percent
        return growth is not None and growth > self.max_memory_growth

    @property
    def ok(self) -> bool:
        return not (
            self.divergences
            or self.host_crashes
            or self.tracebacks
            or self.leftover_processes
            or self.missing_from_history
            or self.memory_grew
        )


class Chaos:
    """One run: the host, the room slots and the three fault makers."""

    def __init__(self, settings: ChaosSettings, workdir: Path) -> None:
        self.settings = settings
        self.rng = random.Random(settings.seed)
        self.host = ChaosHost(
            workdir / "data", workdir, settings.resize_every is not None, settings.trace_memory
        )
        self.report = ChaosReport()
        self.live: dict[str, list[ChaosBot]] = {}
        """Rooms being played, by code, with their bots (targets for drops and meddlers)."""
        self.opened = 0
        self._plan_index = 0
        self._names = 0
        self._visitors = 0
        self.finished: list[tuple[str, int, str]] = []
        """(room code, seed, game) of every finished game, to look up in the history."""
        self.memory = MemoryWatch(settings.warmup_seconds)
        self.calm_from = float("inf")
        self.running: Counter[str] = Counter()
        """Guests of each kind at work now."""
        self._ran: set[str] = set()
        """Kinds of guest that were at work since the last memory sample."""
        self._uploads = 0

    async def run(self) -> ChaosReport:
        started = time.monotonic()
        self.host.data_dir.mkdir(parents=True, exist_ok=True)
        await self.host.start()
        stop_opening = started + self.settings.seconds
        self.calm_from = stop_opening - self.settings.calm_seconds
        guests: dict[str, Coroutine[Any, Any, None]] = {
            "drops": self._dropper(),
            "hostile": self._meddler(),
            "uploads": self._visiting("uploads", self.settings.upload_every, self._upload),
            "replays": self._visiting("replays", self.settings.replay_every, self._replay),
            "reclaims": self._visiting("reclaims", self.settings.reclaim_every, self._reclaim),
        }
        if self.settings.resize_every is not None:
            guests["web"] = self._visiting("web", self.settings.resize_every, self._resize)
        makers = [asyncio.create_task(self._killer()), asyncio.create_task(self._sampler())]
        for kind, guest in guests.items():
            if kind in self.settings.without:
                guest.close()  # never started
            else:
                makers.append(asyncio.create_task(guest))
        try:
            await asyncio.gather(*(self._slot(stop_opening) for _ in range(self.settings.rooms)))
        finally:
            for task in makers:
                task.cancel()
            await asyncio.gather(*makers, return_exceptions=True)
            await self.host.stop()
        self.report.seconds = time.monotonic() - started
        self.report.kills = self.host.stats.kills
        self.report.host_starts = self.host.stats.starts
        self.report.host_crashes = len(self.host.stats.unexpected_exits)
        self.report.tracebacks = self.host.tracebacks() + self.host.stats.unexpected_exits
        self.report.leftover_processes = self.host.leftovers()
        self.report.memory = self.memory.figures()
        self.report.max_memory_growth = self.settings.max_memory_growth
        await self._check_history()
        return self.report

    # --- rooms ------------------------------------------------------------------

    def _next_plan(self) -> RoomPlan | None:
        limit = self.settings.max_rooms
        if limit is not None and self.opened >= limit:
            return None
        plans = [plan for plan in PLANS if plan.game in self.settings.games] or PLANS
        plan = plans[self._plan_index % len(plans)]
        self._plan_index += 1
        self.opened += 1
        return plan

    async def _slot(self, stop_opening: float) -> None:
        while time.monotonic() < stop_opening:
            plan = self._next_plan()
            if plan is None:
                return
            while not await self._play_room(plan):
                self.report.setup_retries += 1

    def _bot(self) -> ChaosBot:
        self._names += 1
        return ChaosBot(
            LOOPBACK,
            self.host.port,
            f"Bot {self._names}",
            delay=self.settings.bot_delay,
            seed=self.rng.getrandbits(63),
        )

    async def _play_room(self, plan: RoomPlan) -> bool:
        """Play one room to the end and check it; False if it never got going (retry)."""
        bots = [self._bot() for _ in range(plan.seats)]
        owner = bots[0]
        tasks: list[asyncio.Task[None]] = []
        try:
            tasks.append(
                asyncio.create_task(
                    self._with_retries(
                        owner,
                        lambda bot: bot.join_and_play(
                            create={"game": plan.game, "options": plan.options},
                            start_with=plan.seats,
                        ),
                    )
                )
            )
            if not await _until(lambda: owner.code is not None, self.settings.setup_timeout):
                return False
            code = owner.code
            assert code is not None
            for bot in bots[1:]:
                tasks.append(
                    asyncio.create_task(
                        self._with_retries(bot, lambda b: b.join_and_play(code=code))
                    )
                )
            if not await _until(lambda: owner.views != [], self.settings.setup_timeout):
                return False
            self.live[code] = bots  # playing: now its links may be cut and meddlers come
            await asyncio.wait(tasks, timeout=self.settings.room_timeout)
            await self._judge(code, plan, bots)
            return True
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if owner.code is not None:
                self.live.pop(owner.code, None)
            await asyncio.gather(*(bot.leave() for bot in bots), return_exceptions=True)
            self.report.reconnects += sum(bot.reconnects for bot in bots)
            for bot in bots:
                self.report.reclaim_answers.update(bot.reclaim_answers)

    async def _with_retries(
        self, bot: ChaosBot, play: Callable[[ChaosBot], Awaitable[None]]
    ) -> None:
        """The first connection may land while the host is down: try again for a while."""
        for _ in range(100):
            try:
                await play(bot)
                return
            except ConnectionFailed:
                await asyncio.sleep(0.2)

    async def _judge(self, code: str, plan: RoomPlan, bots: list[ChaosBot]) -> None:
        # A bot whose seat was freed never sees the end: the journal must show it was freed
        # after the game ended (check_room), as the host does for anyone away past the grace.
        unfinished = [bot.describe() for bot in bots if not (_finished(bot) or bot.seat_freed)]
        if unfinished:
            self.report.divergences.append(
                f"{plan.game} room {code}: the game did not end within"
                f" {self.settings.room_timeout:g}s; {'; '.join(unfinished)}"
            )
            return
        stored = await _read_room(self.host.data_dir, code)
        if stored is None:
            self.report.divergences.append(f"{plan.game} room {code}: not in the journal")
            return
        if stored.room.seed is not None:
            self.finished.append((code, stored.room.seed, plan.game))
        verdict: RoomVerdict = check_room(stored, bots)
        self.report.rooms[plan.game] += 1
        self.report.versions_replayed += verdict.versions
        self.report.views_checked += verdict.views_checked
        self.report.freed_after_the_end += len(verdict.freed_after_the_end)
        if verdict.problems:
            first, *more = verdict.problems
            also = f" (and {len(more)} more problems)" if more else ""
            self.report.divergences.append(f"{plan.game} room {code}: {first}{also}")
        replayed = await _check_replay(self.host.data_dir, stored)
        self.report.replay_steps_checked += replayed.steps_checked
        if replayed.problems:
            first, *more = replayed.problems
            also = f" (and {len(more)} more problems)" if more else ""
            self.report.divergences.append(f"{plan.game} room {code} replay: {first}{also}")
        else:
            self.report.replays[plan.game] += 1

    # --- fault makers -----------------------------------------------------------

    async def _killer(self) -> None:
        """Kills the host at random moments; also restarts it if it ever died by itself."""
        next_kill = time.monotonic() + self.rng.uniform(*self.settings.kill_every)
        while True:
            await asyncio.sleep(0.2)
            self.host.check_alive()
            if self.host.process is None:
                await self.host.start()  # a crash: recorded; keep the night going
            elif self.calm_from > time.monotonic() >= next_kill:
                await self.host.kill_and_restart(self.rng.uniform(*self.settings.down_for))
                next_kill = time.monotonic() + self.rng.uniform(*self.settings.kill_every)

    async def _dropper(self) -> None:
        while True:
            await asyncio.sleep(self.rng.uniform(*self.settings.drop_every))
            bots = [bot for room in list(self.live.values()) for bot in room]
            if bots and self.rng.choice(bots).drop_link():
                self.report.drops += 1
                self._ran.add("drops")

    def _started(self, kind: str) -> None:
        self.running[kind] += 1
        self._ran.add(kind)

    def _ended(self, kind: str) -> None:
        self.running[kind] -= 1

    async def _meddler(self) -> None:
        running: set[asyncio.Task[tuple[str, int]]] = set()
        try:
            while True:
                await asyncio.sleep(self.rng.uniform(*self.settings.hostile_every))
                if len(running) >= 4:
                    continue
                seed = self.rng.getrandbits(32)
                task = asyncio.create_task(
                    attack(self.host.port, random.Random(seed), sorted(self.live))
                )
                self._started("hostile")
                running.add(task)
                task.add_done_callback(self._count_attack)
                task.add_done_callback(running.discard)
                task.add_done_callback(lambda _: self._ended("hostile"))
        finally:
            for task in running:
                task.cancel()

    async def _sampler(self) -> None:
        """The running host's memory every few seconds, with its life and age."""
        while True:
            process = self.host.process
            if process is not None:
                age = time.monotonic() - self.host.started_at
                running = frozenset(self._ran)
                self._ran = {kind for kind, count in self.running.items() if count > 0}
                self.memory.sample(process.pid, self.host.stats.starts, age, running)
            await asyncio.sleep(self.settings.memory_every)

    async def _visiting(
        self,
        kind: str,
        every: tuple[float, float],
        visit: Callable[[int], Coroutine[Any, Any, None]],
    ) -> None:
        """Sends a visitor now and then, at most three at once (each ends by itself)."""
        running: set[asyncio.Task[None]] = set()
        try:
            while True:
                await asyncio.sleep(self.rng.uniform(*every))
                if len(running) >= 3:
                    continue
                self._visitors += 1
                task = asyncio.create_task(visit(self._visitors))
                self._started(kind)
                running.add(task)
                task.add_done_callback(running.discard)
                task.add_done_callback(lambda _: self._ended(kind))
        finally:
            for task in running:
                task.cancel()

    async def _upload(self, number: int) -> None:
        """Every other upload has a broken file: both answers are seen in a short run."""
        seed = self.rng.getrandbits(32)
        self._uploads += 1
        broken = self._uploads % 2 == 0
        outcome, files = await upload(self.host.port, random.Random(seed), number, broken=broken)
        self.report.uploads[outcome] += 1
        self.report.upload_files.update(files)

    async def _replay(self, number: int) -> None:
        outcome = await replay(self.host.port, random.Random(self.rng.getrandbits(32)), number)
        self.report.replay_requests[outcome] += 1

    async def _reclaim(self, number: int) -> None:
        """A bot of a live room steps away; a stranger asks for its seat by its name."""
        if not self.live:
            return
        code = self.rng.choice(sorted(self.live))
        bot = self.rng.choice(self.live[code])
        if not bot.step_away(self.rng.uniform(*self.settings.away_for)):
            return
        await asyncio.sleep(0.3)  # the host sees the seat's player gone
        self.report.reclaims[await reclaim(self.host.port, code, bot.name)] += 1

    async def _resize(self, number: int) -> None:
        assert self.host.web_port is not None
        seed = self.rng.getrandbits(32)
        outcome, sent = await resize_visit(self.host.web_port, random.Random(seed))
        self.report.resizes[outcome] += 1
        self.report.resizes_sent += sent

    async def _check_history(self) -> None:
        """Every game a room finished must be in the host's history, over."""
        files = self.host.data_dir.glob("host.sqlite3*")
        self.report.history_mib = sum(path.stat().st_size for path in files) / 2**20
        try:
            history = read_store(self.host.data_dir)
        except (sqlite3.Error, StoreUnusable) as exc:
            self.report.missing_from_history.append(f"the history cannot be read: {exc!r}")
            return
        try:
            for code, seed, game in self.finished:
                game_id = history.game_of_room(code, seed)
                entry = None if game_id is None else history.entry(game_id)
                if entry is None or entry.status != p.OVER:
                    status = "absent" if entry is None else entry.status
                    self.report.missing_from_history.append(f"{game} room {code}: {status}")
                else:
                    self.report.games_in_history += 1
        finally:
            history.close()

    def _count_attack(self, task: asyncio.Task[tuple[str, int]]) -> None:
        if task.cancelled() or task.exception() is not None:
            return
        _, frames = task.result()
        if frames:
            self.report.hostile_connections += 1
            self.report.hostile_frames += frames


def _finished(bot: ChaosBot) -> bool:
    return bot.room is not None and bot.room["status"] == "over"


async def _until(predicate: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        await asyncio.sleep(0.02)
    return False


async def _read_room(data_dir: Path, code: str) -> StoredRoom | None:
    """The room as the store keeps it (retried: a restarting host may hold a lock for a moment)."""
    for _ in range(50):
        with contextlib.suppress(sqlite3.Error, StoreUnusable):
            store = read_store(data_dir)
            try:
                rooms = store.rooms(code)
            finally:
                store.close()
            return rooms[0] if rooms else None
        await asyncio.sleep(0.1)
    return None


async def _check_replay(data_dir: Path, stored: StoredRoom) -> ReplayVerdict:
    """The kept game's replay against the room's fault-free replay (retried like the room)."""
    for _ in range(50):
        with contextlib.suppress(sqlite3.Error, StoreUnusable):
            history = read_store(data_dir)
            try:
                return check_replay(stored, history)
            finally:
                history.close()
        await asyncio.sleep(0.1)
    return ReplayVerdict(stored.room.code, stored.room.game, problems=["no readable store"])


async def run_chaos(settings: ChaosSettings, workdir: Path | None = None) -> ChaosReport:
    """Run the chaos bench in ``workdir`` (a fresh temporary folder if None)."""
    if workdir is not None:
        return await Chaos(settings, workdir).run()
    with tempfile.TemporaryDirectory(prefix="partyhost-chaos-") as folder:
        return await Chaos(settings, Path(folder)).run()


def figures(report: ChaosReport) -> dict[str, Any]:
    data = asdict(report)
    data["rooms"] = dict(report.rooms)
    data["replays"] = dict(report.replays)
    data["rooms_total"] = sum(report.rooms.values())
    data["divergence_count"] = len(report.divergences)
    counted = ("uploads", "upload_files", "replay_requests", "reclaims", "reclaim_answers")
    for name in (*counted, "resizes"):
        data[name] = dict(getattr(report, name))
    data["memory_grew"] = report.memory_grew
    data["ok"] = report.ok
    return data


def _outcomes(counts: Counter[str]) -> str:
    """``12 (accepted 5, refused:bad_deck 7)``."""
    detail = ", ".join(f"{name} {count}" for name, count in sorted(counts.items()))
    return f"{sum(counts.values())} ({detail})" if detail else "0"


def _memory_rows(report: ChaosReport) -> list[tuple[str, str]]:
    memory = report.memory
    if memory.growth_percent is None:
        growth = f"not measured: life {memory.watched_life} lasted {memory.watched_seconds:.0f}s"
    else:
        growth = f"{memory.growth_percent:+.1f}% (limit {report.max_memory_growth:g}%)"
    return [
        (
            f"host memory ({memory.kind or '-'}), samples / lives",
            f"{memory.samples} / {memory.lives_sampled}",
        ),
        (
            f"  life {memory.watched_life}, MiB: start, +{memory.warmup_seconds:.0f}s, end, peak",
            f"{memory.start_kib / 1024:.1f}, {memory.after_warmup_kib / 1024:.1f},"
            f" {memory.end_kib / 1024:.1f}, {memory.peak_after_warmup_kib / 1024:.1f}",
        ),
        ("  growth after warm-up", growth),
        *_anonymous_rows(memory),
        *_split_rows(report),
    ]


def _anonymous_rows(memory: MemoryFigures) -> list[tuple[str, str]]:
    """The watched life's anonymous memory, which other processes sharing its libraries do
    not move as they do its PSS."""
    before, after = memory.anonymous_after_warmup_kib, memory.anonymous_end_kib
    if before is None or after is None or not before:
        return []
    return [
        (
            "  anonymous, MiB: after warm-up, end",
            f"{before / 1024:.1f}, {after / 1024:.1f} ({100.0 * (after - before) / before:+.1f}%)",
        )
    ]


def _split_rows(report: ChaosReport) -> list[tuple[str, str]]:
    """The growth after warm-up by what was running: MiB a minute with each kind of guest
    at work and without it."""
    rows = []
    for kind, split in sorted(report.memory.by_kind.items()):
        rows.append(
            (
                f"  {kind}: MiB/min with / without (minutes)",
                f"{_per_minute(split.kib_with, split.seconds_with)} /"
                f" {_per_minute(split.kib_without, split.seconds_without)}"
                f" ({split.seconds_with / 60:.1f} / {split.seconds_without / 60:.1f})",
            )
        )
    return rows


def _per_minute(kib: int, seconds: float) -> str:
    return f"{60 * kib / 1024 / seconds:+.2f}" if seconds > 0 else "-"


def print_report(report: ChaosReport, settings: ChaosSettings) -> None:
    rows = [
        ("seconds", f"{report.seconds:.0f}"),
        ("seed", str(settings.seed)),
        ("guests left out", ", ".join(sorted(settings.without)) or "none"),
        ("rooms finished and checked", str(sum(report.rooms.values()))),
        *((f"  {game}", str(count)) for game, count in sorted(report.rooms.items())),
        ("rooms re-opened after a kill in setup", str(report.setup_retries)),
        ("host kills (SIGKILL)", str(report.kills)),
        ("host starts", str(report.host_starts)),
        ("client links cut", str(report.drops)),
        ("bot reconnects", str(report.reconnects)),
        ("hostile connections", str(report.hostile_connections)),
        ("hostile frames", str(report.hostile_frames)),
        ("versions replayed", str(report.versions_replayed)),
        ("views checked against the replay", str(report.views_checked)),
        ("game replays matching the journal", str(sum(report.replays.values()))),
        ("replay steps checked", str(report.replay_steps_checked)),
        ("seats freed after the end (away past the grace)", str(report.freed_after_the_end)),
        ("rooms diverging from their replay", str(len(report.divergences))),
        ("host crashes / tracebacks", f"{report.host_crashes} / {len(report.tracebacks)}"),
        ("processes left behind", str(len(report.leftover_processes))),
        ("deck uploads", _outcomes(report.uploads)),
        ("  files sent", _outcomes(report.upload_files)),
        ("replay requests", _outcomes(report.replay_requests)),
        ("seats asked for by name", _outcomes(report.reclaims)),
        ("  the tables' answers", _outcomes(report.reclaim_answers)),
        ("web door pages that resized", _outcomes(report.resizes)),
        ("  resizes sent", str(report.resizes_sent)),
        *_memory_rows(report),
        (
            "finished games in the history",
            f"{report.games_in_history} of"
            f" {report.games_in_history + len(report.missing_from_history)}",
        ),
        ("finished games missing from it", str(len(report.missing_from_history))),
        ("history database at the end (MiB)", f"{report.history_mib:.1f}"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value:>8}")
    problems = report.divergences[:20] + report.missing_from_history[:20] + report.tracebacks[:3]
    for problem in problems:
        print("PROBLEM:", problem, file=sys.stderr)
    print(json.dumps(figures(report), sort_keys=True, default=str))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--rooms", type=int, default=12, help="rooms playing at once")
    parser.add_argument("--seed", type=int, default=random.SystemRandom().getrandbits(32))
    parser.add_argument(
        "--games", default=None, help="comma-separated game ids (default: every game and variant)"
    )
    parser.add_argument(
        "--keep", type=Path, default=None, help="keep the journal and host logs in this folder"
    )
    parser.add_argument("--smoke", action="store_true", help="one room, one game: does it run?")
    parser.add_argument(
        "--warmup",
        type=float,
        default=None,
        metavar="SECONDS",
        help="of the watched (kill-free) life, before its memory is the reference for growth"
        " (default: a third of it, at most 300)",
    )
    parser.add_argument(
        "--without",
        action="append",
        choices=GUESTS,
        default=[],
        metavar="KIND",
        help=f"leave this kind of guest out (repeatable): {', '.join(GUESTS)}",
    )
    parser.add_argument(
        "--calm",
        type=float,
        default=None,
        metavar="MINUTES",
        help="the last part of the run, with no kills: one host life watched"
        " (default: half the run)",
    )
    parser.add_argument(
        "--trace-memory",
        type=Path,
        default=None,
        metavar="DIR",
        help="run the host under tracemalloc; each life's snapshots go to DIR/PID"
        " (see bench/traced_host.py; TRACE_EVERY=seconds between them, 60 by default)",
    )
    args = parser.parse_args()
    settings = ChaosSettings(seconds=args.minutes * 60, rooms=args.rooms, seed=args.seed)
    # The second half of the run has no kills: one host life, warmed up, then watched.
    settings.calm_seconds = settings.seconds / 2 if args.calm is None else args.calm * 60
    settings.warmup_seconds = min(300.0, settings.calm_seconds / 3)
    if args.warmup is not None:
        settings.warmup_seconds = args.warmup
    settings.without = frozenset(args.without)
    if args.trace_memory is not None:
        args.trace_memory.mkdir(parents=True, exist_ok=True)
        settings.trace_memory = args.trace_memory.resolve()
    if args.smoke:
        settings.rooms = settings.max_rooms = 1
        settings.upload_every = settings.replay_every = (0.1, 0.4)
        settings.reclaim_every, settings.away_for = (0.5, 1.0), (0.3, 0.6)
        settings.memory_every = 0.5
        settings.resize_every = (0.5, 1.0)
    if args.games:
        settings.games = tuple(args.games.split(","))
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
    report = asyncio.run(run_chaos(settings, args.keep))
    print_report(report, settings)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
