"""A partyhost host run for benchmarks, measuring itself: command latency and loop turns.

``python bench/watched_host.py --stats-file FILE [--gc MODE] [--profile FILE] serve ...``
runs what ``partyhost serve ...`` runs, with figures taken inside the host
process, so a stall in the benchmark's own process can neither hide nor
inflate them:

- **command latency**: from the moment a ``play`` is read from its socket to
  the moment the last frame it caused (every seat's view, or the refusal) is
  written to the sockets (the host's :class:`~partyhost.net.rooms.roomqueue.Observer`
  hook);
- **loop turns**: how long the event loop is busy between two waits for I/O,
  in wall time and in this thread's CPU time (a turn whose wall time is far
  above its CPU time waited: for the GIL, a blocking call, or a CPU other
  processes had). A turn over :data:`SLOW_TURN` is logged with its slowest
  callbacks (a task by name and coroutine, or a callback by name) and the
  garbage collections that ran in it, so a stall names its cause. The loop
  is timed by wrapping its selector's ``select`` and ``asyncio.Handle._run``:
  fine for a benchmark, never done by the host itself.

Each snapshot (one JSON line appended to the stats file, on ``SIGUSR1`` and
when the host stops) holds the figures since the previous one.

``--gc`` tries garbage-collector settings on the host (``default``: Python's,
as ``partyhost serve`` runs; ``calm``: thresholds ``5000, 100, 10``;
``schedule``: calm, plus the young generation collected every 0.05 s with its
survivors frozen and everything collected every 10 minutes). ``--profile``
runs the host under cProfile (CPU time) and writes the stats there at exit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import json
import logging
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from partyhost.cli import build_parser
from partyhost.net.hosting.serve import run_host
from partyhost.net.rooms.roomqueue import Observer, Request
from partyhost.playcommands import serve_config

log = logging.getLogger("watched_host")

SLOW_TURN = 0.002
"""Seconds: a loop turn longer than this is logged and kept with its causes."""
SLOW_CALLBACK = 0.0005
"""Seconds: callbacks at least this long are named in a slow turn's log line."""
SLOW_LOG_LINES = 2000
"""Slow turns kept in words per snapshot (all of them are logged)."""
BINS_MS = (0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 7.5, 10.0, 20.0, 50.0, 100.0, float("inf"))
"""Upper edges (ms) of the histogram bins."""


class LoopMonitor:
    """Times every turn of one event loop, and the callbacks that made a turn slow."""

    def __init__(self, log_turns: bool = True) -> None:
        self.log_turns = log_turns
        """Log each slow turn (the host does; a benchmark watching its own loop need not)."""
        self.turns: list[float] = []
        """Busy seconds of every turn over :data:`SLOW_TURN` (fast ones are only counted)."""
        self.turn_cpu: list[float] = []
        """This thread's CPU seconds in each of those turns."""
        self.slow_log: list[str] = []
        """Each slow turn in words, as logged (at most :data:`SLOW_LOG_LINES` a snapshot)."""
        self.turn_count = 0
        self.causes: dict[str, float] = {}
        """Callback name to its seconds within slow turns."""
        self.cause_cpu: dict[str, float] = {}
        """Callback name to this thread's CPU seconds within slow turns."""
        self._busy_since: float | None = None
        self._cpu_since = 0.0
        self._collecting: tuple[float, float] | None = None
        self._collections: list[tuple[float, float, int]] = []
        """Garbage collections of the current turn: (seconds, CPU seconds, generation)."""
        self.gc_pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        """Seconds of every garbage collection, by generation."""
        self.gc_cpu: dict[int, list[float]] = {0: [], 1: [], 2: []}
        """This thread's CPU seconds of every garbage collection, by generation."""
        self._callbacks: list[tuple[float, float, str]] = []
        self._undo: list[Callable[[], None]] = []
        self._thread: int | None = None
        self._waited = scheduler_figures(None)

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        self._thread = threading.get_native_id()
        self._waited = scheduler_figures(self._thread)
        selector = getattr(loop, "_selector", None)
        if selector is None:
            log.warning("loop turns cannot be timed on %r", loop)
            return
        select = selector.select

        def timed_select(timeout: float | None = None) -> Any:
            self._turn_over(time.perf_counter())
            try:
                return select(timeout)
            finally:
                self._busy_since = time.perf_counter()
                self._cpu_since = time.thread_time()

        selector.select = timed_select
        self._undo.append(lambda: delattr(selector, "select"))
        handle_run = asyncio.Handle._run

        def timed_run(handle: asyncio.Handle) -> None:
            started, cpu = time.perf_counter(), time.thread_time()
            try:
                handle_run(handle)
            finally:
                spent = time.perf_counter() - started
                if spent >= SLOW_CALLBACK:
                    used = time.thread_time() - cpu
                    self._callbacks.append((spent, used, callback_name(handle)))

        setattr(asyncio.Handle, "_run", timed_run)  # noqa: B010 (a method, replaced while timed)
        self._undo.append(lambda: setattr(asyncio.Handle, "_run", handle_run))
        gc.callbacks.append(self._gc)
        self._undo.append(lambda: gc.callbacks.remove(self._gc))

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._collecting = (time.perf_counter(), time.thread_time())
        elif self._collecting is not None:
            started, cpu = self._collecting
            spent, used = time.perf_counter() - started, time.thread_time() - cpu
            self._collecting = None
            generation = info.get("generation", 2)
            self.gc_pauses.setdefault(generation, []).append(spent)
            self.gc_cpu.setdefault(generation, []).append(used)
            self._collections.append((spent, used, generation))

    def uninstall(self) -> None:
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()

    def _turn_over(self, now: float) -> None:
        started = self._busy_since
        callbacks, self._callbacks = self._callbacks, []
        collections, self._collections = self._collections, []
        if started is None:
            return
        self.turn_count += 1
        busy = now - started
        if busy < SLOW_TURN:
            return
        cpu = time.thread_time() - self._cpu_since
        self.turns.append(busy)
        self.turn_cpu.append(cpu)
        callbacks.sort(reverse=True)
        for spent, used, name in callbacks:
            self.causes[name] = self.causes.get(name, 0.0) + spent
            self.cause_cpu[name] = self.cause_cpu.get(name, 0.0) + used
        for spent, used, generation in collections:
            name = f"garbage collection (generation {generation})"
            self.causes[name] = self.causes.get(name, 0.0) + spent
            self.cause_cpu[name] = self.cause_cpu.get(name, 0.0) + used
        named = ", ".join(
            [
                f"{spent * 1000:.1f} ms (cpu {used * 1000:.1f}) gc gen {generation}"
                for spent, used, generation in collections
            ]
            + [
                f"{spent * 1000:.1f} ms (cpu {used * 1000:.1f}) {name}"
                for spent, used, name in callbacks[:3]
            ]
        )
        line = (
            f"slow loop turn: {busy * 1000:.1f} ms, {cpu * 1000:.1f} ms of it on this thread's"
            f" CPU ({named or 'no single callback'})"
        )
        if self.log_turns:
            log.warning("%s", line)
        if len(self.slow_log) < SLOW_LOG_LINES:
            self.slow_log.append(line)

    def snapshot(self) -> dict[str, Any]:
        """The figures since the last snapshot; the turn taking it is left out of the next."""
        self._busy_since = None
        turns, self.turns = self.turns, []
        cpu, self.turn_cpu = self.turn_cpu, []
        count, self.turn_count = self.turn_count, 0
        slow_log, self.slow_log = self.slow_log, []
        pauses, self.gc_pauses = self.gc_pauses, {0: [], 1: [], 2: []}
        gc_cpu, self.gc_cpu = self.gc_cpu, {0: [], 1: [], 2: []}
        causes, self.causes = self.causes, {}
        cause_cpu, self.cause_cpu = self.cause_cpu, {}
        top = sorted(causes.items(), key=lambda item: item[1], reverse=True)[:10]
        top_cpu = sorted(cause_cpu.items(), key=lambda item: item[1], reverse=True)[:10]
        before, self._waited = self._waited, scheduler_figures(self._thread)
        ready_wait = self._waited[0] - before[0]
        preempted = self._waited[1] - before[1]
        return {
            "turns": count,
            "slow_turns": len(turns),
            "slow_turn_ms": histogram(turns),
            "max_turn_ms": max(turns, default=0.0) * 1000,
            "slow_turn_cpu_ms": histogram(cpu),
            "max_turn_cpu_ms": max(cpu, default=0.0) * 1000,
            "slow_turn_causes_ms": {name: spent * 1000 for name, spent in top},
            "slow_turn_causes_cpu_ms": {name: spent * 1000 for name, spent in top_cpu},
            "gc_ms": {str(generation): histogram(found) for generation, found in pauses.items()},
            "gc_cpu_ms": {str(gen): histogram(found) for gen, found in gc_cpu.items()},
            "slow_turn_log": slow_log,
            "loop_thread_ready_wait_ms": ready_wait * 1000,
            "loop_thread_preempted": preempted,
            "gc_tracked_objects": len(gc.get_objects()),
            "gc_frozen_objects": gc.get_freeze_count(),
        }


def scheduler_figures(thread: int | None) -> tuple[float, int]:
    """Seconds the thread waited, ready to run, for a CPU, and how often it was preempted.

    From Linux's ``/proc`` (zeros elsewhere): a loop turn that took far more
    wall time than CPU time because other processes had the CPUs shows here.
    """
    if thread is None:
        return 0.0, 0
    base = Path(f"/proc/self/task/{thread}")
    try:
        ready_wait = int((base / "schedstat").read_text(encoding="utf-8").split()[1]) / 1e9
        status = (base / "status").read_text(encoding="utf-8")
    except (OSError, ValueError, IndexError):
        return 0.0, 0
    preempted = next(
        (int(line.split()[1]) for line in status.splitlines() if line.startswith("nonvol")), 0
    )
    return ready_wait, preempted


def callback_name(handle: asyncio.Handle) -> str:
    """A task by its name and coroutine, a bound method by class and name, else the callback."""
    callback = getattr(handle, "_callback", None)
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coroutine = owner.get_coro()
        where = getattr(coroutine, "__qualname__", type(coroutine).__name__)
        return f"task {owner.get_name()!r} ({where}{_handled(coroutine)})"
    name = getattr(callback, "__qualname__", None)
    return name if isinstance(name, str) else repr(callback)


def _handled(coroutine: Any) -> str:
    """What a room's task just handled (its suspended frame still holds the ``item``)."""
    frame = getattr(coroutine, "cr_frame", None)
    if frame is None:
        return ""
    item = frame.f_locals.get("item")
    if item is None:
        return ""
    message = getattr(item, "message", None)
    kind = message.get("t") if isinstance(message, dict) else None
    if not isinstance(kind, str):
        return f": {type(item).__name__}"
    command = message.get("cmd") if isinstance(message, dict) else None
    if isinstance(command, dict) and isinstance(command.get("type"), str):
        kind = f"{kind} {command['type']}"
    game = getattr(getattr(frame.f_locals.get("room"), "game", None), "id", None)
    return f": {kind}" + (f" in {game}" if isinstance(game, str) else "")


def histogram(seconds: list[float]) -> dict[str, Any]:
    """Counts per bin (by upper edge in ms) and the usual percentiles, in ms."""
    ordered = sorted(value * 1000 for value in seconds)
    counts = dict.fromkeys((f"{edge:g}" for edge in BINS_MS), 0)
    for value in ordered:
        edge = next(edge for edge in BINS_MS if value <= edge)
        counts[f"{edge:g}"] += 1

    def at(fraction: float) -> float | None:
        if not ordered:
            return None
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]

    return {
        "count": len(ordered),
        "bins": counts,
        "p50": at(0.50),
        "p90": at(0.90),
        "p99": at(0.99),
        "max": ordered[-1] if ordered else None,
    }


class LatencyObserver(Observer):
    """The host's hook: each ``play``'s time from read to its last frame written."""

    def __init__(self) -> None:
        self.latencies: list[float] = []

    def handled(self, request: Request) -> None:
        if request.message["t"] == "play":
            self.latencies.append(time.perf_counter() - request.arrived)


class HostStats:
    """The observer and the loop monitor of one host, and the file their snapshots go to."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.observer = LatencyObserver()
        self.loop = LoopMonitor()
        self._signalled: asyncio.AbstractEventLoop | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Time loop turns; a snapshot on SIGUSR1 (and at :meth:`stop`)."""
        self.loop.install(loop)
        loop.add_signal_handler(signal.SIGUSR1, self.write, "signal")
        self._signalled = loop

    def write(self, label: str) -> None:
        """Append the figures since the last snapshot as one JSON line."""
        latencies, self.observer.latencies = self.observer.latencies, []
        line = {
            "label": label,
            "at": time.time(),
            "command_ms": histogram(latencies),
            **self.loop.snapshot(),
        }
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")

    def stop(self) -> None:
        if self._signalled is not None:
            self._signalled.remove_signal_handler(signal.SIGUSR1)
            self._signalled = None
        self.write("stop")
        self.loop.uninstall()


GC_THRESHOLDS = (5000, 100, 10)
"""The thresholds of ``--gc calm`` and ``--gc schedule`` (Python's are 700, 10, 10)."""
YOUNG_INTERVAL = 0.05
"""``--gc schedule``: seconds between young collections."""
FULL_INTERVAL = 600.0
"""``--gc schedule``: seconds between full collections."""


async def collect_on_schedule() -> None:
    """Young collections on a timer, survivors frozen; a full collection now and then."""
    gc.collect()
    gc.freeze()
    full_due = time.monotonic() + FULL_INTERVAL
    try:
        while True:
            await asyncio.sleep(YOUNG_INTERVAL)
            if time.monotonic() >= full_due:
                gc.unfreeze()
                gc.collect()
                full_due = time.monotonic() + FULL_INTERVAL
            else:
                gc.collect(0)
            gc.freeze()
    finally:
        gc.unfreeze()


async def watched(serve_args: list[str], stats: HostStats | None, gc_mode: str) -> None:
    """Run the host as ``partyhost serve`` would, watched."""
    config = serve_config(build_parser().parse_args(["serve", *serve_args]))
    if gc_mode != "default":
        gc.set_threshold(*GC_THRESHOLDS)
    loop = asyncio.get_running_loop()
    collector = loop.create_task(collect_on_schedule()) if gc_mode == "schedule" else None
    if stats is not None:
        stats.start(loop)
    try:
        await run_host(config, observer=None if stats is None else stats.observer)
    finally:
        if stats is not None:
            stats.stop()
        if collector is not None:
            collector.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await collector


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stats-file", type=Path, default=None)
    parser.add_argument("--gc", choices=("default", "calm", "schedule"), default="default")
    parser.add_argument("--profile", type=Path, default=None)
    parser.add_argument("serve", nargs=argparse.REMAINDER, help="serve and its arguments")
    args = parser.parse_args()
    if args.serve[:1] != ["serve"]:
        parser.error("give the host's arguments after 'serve'")
    stats = None if args.stats_file is None else HostStats(args.stats_file)
    profile = cProfile.Profile(time.process_time)
    if args.profile is not None:
        profile.enable()
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(watched(args.serve[1:], stats, args.gc))
    finally:
        if args.profile is not None:
            profile.disable()
            profile.dump_stats(args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
