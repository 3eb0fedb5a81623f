"""Rate limits that follow a client's address, not its connection or its seat.

Leaving a room and joining again, or hanging up and connecting again, must
not refill anyone's allowance, so the host keeps one message bucket and one
chat bucket per source address (the IP, any port), beside each connection's
own. An address holding several connections (a machine with two windows, the
SSH door whose visitors all connect from one address) gets one share per
connection: the same limits per connection as before, but a share arrives
without tokens and the tokens outlive the connections. A connection needs a
token from its own bucket and from its address's, so one busy connection
cannot use up its neighbours' shares either.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from partyhost.net.config import HostConfig
from partyhost.net.joinhints import local_address
from partyhost.net.ratelimit import TokenBucket


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
        self._door = local_address(config.host) if config.ssh_port is not None else None
        """Where the SSH door's visitors connect from (one address, many people)."""

    def of(self, address: str) -> AddressAllowance:
        found = self._by_address.get(address)
        if found is None:
            config = self._config
            found = AddressAllowance(
                TokenBucket(config.messages_per_second, config.message_burst),
                TokenBucket(config.chat_per_second, config.chat_burst),
            )
            self._by_address[address] = found
        return found

    def connected(self, address: str) -> AddressAllowance:
        allowance = self.of(address)
        allowance.hold(+1)
        return allowance

    def disconnected(self, address: str) -> None:
        allowance = self._by_address.get(address)
        if allowance is not None and allowance.connections > 0:
            allowance.hold(-1)

    def connections(self, address: str) -> int:
        found = self._by_address.get(address)
        return 0 if found is None else found.connections

    def rooms_allowed(self, address: str) -> int:
        """Open rooms ``address`` may have created: a few, or a few per SSH door visitor."""
        per_address = self._config.max_rooms_per_address
        if address == self._door:
            return per_address * max(1, self.connections(address))
        return per_address

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
