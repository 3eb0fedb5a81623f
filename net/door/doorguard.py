"""The SSH door's bouncer: connection caps, password back-off, and a log that stays small.

An open door on a LAN meets scanners, loops and guessers. Connections are
counted in total and per source address and refused past either cap before
any SSH work is done; wrong door passwords from one address are answered ever
more slowly; and every kind of refusal is logged once per address per
interval with a count, so a flood costs a few log lines, not megabytes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

Clock = Callable[[], float]

LOG_INTERVAL = 60.0
"""Seconds between two log lines about the same address and the same kind of refusal."""
MAX_TRACKED = 4096
"""Addresses remembered at most (log and back-off); the stalest are forgotten first."""
BACKOFF_FIRST = 1.0
"""Seconds the answer to the first wrong password takes; each further one doubles it."""
BACKOFF_MAX = 30.0
BACKOFF_FORGET = 600.0
"""An address without a wrong password for this long starts again from the first delay."""


class QuietLog:
    """Log a repeated event once per key and interval, then say how many were held back."""

    def __init__(
        self, logger: logging.Logger, interval: float = LOG_INTERVAL, clock: Clock = time.monotonic
    ) -> None:
        self._logger = logger
        self._interval = interval
        self._clock = clock
        self._last: dict[tuple[str, str], tuple[float, int]] = {}

    def warning(self, kind: str, address: str, message: str) -> bool:
        """Log ``message`` about ``address`` unless ``kind`` was logged for it lately."""
        now = self._clock()
        key = (kind, address)
        logged_at, held_back = self._last.get(key, (float("-inf"), 0))
        if now - logged_at < self._interval:
            self._last[key] = (logged_at, held_back + 1)
            return False
        if held_back:
            message += f" ({held_back} more like it in the last {self._interval:.0f} s)"
        self._last.pop(key, None)
        self._last[key] = (now, 0)
        self._logger.warning("%s", message)
        while len(self._last) > MAX_TRACKED:  # insertion order: the first is the stalest
            del self._last[next(iter(self._last))]
        return True


@dataclass(frozen=True)
class Caps:
    """How many SSH connections the door holds at once, in total and from one address."""

    total: int = 64
    per_address: int = 4


class ConnectionCounter:
    """Counts open SSH connections per source address and says whether one more may come."""

    def __init__(self, caps: Caps) -> None:
        self.caps = caps
        self.total = 0
        self._by_address: dict[str, int] = {}

    def admit(self, address: str) -> str | None:
        """Count the connection in, or return why it is refused (and count nothing)."""
        if self.total >= self.caps.total:
            return f"the door holds {self.caps.total} connections at most"
        held = self._by_address.get(address, 0)
        if held >= self.caps.per_address:
            return f"{held} connections from this address already"
        self.total += 1
        self._by_address[address] = held + 1
        return None

    def release(self, address: str) -> None:
        held = self._by_address.get(address, 0)
        if held <= 0:
            return
        self.total -= 1
        if held == 1:
            del self._by_address[address]
        else:
            self._by_address[address] = held - 1

    def held_by(self, address: str) -> int:
        return self._by_address.get(address, 0)


@dataclass
class _Failures:
    count: int
    last: float
    lock: asyncio.Lock


class PasswordBackoff:
    """Wrong passwords from one address are answered one at a time, each later than the last.

    Checks from one address queue behind a lock, and a wrong answer holds the
    lock for the back-off delay (1, 2, 4 ... 30 s), so parallel connections from
    one address gain nothing. Other addresses are not slowed.
    """

    def __init__(
        self,
        first: float = BACKOFF_FIRST,
        ceiling: float = BACKOFF_MAX,
        clock: Clock = time.monotonic,
    ) -> None:
        self.first = first
        self.ceiling = ceiling
        self._clock = clock
        self._table: dict[str, _Failures] = {}

    def failures(self, address: str) -> int:
        entry = self._table.get(address)
        return entry.count if entry is not None else 0

    def delay_after(self, failures: int) -> float:
        """Seconds the ``failures``-th wrong password in a row is held."""
        if failures <= 0:
            return 0.0
        return float(min(self.ceiling, self.first * 2 ** min(failures - 1, 32)))

    async def check(self, address: str, correct: Callable[[], bool]) -> tuple[bool, int, float]:
        """Run ``correct()`` in turn for ``address``: (right?, wrong ones in a row, delay held)."""
        entry = self._entry(address)
        async with entry.lock:
            if correct():
                entry.count = 0
                return True, 0, 0.0
            if self._clock() - entry.last > BACKOFF_FORGET:
                entry.count = 0
            entry.count += 1
            entry.last = self._clock()
            delay = self.delay_after(entry.count)
            await asyncio.sleep(delay)
            return False, entry.count, delay

    def _entry(self, address: str) -> _Failures:
        entry = self._table.pop(address, None)
        if entry is None:
            entry = _Failures(0, self._clock(), asyncio.Lock())
        self._table[address] = entry  # most recent last
        self._forget_idle()
        return entry

    def _forget_idle(self) -> None:
        while len(self._table) > MAX_TRACKED:
            oldest = next(iter(self._table))
            if self._table[oldest].lock.locked():
                break
            del self._table[oldest]
