"""A new Gridiron game: seven cards a player, one card in the middle, the first player chosen."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partyhost.engine.gsm.cards import Deck
from partyhost.engine.gsm.gridiron.state import HAND_SIZE, GridironState
from partyhost.engine.gsm.placement import Placement
from partyhost.engine.gsm.state import deal_hands, require_cards
from partyhost.engine.rng import Rng


def setup(deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int) -> GridironState:
    """Deal, turn the next card up in the middle; the rest is the draw pile."""
    require_cards(deck, HAND_SIZE * len(seats) + 1)
    rng = Rng(seed)
    pile = rng.shuffled(range(len(deck.cards)))
    first = rules["first_seat"]
    if first not in seats:  # off, or a seat that is not playing: a random seat starts
        first = rng.choice(list(seats))
    hands = deal_hands(pile, seats, HAND_SIZE)
    rest = pile[HAND_SIZE * len(seats) :]
    return GridironState(
        deck=deck,
        rules=dict(rules),
        rng=rng.state,
        seats=tuple(seats),
        hands=hands,
        pile=tuple(rest[1:]),
        board=(Placement(rest[0], 0, 0),),
        turn=first,
    )
