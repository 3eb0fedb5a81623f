"""Limits that follow a client's address rather than one connection.

A hostile guest can open many connections, so what protects everyone else
is counted per source address: how many connections it holds, and how many
wrong room passwords it has sent lately.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from dataclasses import dataclass, field

from partyhost.net.config import HostConfig
from partyhost.net.joinhints import local_address

log = logging.getLogger(__name__)

PASSWORD_LOG_INTERVAL = 60.0
"""Wrong passwords from one address are logged at most this often (with a count)."""
MAX_REMEMBERED_FAILURES = 64
"""Per address; past this many the delay is at its cap anyway."""


class ConnectionCounter:
    """Connections held per address, and the refusal for one too many."""

    def __init__(self, config: HostConfig) -> None:
        self.config = config
        self._held: dict[str, int] = {}
        self._door = local_address(config.host) if config.ssh_port is not None else None

    def limit_for(self, address: str) -> int:
        """The SSH door's visitors all arrive from the door's own address: it gets their room."""
        limit = self.config.max_connections_per_address
        return limit + self.config.ssh_max_sessions if address == self._door else limit

    def refusal(self, address: str, total: int) -> str | None:
        """Why a new connection from ``address`` is refused, or None when it is welcome."""
        if total >= self.config.max_connections:
            limit = self.config.max_connections
            return f"This host is full ({limit} connections at most); try later."
        per_address = self.limit_for(address)
        if self._held.get(address, 0) >= per_address:
            return (
                f"Too many connections from your address {address} (this host takes"
                f" {per_address} from one address); close some and try again."
            )
        return None

    def add(self, address: str) -> None:
        self._held[address] = self._held.get(address, 0) + 1

    def remove(self, address: str) -> None:
        left = self._held.get(address, 0) - 1
        if left > 0:
            self._held[address] = left
        else:
            self._held.pop(address, None)


@dataclass
class _Guesses:
    failures: deque[float] = field(default_factory=lambda: deque(maxlen=MAX_REMEMBERED_FAILURES))
    next_turn: float = 0.0
    """When this address's next password may be checked (parallel tries queue up)."""
    unlogged: int = 0
    logged_at: float = float("-inf")
    rooms: set[str] = field(default_factory=set)


class PasswordThrottle:
    """Wrong room passwords slow their address down: a growing, capped wait per try.

    The first few failures cost nothing (typos happen); after that each try
    from the address waits ``wrong_password_delay`` seconds, doubling with
    every failure up to ``wrong_password_max_delay``. Tries from several
    connections of one address queue behind each other, so opening more
    connections does not guess faster. Failures older than
    ``wrong_password_memory`` seconds are forgotten.
    """

    def __init__(self, config: HostConfig) -> None:
        self.config = config
        self._by_address: dict[str, _Guesses] = {}

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

    def failed(self, address: str, room: str) -> None:
        """Count a wrong password; the log hears of it now or in the next report."""
        now = time.monotonic()
        guesses = self._by_address.setdefault(address, _Guesses())
        guesses.failures.append(now)
        guesses.unlogged += 1
        guesses.rooms.add(room)
        self._report(address, guesses, now)

    def report(self) -> None:
        """Log what was held back, and forget quiet addresses (call it now and then)."""
        now = time.monotonic()
        for address, guesses in list(self._by_address.items()):
            self._report(address, guesses, now)
            if not guesses.failures and not guesses.unlogged:
                del self._by_address[address]

    def _report(self, address: str, guesses: _Guesses, now: float) -> None:
        """One line per address and interval, never one per guess."""
        self._forget_old(guesses, now)
        if not guesses.unlogged or now - guesses.logged_at < PASSWORD_LOG_INTERVAL:
            return
        log.warning(
            "%d wrong room password(s) from %s (room %s); %d in the last %.0f s",
            guesses.unlogged,
            address,
            ", ".join(sorted(guesses.rooms)),
            len(guesses.failures),
            self.config.wrong_password_memory,
        )
        guesses.unlogged = 0
        guesses.rooms.clear()
        guesses.logged_at = now

    def _forget_old(self, guesses: _Guesses, now: float) -> None:
        horizon = now - self.config.wrong_password_memory
        while guesses.failures and guesses.failures[0] < horizon:
            guesses.failures.popleft()
