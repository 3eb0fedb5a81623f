"""Four Corners' state: two hands, the crossing lines, who owns which axis, the stall clock."""

from __future__ import annotations

from dataclasses import dataclass

from partyhost.engine.gsm.masks import Slot
from partyhost.engine.gsm.placement import Placement
from partyhost.engine.gsm.state import TableState

GAME_ID = "four-corners"
HAND_SIZE = 10
AXES = {"h": (1, 0), "v": (0, 1)}
"""Horizontal: left/right of the middle card (long sides touch); vertical: above/below."""


@dataclass(frozen=True, kw_only=True)
class FourCornersState(TableState):
    """Two hands, the crossing lines, who owns which axis, and the stall clock."""

    hands: dict[int, tuple[int, ...]]
    lowest: dict[int, int]
    board: tuple[Placement, ...]
    axes: dict[int, str]
    out_of_play: tuple[int, ...]
    phase: str = "race"
    stall_started: float | None = None
    stuck: frozenset[int] = frozenset()


def line(state: FourCornersState, seat: int) -> list[Placement]:
    """The seat's own cards, ordered along its axis (the middle card not included)."""
    return sorted((p for p in state.board if p.owner == seat), key=lambda p: p.x + p.y)


def open_slots(state: FourCornersState, seat: int) -> list[Slot]:
    """Where ``seat`` may put a card now: its line's two ends, or anywhere beside the middle."""
    axis = state.axes.get(seat)
    if axis is None:
        if state.axes:
            return []
        return [(1, 0), (-1, 0), (0, 1), (0, -1)]
    dx, dy = AXES[axis]
    steps = [p.x * dx + p.y * dy for p in line(state, seat)] + [0]
    return [
        (dx * (max(steps) + 1), dy * (max(steps) + 1)),
        (dx * (min(steps) - 1), dy * (min(steps) - 1)),
    ]


def end_cards(state: FourCornersState, seat: int) -> list[int]:
    """The seat's cards at the two ends of its line (what it may take back).

    The middle card belongs to the line, so a line built on one side only has
    one end a player may take from.
    """
    own = line(state, seat)
    ends = []
    if own and own[0].x + own[0].y < 0:
        ends.append(own[0].card)
    if own and own[-1].x + own[-1].y > 0:
        ends.append(own[-1].card)
    return sorted(ends)


def card_locations(state: FourCornersState) -> list[tuple[int, str]]:
    """Where every card is (hands, board, out of play): each card exactly once."""
    found = [(c, f"hand {s}") for s, hand in state.hands.items() for c in hand]
    found += [(p.card, "board") for p in state.board]
    return found + [(c, "out of play") for c in state.out_of_play]
