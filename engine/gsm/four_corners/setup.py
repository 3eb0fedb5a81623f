"""A new Four Corners game: ten cards each, one card in the middle, the rest out of play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partyhost.engine.gsm.cards import Deck
from partyhost.engine.gsm.four_corners.state import HAND_SIZE, FourCornersState
from partyhost.engine.gsm.placement import Placement
from partyhost.engine.gsm.state import deal_hands, require_cards
from partyhost.engine.rng import Rng


def setup(
    deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
) -> FourCornersState:
    """Deal both hands and lay the middle card; nobody owns an axis yet."""
    require_cards(deck, 2 * HAND_SIZE + 1, "Four Corners")
    rng = Rng(seed)
    pile = rng.shuffled(range(len(deck.cards)))
    hands = deal_hands(pile, seats, HAND_SIZE)
    middle = pile[2 * HAND_SIZE]
    return FourCornersState(
        deck=deck,
        rules=dict(rules),
        rng=rng.state,
        seats=tuple(seats),
        hands=hands,
        lowest={seat: HAND_SIZE for seat in seats},
        board=(Placement(middle, 0, 0),),
        axes={},
        out_of_play=tuple(pile[2 * HAND_SIZE + 1 :]),
    )
