"""A new game's state: shuffled piles, everyone seated in join order, nobody dealt yet.

Dealing waits for the opening tick (the state's deadline is 0.0) because it
needs the host's clock for the first timer and its events announce the first
judge and carry each seat's private cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

from partyhost.engine.core import IllegalMove
from partyhost.engine.rng import Rng
from partyhost.engine.tshirt.deck import TShirtDeck
from partyhost.engine.tshirt.state import Player, Settings, TShirtState


def setup(
    deck: TShirtDeck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
) -> TShirtState:
    """Shuffle the three decks; ``rules`` are resolved and ``seats`` checked already."""
    first_judge = rules["first_judge"]
    if first_judge is not None and first_judge not in seats:
        raise IllegalMove("bad_option", f"Seat {first_judge} is not at the table to judge first.")
    rng = Rng(seed)
    slogans = rng.shuffled(range(len(deck.slogans)))
    tshirts = rng.shuffled(range(len(deck.tshirts)))
    hot = rng.shuffled(range(len(deck.hot_or_not)))
    return TShirtState(
        deck=deck,
        settings=Settings(**{field.name: rules[field.name] for field in fields(Settings)}),
        players=tuple(Player(seat) for seat in seats),
        slogan_pile=tuple(slogans),
        tshirt_pile=tuple(tshirts),
        hot_pile=tuple(hot),
        rng=rng.state,
    )
