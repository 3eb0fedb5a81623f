"""Precomputed neighbour masks: which card orientation may lie next to which.

Orientation ``2 * k`` is card ``k`` unturned, ``2 * k + 1`` turned. For each
direction and orientation one integer's bit ``q`` says orientation ``q`` may lie
there, so testing a slot is a few integer ANDs: fast enough in pure Python.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache

Cell = tuple[int, int]
"""One cell of a card: (object index, color index) in the deck's legend."""

Slot = tuple[int, int]
"""A card slot on the board: (x, y), x to the right, y downwards."""

DIRECTIONS: tuple[Slot, ...] = (
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
)
"""The eight neighbouring slots; ``DIRECTIONS[(d + 4) % 8]`` is the opposite of ``d``."""

SIDES: tuple[Slot, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
"""The four slots that share a full side (what "next to" means)."""


@cache
def touch_pairs(rows: int, cols: int, dx: int, dy: int) -> tuple[tuple[int, int], ...]:
    """Cell index pairs (mine, theirs) that touch when the other card is at (dx, dy)."""
    pairs = []
    for i in range(rows * cols):
        r1, c1 = divmod(i, cols)
        for j in range(rows * cols):
            r2, c2 = divmod(j, cols)
            if abs(dy * rows + r2 - r1) <= 1 and abs(dx * cols + c2 - c1) <= 1:
                pairs.append((i, j))
    return tuple(pairs)


def bits(mask: int) -> Iterator[int]:
    """The set bit positions of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class CardTable:
    """Orientations of a set of cards and the masks of who may touch whom."""

    def __init__(self, rows: int, cols: int, cards: Sequence[tuple[int, Sequence[Cell]]]) -> None:
        self.rows = rows
        self.cols = cols
        self.card_ids = [card_id for card_id, _ in cards]
        self.index = {card_id: k for k, card_id in enumerate(self.card_ids)}
        self.cells = [tuple(side) for _, cells in cards for side in (cells, cells[::-1])]
        self.full = (1 << len(self.cells)) - 1
        clashes = self._clashes()
        self.compat = []
        for dx, dy in DIRECTIONS:
            pairs = touch_pairs(rows, cols, dx, dy)
            row = []
            for cells in self.cells:
                bad = 0
                for i, j in pairs:
                    bad |= clashes[j][cells[i]]
                row.append(self.full & ~bad)
            self.compat.append(row)

    def _clashes(self) -> list[dict[Cell, int]]:
        """Per cell position: for each cell, the orientations that clash with it there."""
        size = self.rows * self.cols
        by_object: list[dict[int, int]] = [{} for _ in range(size)]
        by_color: list[dict[int, int]] = [{} for _ in range(size)]
        for o, cells in enumerate(self.cells):
            for j, (obj, color) in enumerate(cells):
                by_object[j][obj] = by_object[j].get(obj, 0) | 1 << o
                by_color[j][color] = by_color[j].get(color, 0) | 1 << o
        every = {cell for cells in self.cells for cell in cells}
        return [
            {cell: by_object[j].get(cell[0], 0) | by_color[j].get(cell[1], 0) for cell in every}
            for j in range(size)
        ]

    def orientation(self, card_id: int, turned: bool) -> int:
        return 2 * self.index[card_id] + int(turned)

    def card_of(self, orientation: int) -> int:
        return self.card_ids[orientation >> 1]

    @staticmethod
    def is_turned(orientation: int) -> bool:
        return bool(orientation & 1)

    def hand_mask(self, card_ids: Iterable[int], rotate: bool) -> int:
        """Orientations a player holding ``card_ids`` may put down."""
        per_card = 3 if rotate else 1
        mask = 0
        for card_id in card_ids:
            mask |= per_card << (2 * self.index[card_id])
        return mask
