"""Stealing Home's rules: claims, "no fit" votes, the tie window and the round timer.

Claims count in the order ``decide`` sees them. Valid claims within the tie
window of the first tie with it, so the first is held and settled by ``tick``
once the window has passed.
"""

from __future__ import annotations

from partyhost.engine.core import Command, Decision, IllegalMove, check_join
from partyhost.engine.gsm import rules as shared
from partyhost.engine.gsm.placement import (
    fits,
    placement_clash,
    placement_event_data,
    read_placement,
)
from partyhost.engine.gsm.stealing_home.state import MAX_PLAYERS, NAME, StealingHomeState, evolve

TIMER_STEPS = 8
"""Deadlines one call acts on at most, one after another."""


def deadline(state: StealingHomeState) -> float | None:
    """At once to start the round clock, then the tie window or the round timer."""
    if state.phase != "round":
        return None
    if state.round_started is None:
        return 0.0
    if state.first is not None:
        return state.tie_deadline()
    return state.round_deadline()


def _run_timers(decision: Decision[StealingHomeState]) -> None:
    """The round clock's start, settled claims and rounds nobody could match, as they fall due."""
    for _ in range(TIMER_STEPS):
        state = decision.state
        due = deadline(state)
        if due is None or decision.now < due:
            return
        if state.round_started is None:
            decision.emit("round_clock", {"at": decision.now})
        elif state.first is not None:
            _settle(decision)
        else:
            _no_fit(decision, "timer")


def _check_claimant(state: StealingHomeState, seat: int) -> None:
    refused = state.claim_refused(seat)
    if refused is not None:
        raise refused


def _match(decision: Decision[StealingHomeState], seat: int, command: Command) -> None:
    state = decision.state
    _check_claimant(state, seat)
    move = read_placement(command, bool(state.rules["rotate"]))
    if move.card not in state.face_up:
        raise IllegalMove("not_face_up", "Name one of the two face-up cards.")
    reason = placement_clash(state.deck, state.board, move)
    if reason is not None:
        decision.emit("wrong_match", {**placement_event_data(move, seat), "reason": reason})
        _maybe_no_fit(decision)
        return
    secret = {**placement_event_data(move, seat), "at": decision.now}
    decision.emit("match_called", {"seat": seat, "tie": state.first is not None}, secret=secret)


def _vote(decision: Decision[StealingHomeState], seat: int, command: Command) -> None:
    state = decision.state
    _check_claimant(state, seat)
    if state.first is not None:
        raise IllegalMove("match_pending", "A match has been called; it is being checked.")
    if seat in state.votes:
        raise IllegalMove("already_voted", "You already said 'no fit' this round.")
    decision.emit("no_fit_vote", {"seat": seat})
    _maybe_no_fit(decision)


def _maybe_no_fit(decision: Decision[StealingHomeState]) -> None:
    """No fit once every player who may still claim has said so (someone must have acted)."""
    state = decision.state
    if state.phase != "round" or state.first is not None or not state.face_up:
        return
    racing = set(state.present() if state.tiebreak is None else state.tiebreak) - state.left
    if not racing:
        _no_fit(decision, "tied_players_left")
        return
    required = racing - state.locked - state.away
    acted = (state.votes | state.locked) & racing
    if acted and required <= state.votes:
        _no_fit(decision, "votes")


def _no_fit(decision: Decision[StealingHomeState], reason: str) -> None:
    state = decision.state
    example = fits(state.deck, state.board, state.face_up, bool(state.rules["rotate"]))
    decision.emit(
        "no_fit",
        {
            "cards": list(state.face_up),
            "reason": reason,
            "fit_existed": bool(example),
            "fit": example[0] if example else None,
        },
    )
    _next_round(decision, None)


def _settle(decision: Decision[StealingHomeState]) -> None:
    state = decision.state
    assert state.first is not None
    move, seat = state.first.move, state.first.seat
    # A tie inside a tiebreaker goes to the first claim: another tiebreaker
    # could repeat forever between players who are equally quick.
    if state.tied and state.tiebreak is None:
        seats = (seat, *state.tied)
        decision.emit("tiebreak", {"seats": list(seats), "cards": list(state.face_up)})
        _next_round(decision, seats)
        return
    kept = next(card for card in state.face_up if card != move.card)
    decision.emit("match_won", {**placement_event_data(move, seat), "kept": kept})
    _next_round(decision, None)


def _next_round(decision: Decision[StealingHomeState], tiebreak: tuple[int, ...] | None) -> None:
    state = decision.state
    if len(state.pile) >= 2:
        data = {
            "cards": list(state.pile[:2]),
            "round": state.round + 1,
            "tiebreak": None if tiebreak is None else list(tiebreak),
            "at": decision.now,
        }
        decision.emit("cards_turned", data)
        return
    _game_over(decision)


def _game_over(decision: Decision[StealingHomeState]) -> None:
    """Most cards collected among the seats still here wins; ties share."""
    state = decision.state
    present = state.present()
    best = max((len(state.collected[s]) for s in present), default=0)
    winners = [s for s in present if len(state.collected[s]) == best]
    scores = [{"seat": s, "cards": len(state.collected[s])} for s in state.seats]
    decision.emit("game_over", {"winners": winners, "scores": scores})


def _seat_change(decision: Decision[StealingHomeState], kind: str, target: int) -> None:
    if decision.state.phase == "over":
        return
    if kind == "seat_joined":
        check_join(target, len(decision.state.present()), MAX_PLAYERS)
    decision.emit(kind, {"seat": target})
    if kind == "seat_left" and len(decision.state.present()) < 2:
        _game_over(decision)
        return
    _maybe_no_fit(decision)


decide = shared.decider(NAME, evolve, {"match": _match, "no_fit": _vote}, _seat_change, _run_timers)
tick = shared.ticker(evolve, _run_timers)
