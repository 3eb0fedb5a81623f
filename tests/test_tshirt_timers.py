"""Timers: off by default; on expiry the host acts as the rulebook's spirit suggests."""

from __future__ import annotations

from partyhost.engine.core import apply_tick
from partyhost.engine.tshirt.state import Phase
from tshirtplay import GAME, event, hand, kinds, start, submit, submit_all, system


def test_timers_are_on_by_default_so_nobody_can_hold_up_a_round() -> None:
    assert GAME.deadline(start()) is not None
    assert GAME.view(start(), 1)["deadline"] is not None


def test_timers_can_be_turned_off() -> None:
    state = start(submit_timer=None, judge_timer=None)
    assert GAME.deadline(state) is None
    assert GAME.view(state, 1)["deadline"] is None
    assert apply_tick(GAME, state, 1e9) == (state, [])


def test_submit_timer_starts_with_the_round() -> None:
    state = start(submit_timer=45)
    assert GAME.deadline(state) == 45.0
    assert GAME.view(state, None)["deadline"] == 45.0


def test_a_tick_before_the_deadline_does_nothing() -> None:
    state = start(submit_timer=45)
    assert apply_tick(GAME, state, 44.9) == (state, [])


def test_submit_timer_expiry_sits_out_who_did_not_submit() -> None:
    state = submit(start((0, 1, 2, 3), submit_timer=45), 1)
    state, events = apply_tick(GAME, state, 45.0)
    assert event(events, "timed_out").data == {"timer": "submit", "sat_out": [2, 3]}
    assert state.phase is Phase.JUDGING and len(state.submissions) == 1
    assert GAME.view(state, None)["sat_out"] == [2, 3]
    assert len(hand(state, 2)) == 3


def test_submit_timer_with_nobody_submitted_voids_the_round() -> None:
    state = start((0, 1, 2), submit_timer=45)
    state, events = apply_tick(GAME, state, 50.0)
    assert event(events, "round_void").data["reason"] == "nobody_submitted"
    assert state.judge == 1 and state.phase is Phase.SUBMITTING
    assert GAME.deadline(state) == 95.0


def test_judge_timer_expiry_picks_at_random_and_says_so() -> None:
    picks = set()
    for seed in range(12):
        state = submit_all(start((0, 1, 2, 3), judge_timer=20, seed=seed), now=100.0)
        assert GAME.deadline(state) == 120.0
        state, events = apply_tick(GAME, state, 120.0)
        timed_out = event(events, "timed_out")
        picked = event(events, "picked")
        assert timed_out.data == {"timer": "judge", "index": picked.data["index"]}
        assert picked.data["random"] is True
        assert GAME.view(state, None)["last_round"]["random_pick"] is True
        picks.add(picked.data["winner"])
    assert picks == {1, 2, 3}


def test_the_opening_tick_is_due_at_once_and_deals() -> None:
    state = GAME.start(start().deck, (0, 1, 2), {"submit_timer": 30}, 5)
    assert GAME.deadline(state) == 0.0
    state, events = apply_tick(GAME, state, 1000.0)
    assert kinds(events)[:2] == ["first_judge", "round_started"]
    assert GAME.deadline(state) == 1030.0


def test_a_pause_stops_the_clock() -> None:
    state, _ = system(start((0, 1, 2), submit_timer=30), "seat_away", 2)
    assert state.phase is Phase.PAUSED and GAME.deadline(state) is None
