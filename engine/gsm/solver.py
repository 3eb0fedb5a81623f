"""Arrange a hand into one connected grid that obeys the rule, or prove it cannot be done.

The search grows the arrangement from an anchor the way Redelmeier enumerates
polyominoes (each arrangement visited once); the first card lies at (0, 0)
upright, which removes the 180-degree duplicates. Slots are tried
most-constrained first, and a hand that cannot be linked is refused before any search.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from partyhost.engine.gsm.board import SIDES, BoardMap, CardTable, Slot, bits, fitting


@dataclass(frozen=True)
class Spot:
    """Where the solver put one card."""

    card: int
    x: int
    y: int
    turned: bool


def _side_partners(table: CardTable, card_ids: Sequence[int], rotate: bool) -> list[int]:
    """For each card, the mask of hand cards (by position) it can share a side with."""
    orient = [table.hand_mask([c], rotate) for c in card_ids]
    partners = []
    for a, mask_a in enumerate(orient):
        reach = 0
        for o in bits(mask_a):
            for d in (0, 2, 4, 6):
                reach |= table.compat[d][o]
        partners.append(sum(1 << b for b, mask_b in enumerate(orient) if b != a and reach & mask_b))
    return partners


def can_link(table: CardTable, card_ids: Sequence[int], rotate: bool) -> bool:
    """A necessary condition: the side-compatibility graph of the hand is connected."""
    if len(card_ids) <= 1:
        return True
    partners = _side_partners(table, card_ids, rotate)
    reached, stack = 1, [0]
    while stack:
        new = partners[stack.pop()] & ~reached
        reached |= new
        stack.extend(bits(new))
    return reached == (1 << len(card_ids)) - 1


def solve(table: CardTable, card_ids: Sequence[int], rotate: bool = True) -> list[Spot] | None:
    """One valid connected arrangement of all of ``card_ids``, or ``None`` if there is none."""
    if not card_ids:
        return []
    if not can_link(table, card_ids, rotate):
        return None
    placed: BoardMap = {(0, 0): table.orientation(card_ids[0], False)}
    seen: set[Slot] = {(0, 0), *SIDES}

    def grow(untried: list[Slot], avail: int, remaining: int) -> bool:
        options = []
        for slot in untried:
            mask = fitting(table, placed, slot, avail)
            if mask:
                options.append((mask.bit_count(), slot, mask))
        options.sort()
        for index, (_, slot, mask) in enumerate(options):
            rest = [option[1] for option in options[index + 1 :]]
            x, y = slot
            new = [s for s in ((x + dx, y + dy) for dx, dy in SIDES) if s not in seen]
            seen.update(new)
            for o in bits(mask):
                placed[slot] = o
                if remaining == 1:
                    return True
                if grow(rest + new, avail & ~(3 << (o & ~1)), remaining - 1):
                    return True
                del placed[slot]
            seen.difference_update(new)
        return False

    avail = table.hand_mask(card_ids[1:], rotate)
    if len(card_ids) > 1 and not grow(list(SIDES), avail, len(card_ids) - 1):
        return None
    return [Spot(table.card_of(o), x, y, table.is_turned(o)) for (x, y), o in placed.items()]
