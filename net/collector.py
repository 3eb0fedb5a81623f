"""Garbage collection that does not walk the live heap in the middle of play.

Python starts a young collection when allocations minus deallocations of
container objects pass a threshold. A busy host replaces each room's game
state with every command: about as many objects die as are born, so the count
barely moves while the young generation fills with live objects, until one
collection walks tens of thousands of them at once (10-50 ms with a thousand
clients, all rooms stopped meanwhile); older generations, when their turn
comes, walk the whole heap. Yet nearly everything here is freed by reference
counting: with the collector off, a loaded host left only a few hundred
objects a second in cycles.

So while a host process runs, :class:`Collector` collects the young
generation on a timer (it then holds only what was born since the last
tick), and freezes the survivors (``gc.freeze``: out of every later
collection's way; they are still freed the moment nothing refers to them).
Every ``full_interval`` it thaws them and collects everything once, so cycles
among older objects are reclaimed too: the one long pause, at most that
often. Automatic collection stays on as a safety net for sudden bursts.

Any process that runs a host (a client hosting its own game too) at least
raises the collector's thresholds (:func:`calm_gc`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time

log = logging.getLogger(__name__)

YOUNG_INTERVAL = 0.05
"""Seconds between young collections: the fewer survivors a collection walks, the shorter
the loop turn it takes (1-2.5 ms at 0.1 s with a thousand clients, half at 0.05 s)."""
FULL_INTERVAL = 600.0
"""Seconds between full collections (the only ones that walk every object)."""
GC_THRESHOLDS = (5000, 100, 10)
"""The cyclic garbage collector's thresholds while a host runs (see :func:`calm_gc`)."""


def calm_gc() -> None:
    """Tune the garbage collector for steady latency in this process.

    A room keeps its game's newest state alive until the next command, often
    half a second. With Python's default thresholds (700, 10, 10) such a state
    survives the frequent young collections and is promoted to the oldest
    generation, so with many rooms a full collection walks the whole heap
    every few seconds: tens of milliseconds during which no room moves (a
    thousand clients). Larger thresholds make full collections rare. A
    process that is only a host (``serve``) goes further with
    :class:`Collector`. Nothing relies on cycles being collected promptly.
    """
    gc.set_threshold(*GC_THRESHOLDS)


class Collector:
    """Runs the collection schedule above on the running loop; ``stop`` gives it all back."""

    def __init__(
        self, young_interval: float = YOUNG_INTERVAL, full_interval: float = FULL_INTERVAL
    ) -> None:
        self.young_interval = young_interval
        self.full_interval = full_interval
        self.full_collections = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        gc.collect()
        gc.freeze()  # what starting up left behind lives as long as the process
        self._task = asyncio.get_running_loop().create_task(self._run(), name="collector")

    async def _run(self) -> None:
        full_due = time.monotonic() + self.full_interval
        while True:
            await asyncio.sleep(self.young_interval)
            if time.monotonic() >= full_due:
                self.collect_all()
                full_due = time.monotonic() + self.full_interval
            else:
                gc.collect(0)
                gc.freeze()

    def collect_all(self) -> int:
        """Thaw everything and collect it all (cycles among old objects die here)."""
        gc.unfreeze()
        started = time.perf_counter()
        found = gc.collect()
        gc.freeze()
        self.full_collections += 1
        log.info(
            "full garbage collection: %d unreachable, %.1f ms",
            found,
            (time.perf_counter() - started) * 1000,
        )
        return found

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        gc.unfreeze()
