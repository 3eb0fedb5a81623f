"""A new Scramble match: seven cards a player, dealt solvable when the room asks for it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partyhost.engine.gsm.cards import Deck
from partyhost.engine.gsm.scramble.state import HAND_SIZE, ScrambleState
from partyhost.engine.gsm.solver import solve
from partyhost.engine.gsm.state import require_cards
from partyhost.engine.rng import Rng

DEAL_ATTEMPTS = 200


def setup(deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int) -> ScrambleState:
    """Deal every seat its hand; the undealt rest is out of play."""
    require_cards(deck, HAND_SIZE * len(seats))
    rng = Rng(seed)
    hands, rest = deal(deck, seats, rng, bool(rules["solvable_deals"]), bool(rules["rotate"]))
    return ScrambleState(
        deck=deck,
        rules=dict(rules),
        rng=rng.state,
        seats=tuple(seats),
        hands=hands,
        boards={seat: () for seat in seats},
        wins={seat: 0 for seat in seats},
        out_of_play=rest,
    )


def deal(
    deck: Deck, seats: Sequence[int], rng: Rng, solvable: bool, rotate: bool
) -> tuple[dict[int, tuple[int, ...]], tuple[int, ...]]:
    """Seven cards a seat and the undealt rest.

    With ``solvable``, a hand the solver cannot arrange is shuffled back and
    redrawn (at most ``DEAL_ATTEMPTS`` times, so a strange deck cannot hang
    the host).
    """
    pile = rng.shuffled(range(len(deck.cards)))
    hands: dict[int, tuple[int, ...]] = {}
    for seat in seats:
        for _ in range(DEAL_ATTEMPTS):
            if not solvable or solve(deck.table, pile[:HAND_SIZE], rotate) is not None:
                break
            pile = rng.shuffled(pile)
        hands[seat] = tuple(pile[:HAND_SIZE])
        pile = pile[HAND_SIZE:]
    return hands, tuple(pile)
