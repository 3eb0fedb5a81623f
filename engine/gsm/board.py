"""The slot grid: where a card may go, checked fast (masks) or cell by cell (reasons).

Orientation ``2 * k`` is card ``k`` unturned, ``2 * k + 1`` turned. For each
direction and orientation one integer's bit ``q`` says orientation ``q`` may lie
there, so testing a slot is a few integer ANDs: fast enough in pure Python. The
mask search drives hints, bots and the solver; the cell-level check names the
first clash ("two helmets touch"), which is what a player is told.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
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


BoardMap = dict[Slot, int]
"""Placed cards: slot -> orientation index in a :class:`CardTable`."""


def has_side_neighbour(occupied: Mapping[Slot, object], slot: Slot) -> bool:
    x, y = slot
    return any((x + dx, y + dy) in occupied for dx, dy in SIDES)


def frontier(occupied: Mapping[Slot, object]) -> list[Slot]:
    """Empty slots sharing a full side with a placed card, in a stable order."""
    found = {(x + dx, y + dy) for x, y in occupied for dx, dy in SIDES} - occupied.keys()
    return sorted(found, key=lambda s: (s[1], s[0]))


def fitting(table: CardTable, board: BoardMap, slot: Slot, mask: int) -> int:
    """The orientations in ``mask`` that obey the rule at the empty ``slot``."""
    compat = table.compat
    x, y = slot
    for d, (dx, dy) in enumerate(DIRECTIONS):
        neighbour = board.get((x + dx, y + dy))
        if neighbour is not None:
            mask &= compat[(d + 4) & 7][neighbour]
            if not mask:
                break
    return mask


def legal_placements(
    table: CardTable, board: BoardMap, mask: int, slots: Iterable[Slot] | None = None
) -> list[tuple[Slot, int]]:
    """Every (slot, orientation) from ``mask`` placeable now, in ``slots`` or any frontier slot."""
    if not board:
        return [((0, 0), o) for o in bits(mask)]
    if slots is None:
        candidates = frontier(board)  # empty and next to a card by construction
    else:
        candidates = [s for s in slots if s not in board and has_side_neighbour(board, s)]
    return [(slot, o) for slot in candidates for o in bits(fitting(table, board, slot, mask))]


def any_fit(table: CardTable, board: BoardMap, mask: int) -> tuple[Slot, int] | None:
    """One legal placement, or ``None``: cheaper than listing them all."""
    for slot in frontier(board):
        fit = fitting(table, board, slot, mask)
        if fit:
            return slot, (fit & -fit).bit_length() - 1
    return None


@dataclass(frozen=True)
class Clash:
    """Two touching cells that share an object, a color or both."""

    mine: Cell
    theirs: Cell

    @property
    def same(self) -> str:
        if self.mine == self.theirs:
            return "object and color"
        return "object" if self.mine[0] == self.theirs[0] else "color"


def find_clash(
    rows: int, cols: int, placed: Mapping[Slot, Sequence[Cell]], slot: Slot, cells: Sequence[Cell]
) -> Clash | None:
    """The first clash between ``cells`` at ``slot`` and the cards around it, if any."""
    x, y = slot
    for dx, dy in DIRECTIONS:
        other_slot = (x + dx, y + dy)
        other = placed.get(other_slot)
        if other is None:
            continue
        for i, j in touch_pairs(rows, cols, dx, dy):
            mine, theirs = cells[i], other[j]
            if mine[0] == theirs[0] or mine[1] == theirs[1]:
                return Clash(mine, theirs)
    return None


def is_connected(slots: Iterable[Slot]) -> bool:
    """Whether the slots form one group through shared sides."""
    remaining = set(slots)
    if not remaining:
        return True
    stack = [remaining.pop()]
    while stack:
        x, y = stack.pop()
        for dx, dy in SIDES:
            slot = (x + dx, y + dy)
            if slot in remaining:
                remaining.remove(slot)
                stack.append(slot)
    return not remaining


def arrangement_clash(
    rows: int, cols: int, placed: Mapping[Slot, Sequence[Cell]]
) -> tuple[Slot, Clash] | None:
    """The first clash anywhere in a finished arrangement (Scramble's "Game!" check)."""
    for slot, cells in sorted(placed.items()):
        others = {s: c for s, c in placed.items() if s != slot}
        clash = find_clash(rows, cols, others, slot, cells)
        if clash is not None:
            return slot, clash
    return None
