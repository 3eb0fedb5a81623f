"""Token buckets: bursts are fine, a sustained flood is not."""

from __future__ import annotations

import time
from collections.abc import Iterable


class TokenBucket:
    """``rate`` tokens a second, holding at most ``burst``; each message takes one.

    ``shares`` multiplies both (a bucket shared by several connections of one
    address holds one share per connection). Raising it raises the ceiling
    and the refill rate but adds no token, so a new connection never brings a
    fresh burst with it.
    """

    __slots__ = ("_stamp", "_tokens", "burst", "rate", "shares")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.shares = 1
        self._tokens = float(burst)
        self._stamp = time.monotonic()

    def ready(self, now: float) -> bool:
        """Refill up to ``now``; True if a token is there to spend."""
        shares = max(1, self.shares)
        refilled = self._tokens + (now - self._stamp) * self.rate * shares
        self._tokens = min(self.burst * shares, refilled)
        self._stamp = now
        return self._tokens >= 1.0

    def spend(self) -> None:
        self._tokens -= 1.0

    def take(self) -> bool:
        """Spend one token if there is one; False means "too fast, drop it"."""
        return take_all((self,))

    def full(self, now: float) -> bool:
        """Whether the bucket holds its whole burst again (nothing left to remember)."""
        self.ready(now)
        return self._tokens >= self.burst * max(1, self.shares)


def take_all(buckets: Iterable[TokenBucket]) -> bool:
    """One token from every bucket, or from none when any is empty."""
    now = time.monotonic()
    held = list(buckets)
    if not all([bucket.ready(now) for bucket in held]):
        return False
    for bucket in held:
        bucket.spend()
    return True
