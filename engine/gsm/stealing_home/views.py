"""What a Stealing Home seat sees and may do: everything on the table is public."""

from __future__ import annotations

from partyhost.engine.core import Command, SeatResult, View, shared_part
from partyhost.engine.gsm import views as shared
from partyhost.engine.gsm.placement import place_template
from partyhost.engine.gsm.stealing_home.state import GAME_ID, StealingHomeState


def view(state: StealingHomeState, seat: int | None) -> View:
    return shared.table_view(GAME_ID, state, seat, public_view, legal)


def legal(state: StealingHomeState, seat: int) -> list[Command]:
    """The "match" template while the seat may claim; "no fit" until it says so or a claim is in."""
    if state.refusal(seat) or state.claim_refused(seat) or not state.face_up:
        return []
    # Every claimant's "match" template is alike (with hints, costly): built once per state.
    match = shared_part(
        state,
        "match",
        lambda: place_template(state.deck, state.board, state.face_up, state.rules, "match"),
    )
    commands = [match]
    if state.first is None and seat not in state.votes:
        commands.append({"type": "no_fit"})
    return commands


def public_view(state: StealingHomeState) -> View:
    deck = state.deck
    collected, locked, votes = state.collected, state.locked, state.votes
    return {
        "board": shared.board_view(deck, state.board),
        "face_up": shared.cards_view(deck, state.face_up),
        "pile": len(state.pile),
        "out_of_play": len(state.out_of_play),
        "round": state.round,
        "tiebreak": None if state.tiebreak is None else list(state.tiebreak),
        "called": [] if state.first is None else [state.first.seat, *state.tied],
        "scores": shared.score_rows(
            state,
            lambda s: {"cards": len(collected[s]), "locked": s in locked, "voted": s in votes},
        ),
        "deadlines": {"round": state.round_deadline(), "tie": state.tie_deadline()},
        "deadline": state.tie_deadline() if state.first is not None else state.round_deadline(),
    }


def replay_view(state: StealingHomeState) -> View:
    """Everything is on the table already; a replay steps by round."""
    return {**view(state, None), "round": state.round}


def results(state: StealingHomeState) -> list[SeatResult]:
    """Points: the cards each seat collected."""
    return shared.seat_results(state, lambda seat: len(state.collected[seat]))
