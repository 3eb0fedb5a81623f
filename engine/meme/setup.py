"""A new game's state: seats in seat order, no money yet, everyone about to roll off."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

from partyhost.engine.meme.deck import MemeDeck
from partyhost.engine.meme.state import MemeState, Rules
from partyhost.engine.rng import Rng


def setup(deck: MemeDeck, seats: Sequence[int], rules: Mapping[str, Any], seed: int) -> MemeState:
    """The table before the roll-off; ``rules`` are resolved and ``seats`` checked already."""
    order = tuple(sorted(seats))
    own = {field.name for field in fields(Rules)}  # not the host's round-results pause
    return MemeState(
        deck=deck,
        rules=Rules(**{name: value for name, value in rules.items() if name in own}),
        seats=order,
        rng=Rng(seed).next_u64(),
        money={seat: 0 for seat in order},
        rolloff_pending=frozenset(order),
    )
