"""Four Corners' state: two hands, the crossing lines, who owns which axis, the stall clock."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import Event
from partyhost.engine.gsm.board import Slot
from partyhost.engine.gsm.deck import Deck
from partyhost.engine.gsm.placement import Placement
from partyhost.engine.gsm.state import TableState, deal_hands, laid_down, new_table, shared_event

GAME_ID = "four-corners"
NAME = "Game, Set, Match! - Four Corners"
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
    phase: str = "race"
    stall_started: float | None = None
    stuck: frozenset[int] = frozenset()


def line(state: FourCornersState, seat: int) -> list[Placement]:
    """The seat's own cards, ordered along its axis (the middle card not included)."""
    return sorted((p for p in state.board if p.owner == seat), key=lambda p: p.x + p.y)


def open_slots(state: FourCornersState, seat: int) -> list[Slot]:
    """Where ``seat`` may put a card now: its line's two ends, or anywhere beside the middle."""
    axis = state.axes.get(seat)
    if axis is None:  # beside the middle card, until the first placement fixes the axes
        return [] if state.axes else [(1, 0), (-1, 0), (0, 1), (0, -1)]
    dx, dy = AXES[axis]
    steps = [p.x * dx + p.y * dy for p in line(state, seat)] + [0]
    return [
        (dx * (max(steps) + 1), dy * (max(steps) + 1)),
        (dx * (min(steps) - 1), dy * (min(steps) - 1)),
    ]


def end_cards(state: FourCornersState, seat: int) -> list[int]:
    """The seat's cards at the two ends of its line (the middle card is not one of them)."""
    own = line(state, seat)
    ends = []
    if own and own[0].x + own[0].y < 0:
        ends.append(own[0].card)
    if own and own[-1].x + own[-1].y > 0:
        ends.append(own[-1].card)
    return sorted(ends)


def setup(
    deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
) -> FourCornersState:
    """Deal both hands and lay the middle card; nobody owns an axis yet."""
    rng, hands, rest = deal_hands(deck, seats, seed, HAND_SIZE, "Four Corners")
    return FourCornersState(
        **new_table(deck, seats, rules, rng),
        hands=hands,
        lowest={seat: HAND_SIZE for seat in seats},
        board=(Placement(rest[0], 0, 0),),
        axes={},
        out_of_play=tuple(rest[1:]),
    )


def evolve(state: FourCornersState, event: Event) -> FourCornersState:
    data, replace = event.data, dataclasses.replace
    kind = event.kind
    if kind == "stall_clock":
        return replace(state, stall_started=data["at"])
    if kind == "card_placed":
        seat, placed = data["seat"], laid_down(state, data)
        held = len(placed["hands"][seat])
        axes = state.axes
        if "axis" in data:
            other = next(s for s in state.seats if s != seat)
            axes = {seat: data["axis"], other: "v" if data["axis"] == "h" else "h"}
        return replace(
            state,
            **placed,
            lowest={**state.lowest, seat: min(held, state.lowest[seat])},
            axes=axes,
            stall_started=data["at"] if held < state.lowest[seat] else state.stall_started,
            stuck=frozenset(),
        )
    if kind == "taken_back":
        seat, card = data["seat"], data["card"]
        board = tuple(p for p in state.board if p.card != card)
        hands = {**state.hands, seat: (*state.hands[seat], card)}
        return replace(state, board=board, hands=hands, stuck=frozenset(), last=dict(data))
    if kind == "stuck":
        return replace(state, stuck=state.stuck | {data["seat"]})
    return shared_event(state, event)
