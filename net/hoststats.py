"""Figures from inside the host for benchmarks: command latency and event-loop turns.

Off unless ``HostConfig.stats_file`` names a file (``serve --stats-file``).
Measured inside the host, they can be neither hidden nor inflated by a
stall in the benchmark's own process:

- **command latency**: from the moment a ``play`` is read from its socket to
  the moment the last frame it caused (every seat's view, or the refusal) is
  written to the sockets;
- **loop turns**: how long the event loop is busy between two waits for I/O.
  A turn over :data:`SLOW_TURN` is logged with its slowest callbacks (a
  task by name and coroutine, or a callback by name), so a stall names its
  cause.

Each snapshot (one JSON line appended to the file, on ``SIGUSR1`` and when
the host stops) holds the figures since the previous one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SLOW_TURN = 0.002
"""Seconds: a loop turn longer than this is logged and kept with its causes."""
SLOW_CALLBACK = 0.0005
"""Seconds: callbacks at least this long are named in a slow turn's log line."""
BINS_MS = (0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 7.5, 10.0, 20.0, 50.0, 100.0, float("inf"))
"""Upper edges (ms) of the histogram bins."""


class Sample:
    """One command on its way out: how many connections still hold a frame of it."""

    __slots__ = ("arrived", "waiting")

    def __init__(self, arrived: float) -> None:
        self.arrived = arrived
        self.waiting = 0


class LatencyMeter:
    """Command arrival to its last frame written, one figure per command."""

    def __init__(self) -> None:
        self.current: Sample | None = None
        """The command the room is handling right now (frames queued meanwhile are its)."""
        self.latencies: list[float] = []

    def begin(self, arrived: float) -> None:
        self.current = Sample(arrived)

    def end(self) -> None:
        sample, self.current = self.current, None
        if sample is not None and sample.waiting == 0:
            self.latencies.append(time.perf_counter() - sample.arrived)

    def written(self, sample: Sample, now: float) -> None:
        """One connection wrote (or dropped) its frames of ``sample``."""
        sample.waiting -= 1
        if sample.waiting == 0 and sample is not self.current:
            self.latencies.append(now - sample.arrived)


class LoopMonitor:
    """Times every turn of one event loop, and the callbacks that made a turn slow."""

    def __init__(self) -> None:
        self.turns: list[float] = []
        """Busy seconds of every turn over :data:`SLOW_TURN` (fast ones are only counted)."""
        self.turn_count = 0
        self.causes: dict[str, float] = {}
        """Callback name to its seconds within slow turns."""
        self._busy_since: float | None = None
        self._callbacks: list[tuple[float, str]] = []
        self._undo: list[Callable[[], None]] = []

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
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

        selector.select = timed_select
        self._undo.append(lambda: delattr(selector, "select"))
        handle_run = asyncio.Handle._run

        def timed_run(handle: asyncio.Handle) -> None:
            started = time.perf_counter()
            try:
                handle_run(handle)
            finally:
                spent = time.perf_counter() - started
                if spent >= SLOW_CALLBACK:
                    self._callbacks.append((spent, callback_name(handle)))

        setattr(asyncio.Handle, "_run", timed_run)  # noqa: B010 (a method, replaced while timed)
        self._undo.append(lambda: setattr(asyncio.Handle, "_run", handle_run))

    def uninstall(self) -> None:
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()

    def _turn_over(self, now: float) -> None:
        started = self._busy_since
        callbacks, self._callbacks = self._callbacks, []
        if started is None:
            return
        self.turn_count += 1
        busy = now - started
        if busy < SLOW_TURN:
            return
        self.turns.append(busy)
        callbacks.sort(reverse=True)
        for spent, name in callbacks:
            self.causes[name] = self.causes.get(name, 0.0) + spent
        named = ", ".join(f"{spent * 1000:.1f} ms {name}" for spent, name in callbacks[:3])
        log.warning("slow loop turn: %.1f ms (%s)", busy * 1000, named or "no single callback")

    def snapshot(self) -> dict[str, Any]:
        turns, self.turns = self.turns, []
        count, self.turn_count = self.turn_count, 0
        causes, self.causes = self.causes, {}
        top = sorted(causes.items(), key=lambda item: item[1], reverse=True)[:10]
        return {
            "turns": count,
            "slow_turns": len(turns),
            "slow_turn_ms": histogram(turns),
            "max_turn_ms": max(turns, default=0.0) * 1000,
            "slow_turn_causes_ms": {name: spent * 1000 for name, spent in top},
        }


def callback_name(handle: asyncio.Handle) -> str:
    """A task by its name and coroutine, a bound method by class and name, else the callback."""
    callback = getattr(handle, "_callback", None)
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coroutine = owner.get_coro()
        where = getattr(coroutine, "__qualname__", type(coroutine).__name__)
        return f"task {owner.get_name()!r} ({where})"
    name = getattr(callback, "__qualname__", None)
    return name if isinstance(name, str) else repr(callback)


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


class HostStats:
    """The meter and the loop monitor of one host, and the file their snapshots go to."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.meter = LatencyMeter()
        self.loop = LoopMonitor()

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop.install(loop)

    def write(self, label: str) -> None:
        """Append the figures since the last snapshot as one JSON line."""
        latencies, self.meter.latencies = self.meter.latencies, []
        line = {
            "label": label,
            "at": time.time(),
            "command_ms": histogram(latencies),
            **self.loop.snapshot(),
        }
        try:
            with self.path.open("a", encoding="utf-8") as out:
                out.write(json.dumps(line) + "\n")
        except OSError as problem:
            log.warning("cannot write host stats to %s: %s", self.path, problem)

    def stop(self) -> None:
        self.write("stop")
        self.loop.uninstall()
