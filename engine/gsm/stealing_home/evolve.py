"""evolve: the state after one Stealing Home event; the only way its state changes."""

from __future__ import annotations

import dataclasses
from typing import Any

from partyhost.engine.core import Event
from partyhost.engine.gsm.placement import placement_from
from partyhost.engine.gsm.state import shared_event
from partyhost.engine.gsm.stealing_home.state import Claim, StealingHomeState


def evolve(state: StealingHomeState, event: Event) -> StealingHomeState:
    data, replace = event.data, dataclasses.replace
    kind = event.kind
    if kind == "round_clock":
        return replace(state, round_started=data["at"])
    if kind == "match_called":
        if state.first is None:
            claim = Claim(data["seat"], placement_from(event.secret), event.secret["at"])
            return replace(state, first=claim)
        return replace(state, tied=(*state.tied, data["seat"]))
    if kind == "wrong_match":
        return replace(state, locked=state.locked | {data["seat"]})
    if kind == "no_fit_vote":
        return replace(state, votes=state.votes | {data["seat"]})
    if kind == "match_won":
        seat = data["seat"]
        collected = {**state.collected, seat: (*state.collected[seat], data["kept"])}
        board = (*state.board, placement_from(data))
        return _round_over(state, board=board, collected=collected, last=dict(data))
    if kind == "tiebreak":
        pile = (*state.pile, *state.face_up)
        return _round_over(state, pile=pile, last=dict(data))
    if kind == "no_fit":
        out = (*state.out_of_play, *data["cards"])
        return _round_over(state, out_of_play=out, last=dict(data))
    if kind == "cards_turned":
        tiebreak = data["tiebreak"]
        return replace(
            state,
            pile=state.pile[2:],
            face_up=tuple(data["cards"]),
            round=data["round"],
            round_started=data["at"],
            tiebreak=None if tiebreak is None else tuple(tiebreak),
        )
    if kind == "seat_joined":
        seat = data["seat"]
        if seat in state.seats:
            return replace(state, left=state.left - {seat})
        return replace(state, seats=(*state.seats, seat), collected={**state.collected, seat: ()})
    return shared_event(state, event)


def _round_over(state: StealingHomeState, **changes: Any) -> StealingHomeState:
    """Clear a resolved round's face-up cards, claims, lockouts and votes."""
    return dataclasses.replace(
        state, face_up=(), first=None, tied=(), locked=frozenset(), votes=frozenset(), **changes
    )
