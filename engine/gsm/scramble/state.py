"""Scramble's state: every player's hand and private board, and the match score."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import Event
from partyhost.engine.gsm.deck import Deck
from partyhost.engine.gsm.placement import Placement
from partyhost.engine.gsm.solver import solve
from partyhost.engine.gsm.state import TableState, new_table, require_cards, shared_event
from partyhost.engine.rng import Rng

GAME_ID = "scramble"
NAME = "Game, Set, Match! - Scramble"
HAND_SIZE = 7
MATCH_WINS = {"single": 1, "best-of-3": 2, "best-of-5": 3}
"""Games a player must win to take the match, by the ``match`` option."""


@dataclass(frozen=True, kw_only=True)
class ScrambleState(TableState):
    """Every player's hand and private board, and the match score."""

    hands: dict[int, tuple[int, ...]]
    boards: dict[int, tuple[Placement, ...]]
    wins: dict[int, int]
    stuck: frozenset[int] = frozenset()
    game: int = 1
    phase: str = "race"


DEAL_ATTEMPTS = 200


def setup(deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int) -> ScrambleState:
    """Deal every seat its hand; the undealt rest is out of play."""
    require_cards(deck, HAND_SIZE * len(seats))
    rng = Rng(seed)
    hands, rest = deal(deck, seats, rng, bool(rules["solvable_deals"]), bool(rules["rotate"]))
    return ScrambleState(
        **new_table(deck, seats, rules, rng),
        hands=hands,
        boards={seat: () for seat in seats},
        wins={seat: 0 for seat in seats},
        out_of_play=rest,
    )


def deal(
    deck: Deck, seats: Sequence[int], rng: Rng, solvable: bool, rotate: bool
) -> tuple[dict[int, tuple[int, ...]], tuple[int, ...]]:
    """Seven cards a seat and the undealt rest; with ``solvable``, an unsolvable hand is
    redrawn, at most ``DEAL_ATTEMPTS`` times so a strange deck cannot hang the host.
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


def evolve(state: ScrambleState, event: Event) -> ScrambleState:
    data, secret, replace = event.data, event.secret, dataclasses.replace
    kind = event.kind
    if kind in ("placed", "taken_back"):
        seat, card = data["seat"], secret["card"]
        board = tuple(p for p in state.boards[seat] if p.card != card)
        if kind == "placed":
            board = (*board, Placement(card, secret["x"], secret["y"], secret["turned"], seat))
        placed = {p.card for p in board}
        own = (*state.hands[seat], *(p.card for p in state.boards[seat]))
        hand = tuple(c for c in own if c not in placed)
        return replace(
            state, boards={**state.boards, seat: board}, hands={**state.hands, seat: hand}
        )
    if kind == "game_called":
        seat = data["seat"]
        if data["valid"]:
            return replace(state, wins={**state.wins, seat: state.wins[seat] + 1}, last=dict(data))
        own = (*state.hands[seat], *(p.card for p in state.boards[seat]))
        return replace(
            state,
            hands={**state.hands, seat: own},
            boards={**state.boards, seat: ()},
            last=dict(data),
        )
    if kind == "dealt":
        hands = {entry["seat"]: tuple(entry["hand"]) for entry in secret["hands"]}
        hands = {seat: hands.get(seat, ()) for seat in state.seats}
        boards: dict[int, tuple[Placement, ...]] = {seat: () for seat in state.seats}
        return replace(
            state,
            rng=secret["rng"],
            hands=hands,
            boards=boards,
            game=data["game"],
            out_of_play=tuple(secret["rest"]),
            stuck=frozenset(),
        )
    if kind == "stuck":
        return replace(state, stuck=state.stuck | {data["seat"]})
    # A leaving player's cards, in hand and on their board, are out of play.
    return shared_event(state, event, cards_leave=("hands", "boards"))
