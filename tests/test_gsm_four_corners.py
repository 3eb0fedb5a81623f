"""Four Corners: axes fixed by the first placement, line ends, take-backs, stalls."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from gsmplay import shipped_deck
from partyhost.engine.core import SYSTEM_SEAT, IllegalMove, apply, apply_tick
from partyhost.engine.gsm.four_corners.game import GAME
from partyhost.engine.gsm.four_corners.state import FourCornersState, end_cards, open_slots
from partyhost.engine.gsm.placement import Placement, fits, placement_clash

DECK = shipped_deck()


def start(**rules: Any) -> FourCornersState:
    state = GAME.start(DECK, [0, 1], rules, seed=4)
    state, _ = apply_tick(GAME, state, 0.0)
    return state


def place_at(
    state: FourCornersState, seat: int, slot: tuple[int, int], now: float = 1.0
) -> tuple[FourCornersState, list[str]]:
    options = [
        f for f in fits(DECK, state.board, state.hands[seat], True) if (f["x"], f["y"]) == slot
    ]
    assert options, f"nothing of seat {seat} fits at {slot}"
    state, events = apply(GAME, state, seat, {"type": "place", **options[0]}, now)
    return state, [e.kind for e in events]


def give(state: FourCornersState, seat: int, slot: tuple[int, int]) -> FourCornersState:
    """Swap a card that fits at ``slot`` into ``seat``'s hand from out of play."""
    card = next(c for c in state.out_of_play if fits(DECK, state.board, [c], True, [slot]))
    out = (*[c for c in state.out_of_play if c != card], state.hands[seat][0])
    hand = (card, *state.hands[seat][1:])
    return dataclasses.replace(state, hands={**state.hands, seat: hand}, out_of_play=out)


def test_setup_deals_ten_each_and_one_middle_card() -> None:
    state = start()
    assert [len(state.hands[s]) for s in (0, 1)] == [10, 10]
    assert state.board == (Placement(state.board[0].card, 0, 0),)
    assert len(state.out_of_play) == 39


def test_the_first_placement_beside_the_middle_card_fixes_both_axes() -> None:
    state = give(start(), 0, (1, 0))
    assert open_slots(state, 0) == open_slots(state, 1) == [(1, 0), (-1, 0), (0, 1), (0, -1)]
    state, kinds = place_at(state, 0, (1, 0))
    assert kinds == ["card_placed"]
    assert state.axes == {0: "h", 1: "v"}
    assert open_slots(state, 0) == [(2, 0), (-1, 0)]
    assert open_slots(state, 1) == [(0, 1), (0, -1)]
    card = state.hands[1][0]
    with pytest.raises(IllegalMove) as refused:
        apply(GAME, state, 1, {"type": "place", "card": card, "x": -1, "y": 0}, 2.0)
    assert refused.value.code == "not_your_line"


def test_vertical_first_placement_gives_the_other_player_the_horizontal_line() -> None:
    state, _ = place_at(give(start(), 1, (0, -1)), 1, (0, -1))
    assert state.axes == {1: "v", 0: "h"}


def test_each_player_builds_only_at_either_end_of_their_own_line() -> None:
    state, _ = place_at(give(start(), 0, (1, 0)), 0, (1, 0))
    card = state.hands[0][0]
    for x, y in ((3, 0), (1, 1), (0, 1)):
        with pytest.raises(IllegalMove) as refused:
            apply(GAME, state, 0, {"type": "place", "card": card, "x": x, "y": y}, 2.0)
        assert refused.value.code == "not_your_line"


def test_cards_of_the_two_lines_touching_at_a_corner_must_obey_the_rule() -> None:
    state, _ = place_at(give(start(), 0, (1, 0)), 0, (1, 0))
    # a card that fits below the middle card alone but clashes with (1, 0) at the corner
    middle_only = [state.board[0]]
    card = next(
        c
        for c in state.out_of_play
        if placement_clash(DECK, middle_only, Placement(c, 0, 1)) is None
        and placement_clash(DECK, state.board, Placement(c, 0, 1)) is not None
    )
    state = dataclasses.replace(state, hands={**state.hands, 1: (card, *state.hands[1][1:])})
    with pytest.raises(IllegalMove) as refused:
        apply(GAME, state, 1, {"type": "place", "card": card, "x": 0, "y": 1}, 2.0)
    assert refused.value.code == "breaks_rule"


def test_a_player_may_take_back_an_end_card_of_their_line_but_never_the_middle() -> None:
    state, _ = place_at(give(start(), 0, (1, 0)), 0, (1, 0))
    state, _ = place_at(give(state, 0, (2, 0)), 0, (2, 0))
    inner, outer = state.board[1].card, state.board[2].card
    assert end_cards(state, 0) == [outer]
    for card in (inner, state.board[0].card):
        with pytest.raises(IllegalMove) as refused:
            apply(GAME, state, 0, {"type": "take_back", "card": card}, 3.0)
        assert refused.value.code == "not_an_end"
    state, events = apply(GAME, state, 0, {"type": "take_back", "card": outer}, 3.0)
    assert [e.kind for e in events] == ["taken_back"]
    assert outer in state.hands[0] and len(state.hands[0]) == 9
    assert end_cards(state, 1) == []


def test_the_first_player_out_of_cards_wins() -> None:
    state = give(start(), 0, (1, 0))
    state = dataclasses.replace(state, hands={**state.hands, 0: state.hands[0][:1]})
    state, kinds = place_at(state, 0, (1, 0))
    assert kinds == ["card_placed", "game_over"]
    assert state.winners == (0,)


def test_the_stall_timer_gives_the_win_to_fewer_cards_and_ties_share() -> None:
    state = start()
    assert GAME.deadline(state) == 120.0
    state, events = apply_tick(GAME, state, 120.0)
    assert [e.kind for e in events] == ["game_over"]
    assert state.winners == (0, 1)
    state, _ = place_at(give(start(), 0, (1, 0)), 0, (1, 0), now=30.0)
    assert GAME.deadline(state) == 150.0
    state, _ = apply_tick(GAME, state, 150.0)
    assert state.winners == (0,)


def test_taking_back_and_placing_again_does_not_restart_the_stall_clock() -> None:
    state, _ = place_at(give(start(), 0, (1, 0)), 0, (1, 0), now=10.0)
    card = state.board[1].card
    state, _ = apply(GAME, state, 0, {"type": "take_back", "card": card}, 20.0)
    state, _ = apply(GAME, state, 0, {"type": "place", "card": card, "x": 1, "y": 0}, 30.0)
    assert GAME.deadline(state) == 130.0


def test_when_both_players_say_stuck_the_game_ends_as_a_stall() -> None:
    state = start(stall_seconds=None)
    assert GAME.deadline(state) is None
    state, _ = apply(GAME, state, 0, {"type": "stuck"}, 1.0)
    state, _ = place_at(give(state, 1, (0, 1)), 1, (0, 1), now=2.0)
    assert state.stuck == frozenset()  # a placement clears the votes
    state, _ = apply(GAME, state, 0, {"type": "stuck"}, 3.0)
    state, events = apply(GAME, state, 1, {"type": "stuck"}, 4.0)
    assert [e.kind for e in events] == ["stuck", "game_over"]
    assert state.winners == (1,)


def test_an_opponent_leaving_hands_the_win_to_the_other_player() -> None:
    state, events = apply(GAME, start(), SYSTEM_SEAT, {"type": "seat_left", "seat": 1}, 1.0)
    assert [e.kind for e in events] == ["seat_left", "game_over"]
    assert state.winners == (0,)


def test_view_shows_axes_and_legal_line_ends_but_not_the_other_hand() -> None:
    state, _ = place_at(give(start(), 0, (1, 0)), 0, (1, 0))
    view = GAME.view(state, 1)
    assert view["axes"] == [{"seat": 0, "axis": "h"}, {"seat": 1, "axis": "v"}]
    assert view["legal"][0]["slots"] == [[0, 1], [0, -1]]
    assert [c["id"] for c in view["hand"]] == list(state.hands[1])
    swapped = dataclasses.replace(
        state,
        hands={**state.hands, 0: state.out_of_play[:9]},
        out_of_play=(*state.hands[0], *state.out_of_play[9:]),
    )
    assert GAME.view(swapped, 1) == view
