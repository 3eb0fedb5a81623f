"""Who a room's owner has sent away: a kicked player cannot come back to that room.

Names are kept in their look-alike form (``names.name_key``), so joining again
as "ANN" or with a Cyrillic A does not undo a kick. The SSH door's own address
is never banned: every door visitor connects from it.
"""

from __future__ import annotations

from collections.abc import Iterable

from partyhost.net.names import name_key
from partyhost.net.protocol import Refused


class BanList:
    """The names and addresses of the people kicked from one room."""

    def __init__(
        self,
        shared_address: str | None = None,
        names: Iterable[str] = (),
        addresses: Iterable[str] = (),
    ) -> None:
        """``names`` (look-alike keys) and ``addresses``: the list as the store kept it."""
        self._shared_address = shared_address
        """An address many people connect from (the SSH door's): never banned."""
        self._names: set[str] = set(names)
        self._addresses: set[str] = set(addresses)

    @property
    def names(self) -> list[str]:
        """The banned names' look-alike keys, sorted (as the store keeps them)."""
        return sorted(self._names)

    @property
    def addresses(self) -> list[str]:
        """The banned addresses, sorted."""
        return sorted(self._addresses)

    def ban(self, name: str, address: str | None) -> None:
        """Keep ``name`` (and its look-alikes) and ``address`` out of the room."""
        self._names.add(name_key(name))
        if address and address != self._shared_address:
            self._addresses.add(address)

    def check(self, name: str, address: str) -> None:
        """Refused (``banned``) if ``name`` or ``address`` was kicked from the room."""
        if name_key(name) in self._names or address in self._addresses:
            raise Refused(
                "banned",
                "The room's owner sent you away from this room; you cannot come back to it."
                " Other rooms are open to you.",
            )
