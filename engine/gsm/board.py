"""The slot grid: where a card may go, checked fast (masks) or cell by cell (reasons).

The mask search drives hints, bots and the solver; the cell-level check names
the first clash ("two helmets touch"), which is what a player is told.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from partyhost.engine.gsm.masks import DIRECTIONS, SIDES, CardTable, Cell, Slot, bits, touch_pairs

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
