"""Who a room's owner has sent away: a kicked player cannot come back to that room.

A kick that anyone can undo by joining again under the same name is no kick.
The list holds the kicked name in its look-alike form (``names.name_key``:
"ANN", "Ann" with a Cyrillic A and a full-width "ann" are all Ann) and the address the
player was connected from. The SSH door's own address is never banned: every
door visitor connects from it. The list lives as long as the room is open, and is
kept with the room's record, so a restart of the host lets nobody kicked back in.
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
