"""Gridiron's state: hands, the draw pile, the grid and whose turn it is."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import Event, IllegalMove
from partyhost.engine.gsm.board import any_fit
from partyhost.engine.gsm.deck import Deck
from partyhost.engine.gsm.placement import Placement, board_map
from partyhost.engine.gsm.state import TableState, deal_hands, laid_down, new_table, shared_event

GAME_ID = "gridiron"
NAME = "Game, Set, Match! - Gridiron"
HAND_SIZE = 7


@dataclass(frozen=True, kw_only=True)
class GridironState(TableState):
    """Hands, the draw pile, the grid and whose turn it is."""

    hands: dict[int, tuple[int, ...]]
    pile: tuple[int, ...]
    board: tuple[Placement, ...]
    turn: int
    passes: int = 0
    phase: str = "turns"

    def refusal(self, seat: int) -> IllegalMove | None:
        """Only the seat on turn plays; anyone else, a spectator too, hears whose turn it is."""
        if self.phase != "over" and seat != self.turn:
            return IllegalMove("not_your_turn", f"It is seat {self.turn}'s turn.")
        return super().refusal(seat)


def can_place(state: GridironState, seat: int) -> bool:
    """Whether any card in the seat's hand fits the board somewhere."""
    deck = state.deck
    mask = deck.table.hand_mask(state.hands[seat], bool(state.rules["rotate"]))
    return any_fit(deck.table, board_map(deck, state.board), mask) is not None


def setup(deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int) -> GridironState:
    """Deal, turn the next card up in the middle; the rest is the draw pile."""
    rng, hands, rest = deal_hands(deck, seats, seed, HAND_SIZE)
    first = rules["first_seat"]
    if first not in seats:  # off, or a seat that is not playing: a random seat starts
        first = rng.choice(list(seats))
    return GridironState(
        **new_table(deck, seats, rules, rng),
        hands=hands,
        pile=tuple(rest[1:]),
        board=(Placement(rest[0], 0, 0),),
        turn=first,
    )


def evolve(state: GridironState, event: Event) -> GridironState:
    data, replace = event.data, dataclasses.replace
    kind = event.kind
    if kind == "card_placed":
        return replace(state, passes=0, **laid_down(state, data))
    if kind == "card_drawn":
        seat, card = data["seat"], event.secret["card"]
        hands = {**state.hands, seat: (*state.hands[seat], card)}
        return replace(state, hands=hands, pile=state.pile[1:], passes=0, last=dict(data))
    if kind == "passed":
        return replace(state, passes=data["passes"], last=dict(data))
    if kind == "turn":
        return replace(state, turn=data["seat"])
    # A leaving player's hand is out of play for the rest of the game.
    return shared_event(state, event, cards_leave=("hands",))
