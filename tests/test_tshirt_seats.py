"""Players joining, leaving, going away and coming back in the middle of a game."""

from __future__ import annotations

import pytest
from partyhost.engine.core import SYSTEM_SEAT, IllegalMove
from partyhost.engine.tshirt.state import Phase, Presence, player_of
from tshirtplay import (
    GAME,
    event,
    hand,
    index_of,
    kinds,
    pick_seat,
    play,
    score_of,
    start,
    submit,
    submit_all,
    system,
    win_round,
)


def test_a_player_joining_mid_game_is_dealt_a_hand() -> None:
    state, events = system(start(), "seat_joined", 7)
    assert kinds(events) == ["seat_joined", "dealt"]
    assert len(hand(state, 7)) == 3
    assert event(events, "dealt").for_seat(0) == {"kind": "dealt", "seat": 7, "count": 3}


def test_a_joiner_plays_in_the_current_round_and_enters_the_judge_rotation() -> None:
    state, _ = system(start((0, 1, 2)), "seat_joined", 7)
    state = submit(submit(state, 1), 2)
    assert state.phase is Phase.SUBMITTING and GAME.view(state, None)["waiting_for"] == [7]
    judges = []
    for _ in range(4):
        state, _ = win_round(state, next(s for s in (0, 1, 2, 7) if s != state.judge))
        judges.append(state.judge)
    assert judges == [1, 2, 7, 0]


def test_a_full_table_refuses_joiners() -> None:
    state = start(tuple(range(10)))
    with pytest.raises(IllegalMove) as refused:
        system(state, "seat_joined", 10)
    assert refused.value.code == "table_full"
    with pytest.raises(IllegalMove) as refused:
        system(state, "seat_joined", 3)
    assert refused.value.code == "already_seated"


def test_judge_leaving_voids_round_and_returns_submissions() -> None:
    state = start((0, 1, 2, 3))
    hands_before = {seat: set(hand(state, seat)) for seat in (1, 2, 3)}
    state = submit(submit(state, 1), 2)
    state, events = system(state, "seat_left", 0)
    void = event(events, "round_void")
    assert void.data["reason"] == "judge_left" and void.data["returned"] == [1, 2]
    assert {seat: set(hand(state, seat)) for seat in (1, 2, 3)} == hands_before
    assert state.judge == 1 and state.phase is Phase.SUBMITTING


def test_judge_leaving_after_the_reveal_also_voids_the_round() -> None:
    state = submit_all(start((0, 1, 2, 3)))
    state, events = system(state, "seat_left", 0)
    assert event(events, "round_void").data["returned"] == [1, 2, 3]
    assert all(len(hand(state, seat)) == 3 for seat in (2, 3))


def test_an_away_judge_voids_the_round() -> None:
    state = submit(start((0, 1, 2, 3)), 2)
    state, events = system(state, "seat_away", 0)
    assert event(events, "round_void").data["reason"] == "judge_away"
    assert state.judge == 1 and len(hand(state, 0)) == 3


def test_a_leaving_submitter_takes_back_a_face_down_slogan_to_the_discard() -> None:
    state = start((0, 1, 2, 3, 4))
    held = set(hand(state, 1))
    state = submit(state, 1)
    state, events = system(state, "seat_left", 1)
    assert kinds(events)[:2] == ["submission_withdrawn", "seat_left"]
    assert held <= set(state.slogan_discard)
    assert state.submissions == ()


def test_a_revealed_slogan_stays_when_its_author_leaves_and_can_still_win() -> None:
    state = submit_all(start((0, 1, 2, 3, 4)))
    state, _ = system(state, "seat_left", 1)
    assert len(state.submissions) == 4 and state.phase is Phase.JUDGING
    before = len(state.hot_pile)
    state, events = pick_seat(state, 1)
    assert event(events, "picked").data["winner"] == 1
    assert "drew" not in kinds(events) and len(state.hot_pile) == before
    assert score_of(state, 1) == 0


def test_an_away_submitter_is_not_waited_for() -> None:
    state = submit(start((0, 1, 2, 3)), 1)
    state = submit(state, 2)
    state, events = system(state, "seat_away", 3)
    assert "revealed" in kinds(events)
    assert state.phase is Phase.JUDGING and len(state.submissions) == 2


def test_a_returning_player_is_waited_for_again() -> None:
    state, _ = system(start((0, 1, 2, 3, 4)), "seat_away", 3)
    state = submit(submit(state, 1), 2)
    assert GAME.view(state, None)["waiting_for"] == [4]
    state, _ = system(state, "seat_back", 3)
    assert GAME.view(state, None)["waiting_for"] == [3, 4]


def test_fewer_than_three_active_players_pause_the_game() -> None:
    state = submit(start((0, 1, 2)), 1)
    state, events = system(state, "seat_away", 2)
    assert kinds(events)[-2:] == ["round_void", "paused"]
    assert state.phase is Phase.PAUSED
    assert len(hand(state, 1)) == 3
    with pytest.raises(IllegalMove) as refused:
        play(state, 1, {"type": "submit", "card": hand(state, 1)[0]})
    assert refused.value.code == "wrong_phase"


def test_a_paused_game_resumes_with_the_same_judge_when_enough_return() -> None:
    state, _ = system(start((0, 1, 2)), "seat_away", 2)
    state, events = system(state, "seat_back", 2)
    assert kinds(events)[:3] == ["seat_back", "resumed", "round_started"]
    assert state.phase is Phase.SUBMITTING and state.judge == 0 and state.round == 2


def test_a_paused_game_resumes_when_someone_joins() -> None:
    state, _ = system(start((0, 1, 2)), "seat_left", 1)
    assert state.phase is Phase.PAUSED
    state, _ = system(state, "seat_joined", 5)
    assert state.phase is Phase.SUBMITTING and len(hand(state, 5)) == 3


def test_a_player_who_left_can_take_their_seat_again() -> None:
    state = start((0, 1, 2, 3))
    state, _ = win_round(state, 3)
    state, _ = system(state, "seat_left", 3)
    assert hand(state, 3) == ()
    state, _ = system(state, "seat_joined", 3)
    player = player_of(state, 3)
    assert player is not None and player.presence is Presence.ACTIVE
    assert len(player.hand) == 3 and len(player.won) == 1


def test_a_seat_that_left_cannot_play_or_be_stolen_from() -> None:
    state = start((0, 1, 2, 3))
    state, _ = win_round(state, 3)
    state, _ = system(state, "seat_left", 3)
    with pytest.raises(IllegalMove) as refused:
        play(state, 3, {"type": "submit", "card": 0})
    assert refused.value.code == "not_seated"
    assert GAME.view(state, 3)["legal"] == []


def test_system_commands_are_checked() -> None:
    state = start()
    cases = [
        ({"type": "seat_left", "seat": 9}, "not_seated"),
        ({"type": "seat_back", "seat": 1}, "not_away"),
        ({"type": "seat_away", "seat": 9}, "not_active"),
        ({"type": "seat_joined", "seat": -3}, "bad_command"),
        ({"type": "seat_moved", "seat": 1}, "unknown_command"),
        ({"type": "seat_left"}, "bad_command"),
    ]
    for command, code in cases:
        with pytest.raises(IllegalMove) as refused:
            play(state, SYSTEM_SEAT, command)
        assert refused.value.code == code, command


def test_the_revealed_index_of_a_leaver_does_not_move() -> None:
    state = submit_all(start((0, 1, 2, 3, 4)))
    where = index_of(state, 2)
    state, _ = system(state, "seat_left", 1)
    assert index_of(state, 2) == where
