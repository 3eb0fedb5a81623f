"""The chaos bench's memory watch: the host process's memory, sampled every few seconds.

PSS (``/proc/PID/smaps_rollup``: its own pages plus its share of shared ones) is
what the host costs the machine; RSS (``/proc/PID/status``) stands in where the
kernel has no rollup. Every SIGKILL starts a new process with fresh memory, so
samples are kept per host life, and the growth that counts is the last life's:
the harness stops killing for the last part of the run so that one life is
long enough to warm up and then be watched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


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


@dataclass
class MemoryWatch:
    warmup_seconds: float
    samples: list[Sample] = field(default_factory=list)
    kind: str = ""

    def sample(self, pid: int, life: int, age: float) -> None:
        found = memory_kib(pid)
        if found is not None:
            self.samples.append(Sample(life, age, found[0]))
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
        return result
