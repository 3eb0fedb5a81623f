"""Gridiron's state: hands, the draw pile, the grid and whose turn it is."""

from __future__ import annotations

from dataclasses import dataclass

from partyhost.engine.gsm.board import any_fit
from partyhost.engine.gsm.placement import Placement, board_map
from partyhost.engine.gsm.state import TableState

GAME_ID = "gridiron"
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
    out_of_play: tuple[int, ...] = ()


def can_place(state: GridironState, seat: int) -> bool:
    """Whether any card in the seat's hand fits the board somewhere."""
    deck = state.deck
    mask = deck.table.hand_mask(state.hands[seat], bool(state.rules["rotate"]))
    return any_fit(deck.table, board_map(deck, state.board), mask) is not None


def card_locations(state: GridironState) -> list[tuple[int, str]]:
    """Where every card is (hands, board, pile, out of play): each card exactly once."""
    found = [(c, f"hand {s}") for s, hand in state.hands.items() for c in hand]
    found += [(p.card, "board") for p in state.board]
    return (
        found + [(c, "pile") for c in state.pile] + [(c, "out of play") for c in state.out_of_play]
    )
