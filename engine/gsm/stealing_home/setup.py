"""A new Stealing Home game: a valid 2 x 2 block in the middle, two cards turned up."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partyhost.engine.core import IllegalMove
from partyhost.engine.gsm.board import BoardMap, fitting
from partyhost.engine.gsm.cards import Deck
from partyhost.engine.gsm.masks import CardTable, bits
from partyhost.engine.gsm.placement import Placement
from partyhost.engine.gsm.stealing_home.state import StealingHomeState
from partyhost.engine.rng import Rng

BLOCK = ((0, 0), (1, 0), (0, 1), (1, 1))


def setup(
    deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
) -> StealingHomeState:
    """Shuffle, build the starting block from the first cards that make one, turn up two."""
    rng = Rng(seed)
    pile = rng.shuffled(range(len(deck.cards)))
    pool: list[int] = []
    block = None
    while pile and block is None:
        pool.append(pile.pop(0))
        if len(pool) >= len(BLOCK):
            block = start_block(deck.table, pool, bool(rules["rotate"]))
    if block is None or len(pile) + len(pool) - len(BLOCK) < 2:
        raise IllegalMove("deck_unplayable", "No four cards of this deck form a valid block.")
    table = deck.table
    board = tuple(
        Placement(table.card_of(o), x, y, table.is_turned(o)) for (x, y), o in block.items()
    )
    used = {p.card for p in board}
    pile += [card for card in pool if card not in used]
    return StealingHomeState(
        deck=deck,
        rules=dict(rules),
        rng=rng.state,
        seats=tuple(seats),
        pile=tuple(pile[2:]),
        board=board,
        face_up=tuple(pile[:2]),
        collected={seat: () for seat in seats},
    )


def start_block(table: CardTable, pool: Sequence[int], rotate: bool) -> BoardMap | None:
    """Four cards of ``pool`` in a 2 x 2 block that obeys the rule, if there are any."""
    board: BoardMap = {}

    def grow(index: int, avail: int) -> bool:
        if index == len(BLOCK):
            return True
        slot = BLOCK[index]
        for o in bits(fitting(table, board, slot, avail)):
            board[slot] = o
            if grow(index + 1, avail & ~(3 << (o & ~1))):
                return True
            del board[slot]
        return False

    return board if grow(0, table.hand_mask(pool, rotate)) else None
