"""Limits on what a client may send, most of them following its address.

Reconnecting or rejoining must not refill anyone's allowance, so what protects
everyone else is counted per source address; an address gets one bucket share
per connection it holds (shares arrive without tokens), so the SSH door's many
visitors from one address are treated as separate connections.
"""

from __future__ import annotations

import logging
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from partyhost.net.address import local_address
from partyhost.net.config import HostConfig

log = logging.getLogger(__name__)

LOG_INTERVAL = 60.0
"""Seconds between two log lines about the same address and the same kind of trouble."""
MAX_REMEMBERED_FAILURES = 64
"""Per address; past this many the delay is at its cap anyway."""
MAX_TRACKED = 4096
"""Addresses remembered at most by a log or a password throttle; the stalest go first."""

Key = TypeVar("Key")
Value = TypeVar("Value")


def _use(entries: dict[Key, Value], key: Key, value: Value) -> Value:
    """``value`` for ``key``, now the most recently used (dicts keep their insertion
    order, so the first is the stalest); past :data:`MAX_TRACKED` the stalest is forgotten."""
    entries.pop(key, None)
    entries[key] = value
    while len(entries) > MAX_TRACKED:
        del entries[next(iter(entries))]
    return value


@dataclass
class _Guesses:
    failures: deque[float] = field(default_factory=lambda: deque(maxlen=MAX_REMEMBERED_FAILURES))
    next_turn: float = 0.0
    """When this address's next password may be checked (parallel tries queue up)."""


@dataclass(eq=False)
class PasswordThrottle:
    """Wrong passwords (a room's or the SSH door's) slow their address down: a few typos are
    free, then each try waits, doubling up to a cap. Tries from one address queue behind each
    other, so more connections do not guess faster."""

    config: HostConfig
    kind: str = "room password"
    """What is guessed, for the log ("room password", "SSH door password")."""
    _by_address: dict[str, _Guesses] = field(default_factory=dict)
    _quiet: QuietLog = field(default_factory=lambda: QuietLog(log))

    def wait_before_try(self, address: str) -> float:
        """Seconds to wait before checking a password from ``address`` (reserves its turn)."""
        guesses = self._by_address.get(address)
        if guesses is None:
            return 0.0
        now = time.monotonic()
        self._forget_old(guesses, now)
        excess = len(guesses.failures) - self.config.wrong_password_free
        if excess < 0:
            return 0.0
        config = self.config
        delay = min(config.wrong_password_max_delay, config.wrong_password_delay * 2.0**excess)
        guesses.next_turn = max(now, guesses.next_turn) + delay
        return guesses.next_turn - now

    def failed(self, address: str, room: str = "") -> None:
        """Count a wrong password; the log hears of it now or in a later report."""
        now = time.monotonic()
        guesses = _use(self._by_address, address, self._by_address.get(address) or _Guesses())
        self._forget_old(guesses, now)
        guesses.failures.append(now)
        where = f"{address} (room {room})" if room else address
        count = f"{len(guesses.failures)} in the last {self.config.wrong_password_memory:.0f} s"
        self._quiet.warning("password", address, f"wrong {self.kind} from {where}; {count}")

    def report(self) -> None:
        """Log what was held back, and forget quiet addresses (call it now and then)."""
        self._quiet.flush()
        now = time.monotonic()
        for address, guesses in list(self._by_address.items()):
            self._forget_old(guesses, now)
            if not guesses.failures:
                del self._by_address[address]

    def _forget_old(self, guesses: _Guesses, now: float) -> None:
        horizon = now - self.config.wrong_password_memory
        while guesses.failures and guesses.failures[0] < horizon:
            guesses.failures.popleft()


class TokenBucket:
    """``rate`` tokens a second, holding at most ``burst``; each message takes one. ``shares``
    (one per connection of an address) multiplies both but adds no token, so a new connection
    never brings a fresh burst with it."""

    __slots__ = ("_stamp", "_tokens", "burst", "rate", "shares")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.shares = 1
        self._tokens = float(burst)
        self._stamp = time.monotonic()

    def ready(self, now: float) -> bool:
        """Refill up to ``now``; True if a token is there to spend."""
        refilled = self._tokens + (now - self._stamp) * self.rate * self.shares
        self._tokens = min(self.burst * self.shares, refilled)
        self._stamp = now
        return self._tokens >= 1.0

    def spend(self) -> None:
        self._tokens -= 1.0

    def seconds_to_token(self, now: float) -> float:
        """Seconds from ``now`` until a token is there to spend (0: there is one now)."""
        self.ready(now)
        return max(0.0, (1.0 - self._tokens) / (self.rate * self.shares))

    def take(self) -> bool:
        """Spend one token if there is one; False means "too fast, drop it"."""
        return take_all((self,))

    def wait_after(self, size: float, now: float) -> float:
        """Spend ``size`` tokens, past empty if need be; seconds until the debt is paid (for a
        stream that cannot be dropped, the SSH door's keys: read, then wait)."""
        self.ready(now)
        self._tokens -= size
        return max(0.0, -self._tokens / (self.rate * self.shares))

    def full(self, now: float) -> bool:
        """Whether the bucket holds its whole burst again (nothing left to remember)."""
        self.ready(now)
        return self._tokens >= self.burst * self.shares


@dataclass(eq=False)
class BucketsByAddress:
    """A token bucket per address; past :data:`MAX_TRACKED` addresses the stalest is forgotten."""

    rate: float
    burst: int
    _buckets: dict[str, TokenBucket] = field(default_factory=dict)

    def of(self, address: str) -> TokenBucket:
        """``address``'s bucket, now the most recently used (the oldest are forgotten)."""
        bucket = self._buckets.get(address) or TokenBucket(self.rate, self.burst)
        return _use(self._buckets, address, bucket)


def take_all(buckets: Iterable[TokenBucket]) -> bool:
    """One token from every bucket, or from none when any is empty."""
    now = time.monotonic()
    held = list(buckets)
    if not all([bucket.ready(now) for bucket in held]):
        return False
    for bucket in held:
        bucket.spend()
    return True


@dataclass
class AddressAllowance:
    """What every connection of one address shares."""

    messages: TokenBucket
    chat: TokenBucket
    connections: int = 0

    def hold(self, change: int) -> None:
        self.connections += change
        self.messages.shares = self.chat.shares = max(1, self.connections)


class AddressLimits:
    """Every address with a connection, or whose buckets have not refilled yet."""

    def __init__(self, config: HostConfig) -> None:
        self._config = config
        self._by_address: dict[str, AddressAllowance] = {}
        doors = (config.ssh_port, config.web_port)
        self._door_sessions = sum(config.ssh_max_sessions for port in doors if port is not None)
        """Sessions the open doors (SSH, browser) hold at most, each counting its own."""
        self._door = local_address(config.host) if self._door_sessions else None
        """Where the doors' visitors connect from (one address, many people)."""

    def connected(self, address: str) -> AddressAllowance:
        """What ``address`` shares, now with one more connection."""
        allowance = self._by_address.get(address)
        if allowance is None:
            config = self._config
            allowance = self._by_address[address] = AddressAllowance(
                TokenBucket(config.messages_per_second, config.message_burst),
                TokenBucket(config.chat_per_second, config.chat_burst),
            )
        allowance.hold(+1)
        return allowance

    def disconnected(self, address: str) -> None:
        allowance = self._by_address.get(address)
        if allowance is not None and allowance.connections > 0:
            allowance.hold(-1)

    def connections(self, address: str) -> int:
        found = self._by_address.get(address)
        return 0 if found is None else found.connections

    def connection_limit(self, address: str) -> int:
        """The doors' visitors all arrive from the doors' own address: it gets their room."""
        limit = self._config.max_connections_per_address
        return limit + self._door_sessions if address == self._door else limit

    def refusal(self, address: str, total: int) -> str | None:
        """Why a new connection from ``address`` is refused (``total`` are open), or None."""
        if total >= self._config.max_connections:
            limit = self._config.max_connections
            return f"This host is full ({limit} connections at most); try later."
        per_address = self.connection_limit(address)
        held = self.connections(address)
        if held >= per_address:
            return (
                f"Too many connections from your address {address} (this host takes"
                f" {per_address} from one address); close some and try again."
            )
        busy_share = self._config.busy_connections_per_address
        busy = total * 2 >= self._config.max_connections
        if busy and held >= busy_share and address != self._door:
            return (
                f"This host is busy ({total} of {self._config.max_connections} connections"
                f" open) and your address {address} holds {held} already; while it is this"
                f" busy it takes {busy_share} from one address. Close some and try again."
            )
        return None

    def rooms_allowed(self, address: str) -> int:
        """Open rooms ``address`` may have created: a few, or a few per SSH door visitor."""
        visitors = max(1, self.connections(address)) if address == self._door else 1
        return self._config.max_rooms_per_address * visitors

    def sweep(self) -> None:
        """Forget addresses with no connection and full buckets (call now and then)."""
        now = time.monotonic()
        for address, allowance in list(self._by_address.items()):
            if (
                allowance.connections == 0
                and allowance.messages.full(now)
                and allowance.chat.full(now)
            ):
                del self._by_address[address]


@dataclass(eq=False)
class QuietLog:
    """Log a repeated event once per key and interval, then say how many were held back."""

    logger: logging.Logger
    interval: float = LOG_INTERVAL
    clock: Callable[[], float] = time.monotonic
    _last: dict[tuple[str, str], tuple[float, int, str]] = field(default_factory=dict)
    """(kind, address): when it was last logged, how many since, the latest of them."""

    def warning(self, kind: str, address: str, message: str) -> bool:
        """Log ``message`` about ``address`` unless ``kind`` was logged for it lately."""
        now = self.clock()
        key = (kind, address)
        logged_at, held_back, _ = self._last.get(key, (float("-inf"), 0, ""))
        if now - logged_at < self.interval:
            self._last[key] = (logged_at, held_back + 1, message)
            return False
        if held_back:
            message += f" ({held_back} more like it in the last {self.interval:.0f} s)"
        _use(self._last, key, (now, 0, message))
        self.logger.warning("%s", message)
        return True

    def flush(self) -> None:
        """Log the latest of what was held back once its interval is over; forget the rest."""
        now = self.clock()
        for key, (logged_at, held_back, message) in list(self._last.items()):
            if now - logged_at >= self.interval:
                del self._last[key]
                if held_back:
                    self.logger.warning("%s (%d like it since the last line)", message, held_back)


class ConnectionCounter:
    """A door's open connections, in total and per address, against its two caps."""

    def __init__(self, total: int, per_address: int) -> None:
        self.cap = total
        self.per_address = per_address
        self._by_address: Counter[str] = Counter()

    @property
    def total(self) -> int:
        return self._by_address.total()

    def admit(self, address: str) -> str | None:
        """Count the connection in, or return why it is refused (and count nothing)."""
        if self.total >= self.cap:
            return f"the door holds {self.cap} connections at most"
        held = self.held_by(address)
        if held >= self.per_address:
            return f"{held} connections from this address already"
        self._by_address[address] += 1
        return None

    def release(self, address: str) -> None:
        self._by_address -= Counter([address])  # drops counts at zero; never below it

    def held_by(self, address: str) -> int:
        return self._by_address[address]
