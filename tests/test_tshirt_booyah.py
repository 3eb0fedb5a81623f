"""The Booyah card: keep it for its printed points, or steal a random card with it."""

from __future__ import annotations

from typing import Any

import pytest
from partyhost.engine.core import Event, IllegalMove, apply_tick
from partyhost.engine.rng import Rng
from partyhost.engine.tshirt.state import Phase, TShirtState
from tshirtplay import (
    BOOYAH,
    GAME,
    arrange_hot_pile,
    booyah_deck,
    event,
    give_won,
    kinds,
    play,
    score_of,
    start,
    system,
    win_round,
    won,
)


def _booyah_drawn_by(
    winner: int, *, others_own: dict[int, tuple[int, ...]], **rules: Any
) -> tuple[TShirtState, list[Event]]:
    """Seat ``winner`` wins a round and draws the Booyah card; others own these cards."""
    state = start((0, 1, 2, 3), deck=booyah_deck(), **rules)
    for seat, cards in others_own.items():
        state = give_won(state, seat, *cards)
    state = arrange_hot_pile(state, BOOYAH)
    return win_round(state, winner)


def test_booyah_first_card_of_game_is_kept() -> None:
    state, events = _booyah_drawn_by(1, others_own={})
    kept = event(events, "booyah_kept")
    assert kept.data == {"seat": 1, "card": BOOYAH, "points": 400, "auto": "nobody_to_steal_from"}
    assert won(state, 1) == (BOOYAH,)
    assert score_of(state, 1) == 400
    assert state.phase is Phase.SUBMITTING


def test_booyah_with_nobody_to_steal_from_only_keep() -> None:
    state, events = _booyah_drawn_by(1, others_own={1: (0,)})
    assert "booyah_pending" not in kinds(events)
    assert won(state, 1) == (0, BOOYAH)


def test_booyah_offers_keep_or_steal_from_each_owner() -> None:
    state, events = _booyah_drawn_by(1, others_own={2: (0,), 3: (1, 2)})
    assert state.phase is Phase.BOOYAH
    assert event(events, "booyah_pending").data["victims"] == [2, 3]
    assert GAME.legal(state, 1) == [
        {"type": "booyah", "choice": "keep"},
        {"type": "booyah", "choice": "steal", "victim": 2},
        {"type": "booyah", "choice": "steal", "victim": 3},
    ]
    assert GAME.legal(state, 2) == []
    assert GAME.view(state, 3)["booyah"]["victims"] == [2, 3]


def test_booyah_keep_scores_its_printed_points_as_a_plain_card() -> None:
    state, _ = _booyah_drawn_by(1, others_own={2: (0,)})
    state, events = play(state, 1, {"type": "booyah", "choice": "keep"})
    assert event(events, "booyah_kept").data["auto"] is None
    assert score_of(state, 1) == 400
    assert BOOYAH in won(state, 1) and BOOYAH not in state.hot_pile
    assert state.phase is Phase.SUBMITTING


def test_booyah_steal_moves_random_card_and_goes_to_bottom() -> None:
    stolen = set()
    for seed in range(16):
        state, _ = _booyah_drawn_by(1, others_own={3: (0, 4)}, seed=seed)
        state, events = play(state, 1, {"type": "booyah", "choice": "steal", "victim": 3})
        card = event(events, "stole").data["card"]
        stolen.add(card)
        assert won(state, 1) == (card,)
        assert won(state, 3) == tuple(c for c in (0, 4) if c != card)
        assert state.hot_pile[-1] == BOOYAH
        assert score_of(state, 1) == (100 if card == 0 else 500)
    assert stolen == {0, 4}


def test_booyah_steal_needs_a_victim_with_cards() -> None:
    state, _ = _booyah_drawn_by(1, others_own={3: (0,)})
    with pytest.raises(IllegalMove) as refused:
        play(state, 1, {"type": "booyah", "choice": "steal", "victim": 2})
    assert refused.value.code == "no_cards_to_steal"
    for victim in (1, 42):
        with pytest.raises(IllegalMove) as refused:
            play(state, 1, {"type": "booyah", "choice": "steal", "victim": victim})
        assert refused.value.code == "bad_victim"


def test_booyah_only_the_drawer_decides() -> None:
    state, _ = _booyah_drawn_by(1, others_own={3: (0,)})
    with pytest.raises(IllegalMove) as refused:
        play(state, 3, {"type": "booyah", "choice": "keep"})
    assert refused.value.code == "not_your_turn"
    with pytest.raises(IllegalMove) as refused:
        play(state, 1, {"type": "booyah", "choice": "maybe"})
    assert refused.value.code == "bad_command"


def test_booyah_choice_outside_the_booyah_phase_is_refused() -> None:
    with pytest.raises(IllegalMove) as refused:
        play(start(), 1, {"type": "booyah", "choice": "keep"})
    assert refused.value.code == "wrong_phase"


def test_booyah_steal_that_reaches_the_target_wins() -> None:
    state, _ = _booyah_drawn_by(1, others_own={1: (4,), 3: (3,)}, target=900)
    state, events = play(state, 1, {"type": "booyah", "choice": "steal", "victim": 3})
    assert score_of(state, 1) == 900
    assert state.phase is Phase.OVER and state.winners == (1,)
    assert kinds(events)[-1] == "game_over"


def test_booyah_keep_that_reaches_the_target_wins() -> None:
    state, _ = _booyah_drawn_by(1, others_own={1: (0,), 2: (1,)}, target=500)
    state, _ = play(state, 1, {"type": "booyah", "choice": "keep"})
    assert state.winners == (1,)


def test_booyah_timer_expiry_keeps_the_card() -> None:
    state, _ = _booyah_drawn_by(1, others_own={2: (0,)}, judge_timer=30)
    assert GAME.deadline(state) == 30.0
    state, events = apply_tick(GAME, state, 30.0)
    assert event(events, "timed_out").data == {"timer": "booyah"}
    assert event(events, "booyah_kept").data["auto"] == "timer"
    assert won(state, 1) == (BOOYAH,)


def test_booyah_drawer_going_away_keeps_the_card() -> None:
    state, _ = _booyah_drawn_by(1, others_own={2: (0,)})
    state, events = system(state, "seat_away", 1)
    assert event(events, "booyah_kept").data["auto"] == "away"
    assert won(state, 1) == (BOOYAH,)


def test_booyah_drawer_leaving_puts_it_at_the_bottom() -> None:
    state, _ = _booyah_drawn_by(1, others_own={2: (0,)})
    state, events = system(state, "seat_left", 1)
    assert event(events, "booyah_returned").data["reason"] == "drawer_left"
    assert state.hot_pile[-1] == BOOYAH and won(state, 1) == ()


def test_booyah_last_victim_leaving_leaves_only_keep() -> None:
    state, _ = _booyah_drawn_by(1, others_own={2: (0,)})
    state, events = system(state, "seat_left", 2)
    assert event(events, "booyah_kept").data["auto"] == "nobody_to_steal_from"


def test_booyah_round_result_shows_the_steal() -> None:
    state, _ = _booyah_drawn_by(1, others_own={3: (4,)})
    state, _ = play(state, 1, {"type": "booyah", "choice": "steal", "victim": 3})
    result = GAME.view(state, None)["last_round"]
    assert result["booyah"]["choice"] == "steal" and result["booyah"]["victim"] == 3
    assert result["booyah"]["stolen"]["points"] == 500 and result["points"] == 500


def test_bot_steals_when_the_best_average_beats_keeping() -> None:
    state, _ = _booyah_drawn_by(1, others_own={2: (4,), 3: (0, 3)})
    command = GAME.bot_command(GAME.view(state, 1), Rng(1), 0.0)
    assert command == {"type": "booyah", "choice": "steal", "victim": 2}


def test_bot_keeps_when_no_average_beats_keeping() -> None:
    state, _ = _booyah_drawn_by(1, others_own={2: (0, 1), 3: (3,)})
    command = GAME.bot_command(GAME.view(state, 1), Rng(1), 0.0)
    assert command == {"type": "booyah", "choice": "keep"}
