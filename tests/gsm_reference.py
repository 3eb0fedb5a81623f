"""Slow, obviously-correct versions of the placement search and the solver.

They share nothing with the fast code but the card data: every check lays
real cells on one big cell grid and compares each cell with its eight
neighbours. Tests compare the fast code against these; the benchmark prints
both side by side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations, product

from partyhost.engine.gsm.board import Cell, Slot

Layout = Mapping[Slot, tuple[int, bool]]
"""Slot -> (card id, turned)."""

_SIDES = ((1, 0), (0, 1), (-1, 0), (0, -1))


def cell_grid(
    rows: int, cols: int, cards: Mapping[int, Sequence[Cell]], layout: Layout
) -> dict[tuple[int, int], tuple[Cell, Slot]]:
    """Every cell of every placed card at its global (row, column)."""
    grid: dict[tuple[int, int], tuple[Cell, Slot]] = {}
    for (x, y), (card, turned) in layout.items():
        cells = list(cards[card])
        if turned:
            cells.reverse()
        for i, cell in enumerate(cells):
            r, c = divmod(i, cols)
            grid[(y * rows + r, x * cols + c)] = (cell, (x, y))
    return grid


def layout_ok(rows: int, cols: int, cards: Mapping[int, Sequence[Cell]], layout: Layout) -> bool:
    """Whether no two touching cells of different cards share an object or a color."""
    grid = cell_grid(rows, cols, cards, layout)
    for (r, c), (cell, slot) in grid.items():
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                other = grid.get((r + dr, c + dc))
                if other is None or other[1] == slot:
                    continue
                if other[0][0] == cell[0] or other[0][1] == cell[1]:
                    return False
    return True


def brute_placements(
    rows: int,
    cols: int,
    cards: Mapping[int, Sequence[Cell]],
    layout: Layout,
    hand: Sequence[int],
    rotate: bool,
) -> set[tuple[int, int, int, bool]]:
    """Every (card, x, y, turned) that may be added: try every slot near the board."""
    if not layout:
        return {(card, 0, 0, turned) for card in hand for turned in (False, True)[: 1 + rotate]}
    xs = [x for x, _ in layout]
    ys = [y for _, y in layout]
    found = set()
    for x in range(min(xs) - 1, max(xs) + 2):
        for y in range(min(ys) - 1, max(ys) + 2):
            if (x, y) in layout or not any((x + dx, y + dy) in layout for dx, dy in _SIDES):
                continue
            for card in hand:
                for turned in (False, True)[: 1 + rotate]:
                    trial = {**layout, (x, y): (card, turned)}
                    if layout_ok(rows, cols, cards, trial):
                        found.add((card, x, y, turned))
    return found


def polyominoes(size: int) -> list[frozenset[Slot]]:
    """Every fixed polyomino of ``size`` squares, moved to touch the origin's axes."""

    def normal(shape: frozenset[Slot]) -> frozenset[Slot]:
        mx = min(x for x, _ in shape)
        my = min(y for _, y in shape)
        return frozenset((x - mx, y - my) for x, y in shape)

    shapes = {frozenset([(0, 0)])}
    for _ in range(size - 1):
        grown = set()
        for shape in shapes:
            for x, y in shape:
                for dx, dy in _SIDES:
                    if (x + dx, y + dy) not in shape:
                        grown.add(normal(shape | {(x + dx, y + dy)}))
        shapes = grown
    return sorted(shapes, key=sorted)


def brute_solvable(
    rows: int, cols: int, cards: Mapping[int, Sequence[Cell]], hand: Sequence[int], rotate: bool
) -> bool:
    """Whether some shape, order and turning of the hand obeys the rule (tiny hands only)."""
    if not hand:
        return True
    turns = (False, True) if rotate else (False,)
    for shape in polyominoes(len(hand)):
        slots = sorted(shape)
        for order in permutations(hand):
            for turning in product(turns, repeat=len(hand)):
                layout = {
                    slot: (card, turned)
                    for slot, card, turned in zip(slots, order, turning, strict=True)
                }
                if layout_ok(rows, cols, cards, layout):
                    return True
    return False


def naive_solvable(
    rows: int,
    cols: int,
    cards: Mapping[int, Sequence[Cell]],
    hand: Sequence[int],
    rotate: bool,
    budget: int = 200_000,
) -> bool | None:
    """Plain backtracking: any card, any slot next to the others, any turn.

    No anchoring beyond the first card's slot, no ordering, no shared masks:
    the same arrangement is reached in every order. ``None`` when ``budget``
    trial placements were not enough to decide.
    """
    if not hand:
        return True
    turns = (False, True) if rotate else (False,)
    tries = 0

    def grow(layout: dict[Slot, tuple[int, bool]], rest: list[int]) -> bool:
        nonlocal tries
        if not rest:
            return True
        empty = {(x + dx, y + dy) for x, y in layout for dx, dy in _SIDES} - layout.keys()
        for card in rest:
            for slot in sorted(empty):
                for turned in turns:
                    tries += 1
                    if tries > budget:
                        raise TimeoutError
                    layout[slot] = (card, turned)
                    if layout_ok(rows, cols, cards, layout) and grow(
                        layout, [c for c in rest if c != card]
                    ):
                        return True
                    del layout[slot]
        return False

    try:
        return any(grow({(0, 0): (hand[0], turned)}, list(hand[1:])) for turned in turns)
    except TimeoutError:
        return None
