"""Scramble's state: every player's hand and private board, and the match score."""

from __future__ import annotations

from dataclasses import dataclass

from partyhost.engine.gsm.placement import Placement
from partyhost.engine.gsm.state import TableState

GAME_ID = "scramble"
HAND_SIZE = 7
MATCH_WINS = {"single": 1, "best-of-3": 2, "best-of-5": 3}
"""Games a player must win to take the match, by the ``match`` option."""


@dataclass(frozen=True, kw_only=True)
class ScrambleState(TableState):
    """Every player's hand and private board, and the match score."""

    hands: dict[int, tuple[int, ...]]
    boards: dict[int, tuple[Placement, ...]]
    wins: dict[int, int]
    out_of_play: tuple[int, ...]
    stuck: frozenset[int] = frozenset()
    game: int = 1
    phase: str = "race"


def card_locations(state: ScrambleState) -> list[tuple[int, str]]:
    """Where every card is (hands, boards, out of play): each card exactly once."""
    found = [(c, f"hand {s}") for s, hand in state.hands.items() for c in hand]
    found += [(p.card, f"board {s}") for s, board in state.boards.items() for p in board]
    return found + [(c, "out of play") for c in state.out_of_play]
