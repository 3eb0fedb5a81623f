"""Joins, leaves, away seats and timers: the table never waits forever."""

from __future__ import annotations

from typing import Any

import pytest
from memeplay import (
    GAME,
    NOPE,
    SHOOK,
    bet,
    event,
    new_game,
    others,
    picks,
    play,
    started,
)
from partyhost.engine.core import SYSTEM_SEAT, IllegalMove, apply_tick
from partyhost.engine.meme.state import MemeState, Phase


def _system(state: MemeState, kind: str, seat: int, now: float = 0.0) -> MemeState:
    state, _ = play(state, SYSTEM_SEAT, {"type": kind, "seat": seat}, now)
    return state


def _tick(state: MemeState, now: float) -> tuple[MemeState, list[Any]]:
    new_state, events = apply_tick(GAME, state, now)
    assert isinstance(new_state, MemeState)
    return new_state, events


def test_nobody_joins_a_game_in_progress() -> None:
    state = started(3)
    with pytest.raises(IllegalMove) as caught:
        play(state, SYSTEM_SEAT, {"type": "seat_joined", "seat": 3})
    assert caught.value.code == "no_joins_mid_game"
    assert play(state, SYSTEM_SEAT, {"type": "seat_joined", "seat": 1})[1] == []


def test_a_reactor_who_leaves_voids_the_turn_and_the_next_seat_reacts() -> None:
    state = started(4)
    reactor = state.reactor or 0
    a, b, c = others(state)
    state = picks(state, NOPE, {a: NOPE, b: NOPE, c: NOPE})
    state, _ = bet(state, reactor, {a: 3})
    state, events = play(state, SYSTEM_SEAT, {"type": "seat_left", "seat": reactor})
    over = event(events, "turn_over").data
    assert over["void"] == "reactor_left" and over["reaction"] is None
    assert over["payouts"] == []
    assert state.reactor == a and state.phase is Phase.SCENARIO and state.turn == 2
    assert GAME.legal(state, reactor) == []
    with pytest.raises(IllegalMove) as caught:
        play(state, reactor, {"type": "roll"})
    assert caught.value.code == "seat_left"


def test_a_guesser_who_leaves_before_the_reveal_takes_their_guess_along() -> None:
    state = started(4)
    reactor = state.reactor or 0
    a, b, c = others(state)
    state = picks(state, NOPE, {a: NOPE, b: SHOOK})
    state, events = play(state, SYSTEM_SEAT, {"type": "seat_left", "seat": a})
    assert event(events, "guess_withdrawn").data == {"seat": a}
    state, _ = play(state, c, {"type": "guess", "meme": NOPE})
    assert state.phase is Phase.BETTING_1
    (template,) = GAME.legal(state, reactor)
    assert [t["seat"] for t in template["targets"]] == [b, c]


def test_the_last_player_standing_wins_when_everyone_else_leaves() -> None:
    state = started(2)
    state, events = play(state, SYSTEM_SEAT, {"type": "seat_left", "seat": 0})
    assert state.phase is Phase.OVER
    assert event(events, "game_over").data["winners"] == [1]


def test_an_away_reactor_loses_the_turn_after_the_wait() -> None:
    state = started(3, away_wait=10, picking_timer=None)
    reactor = state.reactor or 0
    state = _system(state, "seat_away", reactor, now=100.0)
    assert GAME.deadline(state) == 110.0
    assert _tick(state, 109.0)[1] == []
    state, events = _tick(state, 110.0)
    assert event(events, "turn_over").data["void"] == "reactor_away"
    assert state.reactor != reactor and state.turn == 2


def test_a_bot_or_the_player_coming_back_within_the_wait_keeps_the_turn() -> None:
    state = started(3, away_wait=10, picking_timer=None)
    reactor = state.reactor or 0
    state = _system(state, "seat_away", reactor, now=100.0)
    state, _ = play(state, reactor, {"type": "roll"}, now=105.0)
    state = _system(state, "seat_back", reactor, now=106.0)
    assert state.phase is Phase.PICKING and GAME.deadline(state) is None


def test_an_away_guesser_sits_the_turn_out() -> None:
    state = started(3, away_wait=5)
    reactor = state.reactor or 0
    a, b = others(state)
    state = _system(state, "seat_away", a, now=0.0)
    state = picks(state, SHOOK, {b: SHOOK}, now=1.0)
    assert state.phase is Phase.PICKING and GAME.deadline(state) == 6.0
    state, events = _tick(state, 6.0)
    assert event(events, "sat_out").data == {"seat": a, "reason": "away"}
    assert state.phase is Phase.BETTING_1
    assert GAME.view(state, a)["role"] == "sitting_out"
    state, _ = bet(state, reactor, {b: 1})
    assert state.pending() == (b,)


def test_with_no_wait_away_seats_are_skipped_at_once() -> None:
    state = new_game(3, away_wait=0)
    state = _system(state, "seat_away", 1)
    assert len(state.rolloff[0]) == 1  # the host rolled for the away seat
    state, _ = play(state, 0, {"type": "roll"})
    state, _ = play(state, 2, {"type": "roll"})
    while state.phase is Phase.ROLLOFF:
        for seat in state.pending():
            state, _ = play(state, seat, {"type": "roll"})
    assert state.reactor != 1  # an away reactor's turn is voided on the spot
    assert all(r["reactor"] != 1 or r["void"] == "reactor_away" for r in state.history)


def test_betting_timer_places_the_reactors_minimum_on_a_random_guess() -> None:
    state = started(3, betting_timer=30)
    a, b = others(state)
    state = picks(state, NOPE, {a: NOPE, b: SHOOK}, now=50.0)
    assert GAME.deadline(state) == 80.0
    state, events = _tick(state, 80.0)
    placed = event(events, "reactor_bet").data
    assert placed["auto"] == "timer" and len(placed["bets"]) == 1
    assert placed["bets"][0]["amount"] == 1 and placed["bets"][0]["seat"] in (a, b)
    state, _ = bet(state, a, {a: 2}, now=85.0)
    state, events = _tick(state, 110.0)
    assert event(events, "bet_committed").data == {"seat": b, "auto": "timer"}
    assert payout_of_seat(events, a) == 2


def payout_of_seat(events: list[Any], seat: int) -> int:
    record = event(events, "turn_over").data
    return int(next(p["won"] for p in record["payouts"] if p["seat"] == seat))


def test_picking_timer_rolls_for_the_reactor_and_benches_slow_guessers() -> None:
    state = started(3, picking_timer=20)
    reactor = state.reactor or 0
    a, b = others(state)
    state = _restart_clock(state, 0.0)
    state, events = _tick(state, 20.0)
    assert event(events, "scenario_rolled").data["auto"] == "timer"
    state, _ = play(state, reactor, {"type": "react", "meme": NOPE}, now=25.0)
    state, _ = play(state, a, {"type": "guess", "meme": NOPE}, now=26.0)
    state, events = _tick(state, 40.0)
    assert event(events, "sat_out").data == {"seat": b, "reason": "timer"}
    assert state.phase is Phase.BETTING_1


def test_a_reactor_who_never_picks_loses_the_turn_to_the_picking_timer() -> None:
    state = started(3, picking_timer=20)
    state, _ = play(_restart_clock(state, 0.0), state.reactor or 0, {"type": "roll"}, now=1.0)
    state, events = _tick(state, 21.0)
    assert event(events, "turn_over").data["void"] == "reactor_timer"


def _restart_clock(state: MemeState, at: float) -> MemeState:
    from dataclasses import replace

    return replace(state, phase_started=at)
