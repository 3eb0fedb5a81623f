"""A token bucket: bursts are fine, a sustained flood is not."""

from __future__ import annotations

import time


class TokenBucket:
    """``rate`` tokens a second, holding at most ``burst``; each message takes one."""

    __slots__ = ("_stamp", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._tokens = float(burst)
        self._stamp = time.monotonic()

    def take(self) -> bool:
        """Spend one token if there is one; False means "too fast, drop it"."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False
