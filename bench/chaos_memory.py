"""The chaos bench's memory watch: the host process's memory, sampled every few seconds.

PSS (``/proc/PID/smaps_rollup``: its own pages plus its share of shared ones) is
what the host costs the machine; RSS (``/proc/PID/status``) stands in where the
kernel has no rollup. Every SIGKILL starts a new process with fresh memory, so
samples are kept per host life, and the growth that counts is the last life's:
the harness stops killing for the last part of the run so that one life is
long enough to warm up and then be watched.

Each sample also says which kinds of guest were running since the one before
(hostile clients, uploads, replays, ...): after warm-up, the growth from one
sample to the next is added to every kind that ran meanwhile, and to the kinds
that did not as "without", so a kind whose intervals hold the growth stands out
(``--without KIND`` then leaves it out of a run to make sure).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path


def anonymous_kib(pid: int) -> int | None:
    """KiB of process ``pid``'s anonymous memory (``Anonymous:`` of its smaps rollup: the
    heap and arenas it allocated itself); None if the kernel has no rollup or it is gone.

    Unlike PSS it does not move when other processes map or unmap the libraries it shares
    (the web door's clients, other Pythons on a busy machine): the growth that is the
    host's own allocations.
    """
    try:
        lines = Path(f"/proc/{pid}/smaps_rollup").read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    for line in lines:
        if line.startswith("Anonymous:"):
            return int(line.split()[1])
    return None


def memory_kib(pid: int) -> tuple[int, str] | None:
    """(KiB, "PSS" or "RSS") of process ``pid``; None if it is gone."""
    for path, key, kind in (
        (f"/proc/{pid}/smaps_rollup", "Pss:", "PSS"),
        (f"/proc/{pid}/status", "VmRSS:", "RSS"),
    ):
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except OSError:
            continue
        for line in lines:
            if line.startswith(key):
                return int(line.split()[1]), kind
    return None


@dataclass
class Sample:
    life: int
    """Which host start this process was (1 for the first)."""
    age: float
    """Seconds since that start."""
    kib: int
    running: frozenset[str] = frozenset()
    """The kinds of guest that ran since the sample before (players always do)."""
    anonymous_kib: int | None = None
    """The same moment's anonymous memory (:func:`anonymous_kib`)."""


@dataclass
class KindSplit:
    """The watched life's growth after warm-up, over the intervals one kind of guest ran in
    and over those it did not."""

    seconds_with: float = 0.0
    kib_with: int = 0
    seconds_without: float = 0.0
    kib_without: int = 0


@dataclass
class MemoryFigures:
    kind: str = ""
    """PSS or RSS."""
    samples: int = 0
    lives_sampled: int = 0
    watched_life: int = 0
    """The host life the figures below are of (the last one)."""
    watched_seconds: float = 0.0
    warmup_seconds: float = 0.0
    start_kib: int = 0
    """The watched life's first sample."""
    after_warmup_kib: int = 0
    """Its first sample once warm-up is over: the reference for growth."""
    end_kib: int = 0
    peak_after_warmup_kib: int = 0
    growth_percent: float | None = None
    """From after warm-up to the end; None when the life was too short to warm up."""
    by_kind: dict[str, KindSplit] = field(default_factory=dict)
    """That growth split by what was running (:class:`KindSplit`), for each kind seen."""
    anonymous_after_warmup_kib: int | None = None
    anonymous_end_kib: int | None = None
    """The watched life's anonymous memory after warm-up and at the end (where sampled)."""


@dataclass
class MemoryWatch:
    warmup_seconds: float
    samples: list[Sample] = field(default_factory=list)
    kind: str = ""

    def sample(
        self, pid: int, life: int, age: float, running: frozenset[str] = frozenset()
    ) -> None:
        found = memory_kib(pid)
        if found is not None:
            self.samples.append(Sample(life, age, found[0], running, anonymous_kib(pid)))
            self.kind = found[1]

    def figures(self) -> MemoryFigures:
        result = MemoryFigures(kind=self.kind, samples=len(self.samples))
        result.warmup_seconds = self.warmup_seconds
        if not self.samples:
            return result
        result.lives_sampled = len({s.life for s in self.samples})
        last = self.samples[-1].life
        watched = [s for s in self.samples if s.life == last]
        result.watched_life = last
        result.watched_seconds = watched[-1].age
        result.start_kib = watched[0].kib
        result.end_kib = watched[-1].kib
        warm = [s for s in watched if s.age >= self.warmup_seconds]
        if len(warm) >= 2:
            result.after_warmup_kib = warm[0].kib
            result.peak_after_warmup_kib = max(s.kib for s in warm)
            result.growth_percent = 100.0 * (warm[-1].kib - warm[0].kib) / warm[0].kib
            result.by_kind = split_by_kind(warm)
            result.anonymous_after_warmup_kib = warm[0].anonymous_kib
            result.anonymous_end_kib = warm[-1].anonymous_kib
        return result


def split_by_kind(samples: list[Sample]) -> dict[str, KindSplit]:
    """Each interval's growth, added to the kinds that ran in it and, as "without", to the
    kinds that did not."""
    kinds = sorted({kind for sample in samples for kind in sample.running})
    split = {kind: KindSplit() for kind in kinds}
    for before, after in itertools.pairwise(samples):
        seconds, kib = after.age - before.age, after.kib - before.kib
        for kind, figures in split.items():
            if kind in after.running:
                figures.seconds_with += seconds
                figures.kib_with += kib
            else:
                figures.seconds_without += seconds
                figures.kib_without += kib
    return split
