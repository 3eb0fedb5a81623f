"""evolve: the state after one Scramble event; the only way its state changes."""

from __future__ import annotations

import dataclasses
from typing import Any

from partyhost.engine.core import Event
from partyhost.engine.gsm.placement import Placement
from partyhost.engine.gsm.scramble.state import ScrambleState
from partyhost.engine.gsm.state import shared_event


def evolve(state: ScrambleState, event: Event) -> ScrambleState:
    data, secret, replace = event.data, event.secret, dataclasses.replace
    kind = event.kind
    if kind in ("placed", "taken_back"):
        seat, card = data["seat"], secret["card"]
        board = tuple(p for p in state.boards[seat] if p.card != card)
        if kind == "placed":
            board = (*board, Placement(card, secret["x"], secret["y"], secret["turned"], seat))
        placed = {p.card for p in board}
        own = (*state.hands[seat], *(p.card for p in state.boards[seat]))
        hand = tuple(c for c in own if c not in placed)
        return replace(
            state, boards={**state.boards, seat: board}, hands={**state.hands, seat: hand}
        )
    if kind == "game_called":
        seat = data["seat"]
        if data["valid"]:
            return replace(state, wins={**state.wins, seat: state.wins[seat] + 1}, last=dict(data))
        own = (*state.hands[seat], *(p.card for p in state.boards[seat]))
        return replace(
            state,
            hands={**state.hands, seat: own},
            boards={**state.boards, seat: ()},
            last=dict(data),
        )
    if kind == "dealt":
        hands = {entry["seat"]: tuple(entry["hand"]) for entry in secret["hands"]}
        hands = {seat: hands.get(seat, ()) for seat in state.seats}
        boards: dict[int, tuple[Placement, ...]] = {seat: () for seat in state.seats}
        return replace(
            state,
            rng=secret["rng"],
            hands=hands,
            boards=boards,
            game=data["game"],
            out_of_play=tuple(secret["rest"]),
            stuck=frozenset(),
        )
    if kind == "stuck":
        return replace(state, stuck=state.stuck | {data["seat"]})
    return shared_event(state, event, leaving=_cards_out_of_play)


def _cards_out_of_play(state: ScrambleState, seat: int) -> dict[str, Any]:
    """A leaving player's cards, in hand and on their board, are out of play."""
    own = (*state.hands[seat], *(p.card for p in state.boards[seat]))
    return {
        "hands": {**state.hands, seat: ()},
        "boards": {**state.boards, seat: ()},
        "out_of_play": (*state.out_of_play, *own),
    }
