"""What a Gridiron seat sees and may do: the public board, its own hand, whose turn it is."""

from __future__ import annotations

from partyhost.engine.core import Command, View
from partyhost.engine.gsm import views as shared
from partyhost.engine.gsm.gridiron.state import GAME_ID, GridironState, can_place
from partyhost.engine.gsm.placement import place_template


def view(state: GridironState, seat: int | None) -> View:
    return shared.table_view(GAME_ID, state, seat, public_view, legal, shared.own_hand)


def legal(state: GridironState, seat: int) -> list[Command]:
    """On your turn: place a card that fits, else draw, else (pile empty) pass."""
    if state.refusal(seat) is not None:
        return []
    if can_place(state, seat):
        place = place_template(state.deck, state.board, state.hands[seat], state.rules)
        return [{**place, "v": state.version}]
    return [{"type": "draw" if state.pile else "pass", "v": state.version}]


def public_view(state: GridironState) -> View:
    hands = state.hands
    return {
        "board": shared.board_view(state.deck, state.board),
        "hand": [],
        "pile": len(state.pile),
        "turn": state.turn,
        "passes": state.passes,
        "scores": shared.score_rows(state, lambda s: {"hand": len(hands[s])}),
        "deadlines": {},
    }


def replay_view(state: GridironState) -> View:
    """Every hand shown. No rounds: a replay steps by each card put on the table."""
    return {**view(state, None), "hands": shared.by_seat(state, "hands"), "round": len(state.board)}
