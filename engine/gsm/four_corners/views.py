"""What a Four Corners seat sees and may do: the crossing lines, its own hand, the stall clock."""

from __future__ import annotations

from partyhost.engine.core import Command, View
from partyhost.engine.gsm import views as shared
from partyhost.engine.gsm.four_corners.rules import deadline
from partyhost.engine.gsm.four_corners.state import GAME_ID, FourCornersState, end_cards, open_slots
from partyhost.engine.gsm.placement import place_template


def view(state: FourCornersState, seat: int | None) -> View:
    return shared.table_view(GAME_ID, state, seat, public_view, legal, shared.own_hand)


def legal(state: FourCornersState, seat: int) -> list[Command]:
    """Place at an end of the own line, take back an end card, or say "stuck" once."""
    if state.refusal(seat) is not None:
        return []
    commands: list[Command] = []
    slots = open_slots(state, seat)
    if slots and state.hands[seat]:
        commands.append(
            place_template(state.deck, state.board, state.hands[seat], state.rules, slots=slots)
        )
    ends = end_cards(state, seat)
    if ends:
        commands.append({"type": "take_back", "cards": ends})
    if seat not in state.stuck:
        commands.append({"type": "stuck"})
    return commands


def public_view(state: FourCornersState) -> View:
    stall = None if state.stall_started is None else deadline(state)
    hands = state.hands
    return {
        "board": shared.board_view(state.deck, state.board),
        "hand": [],
        "axes": [{"seat": s, "axis": state.axes.get(s)} for s in state.seats],
        "stuck": sorted(state.stuck),
        "scores": shared.score_rows(state, lambda s: {"hand": len(hands[s])}),
        "deadlines": {"stall": stall},
        "deadline": stall,
    }


def replay_view(state: FourCornersState) -> View:
    """Both hands shown. No rounds: a replay steps by each card put on the table."""
    return {**view(state, None), "hands": shared.by_seat(state, "hands"), "round": len(state.board)}
