"""evolve: the state after one Gridiron event; the only way its state changes."""

from __future__ import annotations

import dataclasses
from typing import Any

from partyhost.engine.core import Event
from partyhost.engine.gsm.gridiron.state import GridironState
from partyhost.engine.gsm.placement import placement_from
from partyhost.engine.gsm.state import shared_event


def evolve(state: GridironState, event: Event) -> GridironState:
    data, replace = event.data, dataclasses.replace
    kind = event.kind
    if kind == "card_placed":
        seat = data["seat"]
        hand = tuple(c for c in state.hands[seat] if c != data["card"])
        return replace(
            state,
            board=(*state.board, placement_from(data)),
            hands={**state.hands, seat: hand},
            passes=0,
            last=dict(data),
        )
    if kind == "card_drawn":
        seat, card = data["seat"], event.secret["card"]
        hands = {**state.hands, seat: (*state.hands[seat], card)}
        return replace(state, hands=hands, pile=state.pile[1:], passes=0, last=dict(data))
    if kind == "passed":
        return replace(state, passes=data["passes"], last=dict(data))
    if kind == "turn":
        return replace(state, turn=data["seat"])
    return shared_event(state, event, leaving=_hand_out_of_play)


def _hand_out_of_play(state: GridironState, seat: int) -> dict[str, Any]:
    """A leaving player's hand is out of play for the rest of the game."""
    return {
        "hands": {**state.hands, seat: ()},
        "out_of_play": (*state.out_of_play, *state.hands[seat]),
    }
