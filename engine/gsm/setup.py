"""What every Game, Set, Match! variant's setup shares: enough cards, and dealing hands."""

from __future__ import annotations

from collections.abc import Sequence

from partyhost.engine.core import IllegalMove
from partyhost.engine.gsm.cards import Deck


def require_cards(deck: Deck, needed: int, table: str = "this table") -> None:
    """Refuse a deck with fewer than ``needed`` cards; ``table`` names what it falls short for."""
    if len(deck.cards) < needed:
        raise IllegalMove("deck_too_small", f"The deck has too few cards for {table}.")


def deal_hands(pile: Sequence[int], seats: Sequence[int], size: int) -> dict[int, tuple[int, ...]]:
    """``size`` cards a seat from the top of ``pile``, seat after seat."""
    return {seat: tuple(pile[i * size : (i + 1) * size]) for i, seat in enumerate(seats)}
