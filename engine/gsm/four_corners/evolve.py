"""evolve: the state after one Four Corners event; the only way its state changes."""

from __future__ import annotations

import dataclasses

from partyhost.engine.core import Event
from partyhost.engine.gsm.four_corners.state import FourCornersState
from partyhost.engine.gsm.placement import placement_from
from partyhost.engine.gsm.state import shared_event


def evolve(state: FourCornersState, event: Event) -> FourCornersState:
    data, replace = event.data, dataclasses.replace
    kind = event.kind
    if kind == "stall_clock":
        return replace(state, stall_started=data["at"])
    if kind == "card_placed":
        seat = data["seat"]
        hand = tuple(c for c in state.hands[seat] if c != data["card"])
        axes = state.axes
        if "axis" in data:
            other = next(s for s in state.seats if s != seat)
            axes = {seat: data["axis"], other: "v" if data["axis"] == "h" else "h"}
        progress = len(hand) < state.lowest[seat]
        return replace(
            state,
            board=(*state.board, placement_from(data)),
            hands={**state.hands, seat: hand},
            lowest={**state.lowest, seat: min(len(hand), state.lowest[seat])},
            axes=axes,
            stall_started=data["at"] if progress else state.stall_started,
            stuck=frozenset(),
            last=dict(data),
        )
    if kind == "taken_back":
        seat, card = data["seat"], data["card"]
        board = tuple(p for p in state.board if p.card != card)
        hands = {**state.hands, seat: (*state.hands[seat], card)}
        return replace(state, board=board, hands=hands, stuck=frozenset(), last=dict(data))
    if kind == "stuck":
        return replace(state, stuck=state.stuck | {data["seat"]})
    return shared_event(state, event)
