"""The T-Shirt Game, round by round, as the rulebook and docs/rules.md tell it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from partyhost.engine.core import IllegalMove, apply_tick
from partyhost.engine.tshirt.state import Phase
from tshirtplay import (
    GAME,
    arrange_hot_pile,
    deck_data,
    event,
    give_won,
    hand,
    kinds,
    pick_seat,
    play,
    score_of,
    start,
    submit,
    submit_all,
    win_round,
    won,
)


def test_three_to_ten_players() -> None:
    deck = GAME.build_deck(deck_data())
    for seats in ((0, 1), tuple(range(11))):
        with pytest.raises(IllegalMove) as refused:
            GAME.start(deck, seats, {}, 1)
        assert refused.value.code == "player_count"
    assert GAME.start(deck, tuple(range(10)), {}, 1).phase is Phase.STARTING


def test_options_have_rulebook_defaults_and_bounds() -> None:
    assert GAME.rules_for({}) == {
        "hand_size": 3,
        "target": 3000,
        "submit_timer": 90,
        "judge_timer": 60,
        "first_judge": None,
        "round_results": "until all press a key",
        "friends_take_bots": True,
    }
    for bad in ({"hand_size": 8}, {"target": 100}, {"submit_timer": 5}, {"judge_timer": 601}):
        with pytest.raises(IllegalMove):
            GAME.rules_for(bad)


def test_first_judge_is_a_random_seat_announced_in_an_event() -> None:
    deck = GAME.build_deck(deck_data())
    judges = set()
    for seed in range(20):
        state = GAME.start(deck, (4, 5, 6), {}, seed)
        state, events = apply_tick(GAME, state, 0.0)
        announced = event(events, "first_judge")
        assert announced.data["chosen"] == "random"
        assert state.judge == announced.data["seat"]
        judges.add(state.judge)
    assert judges == {4, 5, 6}


def test_room_can_choose_the_first_judge() -> None:
    state = start((0, 1, 2), first_judge=2)
    assert state.judge == 2
    with pytest.raises(IllegalMove) as refused:
        GAME.start(GAME.build_deck(deck_data()), (0, 1, 2), {"first_judge": 9}, 1)
    assert refused.value.code == "bad_option"


def test_nobody_is_dealt_before_the_opening_tick() -> None:
    state = GAME.start(GAME.build_deck(deck_data()), (0, 1, 2), {}, 3)
    assert GAME.deadline(state) == 0.0
    assert all(not player.hand for player in state.players)
    with pytest.raises(IllegalMove) as refused:
        play(state, 1, {"type": "submit", "card": 0})
    assert refused.value.code == "wrong_phase"


def test_judge_deals_hand_size_to_everyone_but_themselves() -> None:
    state = start((0, 1, 2, 3), hand_size=5)
    assert state.judge == 0
    assert hand(state, 0) == ()
    assert [len(hand(state, seat)) for seat in (1, 2, 3)] == [5, 5, 5]


def test_judge_draws_the_tshirt_card_face_up() -> None:
    state = start()
    assert state.tshirt is not None
    assert GAME.view(state, None)["tshirt"]["picture"].startswith("Shirt ")


def test_every_other_player_submits_one_slogan_face_down() -> None:
    state = start()
    card = hand(state, 1)[0]
    state, events = play(state, 1, {"type": "submit", "card": card})
    submitted = event(events, "submitted")
    assert submitted.data == {"seat": 1}
    assert submitted.for_seat(2) == {"kind": "submitted", "seat": 1}
    text = state.deck.slogans[card]
    assert submitted.for_seat(1) == {"kind": "submitted", "seat": 1, "card": card, "text": text}
    assert card not in hand(state, 1)


def test_judge_cannot_submit() -> None:
    state, _ = win_round(start(), 2)
    assert state.judge == 1 and hand(state, 1)
    with pytest.raises(IllegalMove) as refused:
        play(state, 1, {"type": "submit", "card": hand(state, 1)[0]})
    assert refused.value.code == "judge_cannot_submit"


def test_a_slogan_must_come_from_your_hand() -> None:
    state = start()
    with pytest.raises(IllegalMove) as refused:
        play(state, 1, {"type": "submit", "card": hand(state, 2)[0]})
    assert refused.value.code == "not_in_hand"


def test_only_one_slogan_per_player_per_round() -> None:
    state = submit(start((0, 1, 2, 3)), 1)
    with pytest.raises(IllegalMove) as refused:
        play(state, 1, {"type": "submit", "card": hand(state, 1)[0]})
    assert refused.value.code == "already_submitted"


def test_slogans_are_revealed_shuffled_once_everyone_has_submitted() -> None:
    state = submit(start((0, 1, 2, 3)), 1)
    state = submit(state, 2)
    assert state.phase is Phase.SUBMITTING
    state, events = play(state, 3, {"type": "submit", "card": hand(state, 3)[0]})
    assert state.phase is Phase.JUDGING
    revealed = event(events, "revealed")
    assert [entry.keys() for entry in revealed.data["submissions"]] == [{"index", "text"}] * 3
    assert "order" not in revealed.data


def test_the_shuffle_hides_who_submitted_first() -> None:
    orders = set()
    for seed in range(12):
        state = submit_all(start((0, 1, 2, 3), seed=seed))
        orders.add(tuple(sub.seat for sub in state.submissions))
    assert len(orders) > 1


def test_only_the_judge_picks() -> None:
    state = submit_all(start())
    with pytest.raises(IllegalMove) as refused:
        play(state, 1, {"type": "pick", "index": 0})
    assert refused.value.code == "not_your_turn"


def test_picking_before_the_reveal_is_the_wrong_phase() -> None:
    with pytest.raises(IllegalMove) as refused:
        play(start(), 0, {"type": "pick", "index": 0})
    assert refused.value.code == "wrong_phase"


def test_pick_must_name_a_revealed_slogan() -> None:
    state = submit_all(start())
    for index in (2, -1):
        with pytest.raises(IllegalMove) as refused:
            play(state, 0, {"type": "pick", "index": index})
        assert refused.value.code == "bad_index"


def test_a_pick_naming_an_older_version_is_stale() -> None:
    state = submit_all(start())
    with pytest.raises(IllegalMove) as refused:
        play(state, 0, {"type": "pick", "index": 0, "v": state.version - 1})
    assert refused.value.code == "stale"
    play(state, 0, {"type": "pick", "index": 0, "v": state.version})


def test_authors_are_revealed_after_the_pick() -> None:
    state = submit_all(start())
    state, events = pick_seat(state, 2)
    picked = event(events, "picked")
    assert picked.data["winner"] == 2
    assert {author["seat"] for author in picked.data["authors"]} == {1, 2}
    assert GAME.view(state, None)["last_round"]["winner"] == 2


def test_winner_draws_the_top_hot_or_not_card_and_scores_at_once() -> None:
    state = arrange_hot_pile(start(), 2)
    state, events = win_round(state, 1)
    drew = event(events, "drew")
    assert drew.data["card"] == 2 and drew.data["points"] == 300
    assert won(state, 1) == (2,)
    assert score_of(state, 1) == 300


def test_not_cards_can_cost_points() -> None:
    hot = [{"points": -200, "verdict": "Not!"}] + [
        {"points": 100, "verdict": f"Hot {i}"} for i in range(4)
    ]
    state = arrange_hot_pile(start(deck=GAME.build_deck(deck_data(hot=hot))), 0)
    state, _ = win_round(state, 2)
    assert score_of(state, 2) == -200


def test_played_slogans_and_tshirt_go_to_their_discard_piles() -> None:
    state = submit_all(start())
    played = {sub.card for sub in state.submissions}
    shirt = state.tshirt
    state, _ = pick_seat(state, 1)
    assert set(state.slogan_discard) == played
    assert state.tshirt_discard == (shirt,)


def test_judge_passes_clockwise_in_seat_order() -> None:
    state = start((5, 2, 9), first_judge=2)
    judges = [state.judge]
    for _ in range(3):
        state, _ = win_round(state, next(s for s in (5, 2, 9) if s != state.judge))
        judges.append(state.judge)
    assert judges == [2, 9, 5, 2]


def test_new_judge_refills_every_other_hand_and_keeps_their_own() -> None:
    state = start((0, 1, 2, 3))
    state = submit_all(state)
    judge_hand_before = hand(state, 1)
    state, _ = pick_seat(state, 2)
    assert state.judge == 1
    assert hand(state, 1) == judge_hand_before and len(judge_hand_before) == 2
    assert [len(hand(state, seat)) for seat in (0, 2, 3)] == [3, 3, 3]


def test_empty_slogan_pile_is_refilled_from_the_shuffled_discard() -> None:
    state = submit_all(start())
    state = replace(state, slogan_pile=(), slogan_discard=state.slogan_pile)
    discarded = len(state.slogan_discard) + len(state.submissions)
    state, events = pick_seat(state, 1)
    reshuffled = event(events, "reshuffled")
    assert reshuffled.data == {"pile": "slogans", "count": discarded}
    assert state.slogan_discard == ()
    assert len(state.slogan_pile) + sum(len(p.hand) for p in state.players) == 40


def test_empty_tshirt_pile_is_refilled_from_its_discard() -> None:
    state = submit_all(start())
    state = replace(state, tshirt_pile=(), tshirt_discard=state.tshirt_pile)
    state, events = pick_seat(state, 1)
    assert event(events, "reshuffled").data["pile"] == "tshirts"
    assert state.tshirt is not None and len(state.tshirt_pile) == 4


def test_empty_hot_or_not_deck_ends_game_highest_wins() -> None:
    state = give_won(start(), 2, 4)
    state = give_won(state, 1, 0)
    state = replace(state, hot_pile=())
    state, events = win_round(state, 1)
    assert state.phase is Phase.OVER
    assert event(events, "game_over").data["winners"] == [2]
    assert state.end_reason == "hot_or_not_empty"


def test_empty_hot_or_not_deck_ties_share_the_win() -> None:
    state = give_won(start(), 1, 2)
    state = give_won(state, 2, 0, 1)
    state = replace(state, hot_pile=())
    assert score_of(state, 1) == score_of(state, 2) == 300
    state, _ = win_round(state, 1)
    assert state.winners == (1, 2)


def test_reaching_target_wins_immediately() -> None:
    hot = [{"points": 500, "verdict": f"Hot {i}"} for i in range(5)]
    state = start(deck=GAME.build_deck(deck_data(hot=hot)), target=500)
    state, events = win_round(state, 2)
    assert state.phase is Phase.OVER
    assert state.winners == (2,) and state.end_reason == "target"
    assert kinds(events)[-1] == "game_over"


def test_the_game_over_view_recaps_every_round_with_its_shirt_and_winner() -> None:
    hot = [{"points": 250, "verdict": f"Hot {i}"} for i in range(5)]
    state = start(deck=GAME.build_deck(deck_data(hot=hot)), target=500)
    shirts = []
    for winner in (2, 2):  # seat 0 judges round 1, seat 1 round 2
        shirts.append(state.deck.tshirts[state.tshirt or 0].picture)
        assert GAME.view(state, 1)["recap"] == []  # only once the game is over
        state, _ = win_round(state, winner)
    assert state.phase is Phase.OVER
    recap = GAME.view(state, 0)["recap"]
    assert [(r["round"], r["tshirt"], r["winner"], r["points"]) for r in recap] == [
        (1, shirts[0], 2, 250),
        (2, shirts[1], 2, 250),
    ]
    assert all(isinstance(r["slogan"], str) and r["void"] is None for r in recap)


def test_commands_after_the_game_are_refused() -> None:
    hot = [{"points": 500, "verdict": f"Hot {i}"} for i in range(5)]
    state = start(deck=GAME.build_deck(deck_data(hot=hot)), target=500)
    state, _ = win_round(state, 2)
    with pytest.raises(IllegalMove) as refused:
        play(state, 1, {"type": "submit", "card": 0})
    assert refused.value.code == "game_over"
    assert GAME.legal(state, 1) == []


def test_unknown_commands_are_refused_with_a_code() -> None:
    with pytest.raises(IllegalMove) as refused:
        play(start(), 1, {"type": "dance"})
    assert refused.value.code == "unknown_command"
    with pytest.raises(IllegalMove) as refused:
        play(start(), 1, {"type": "submit", "card": "three"})
    assert refused.value.code == "bad_command"


def test_when_every_slogan_is_held_hands_run_short_and_empty_hands_sit_out() -> None:
    state = start(tuple(range(10)), hand_size=7)
    assert [len(hand(state, seat)) for seat in range(1, 10)] == [7, 7, 7, 7, 7, 5, 0, 0, 0]
    assert GAME.view(state, None)["waiting_for"] == [1, 2, 3, 4, 5, 6]
    assert GAME.legal(state, 8) == []
