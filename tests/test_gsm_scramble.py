"""Scramble: private boards arranged freely, "Game!" checked, wrong calls, match play."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgpack
import pytest
from gsmplay import shipped_deck
from partyhost.engine.core import SYSTEM_SEAT, IllegalMove, apply
from partyhost.engine.gsm.scramble.game import GAME
from partyhost.engine.gsm.scramble.state import ScrambleState
from partyhost.engine.gsm.solver import solve

DECK = shipped_deck()


def start(seats: tuple[int, ...] = (0, 1, 2), **rules: Any) -> ScrambleState:
    return GAME.start(DECK, list(seats), rules, seed=6)


def command(state: ScrambleState, seat: int, **fields: Any) -> tuple[ScrambleState, list[str]]:
    state, events = apply(GAME, state, seat, fields, 1.0)
    return state, [e.kind for e in events]


def arrange(state: ScrambleState, seat: int) -> ScrambleState:
    """Lay out the seat's hand the way the solver found."""
    solution = solve(DECK.table, state.hands[seat], True)
    assert solution is not None
    for spot in solution:
        state, _ = command(
            state, seat, type="place", card=spot.card, x=spot.x, y=spot.y, turned=spot.turned
        )
    return state


def test_each_player_gets_seven_cards_that_can_be_arranged() -> None:
    state = start()
    assert all(len(hand) == 7 for hand in state.hands.values())
    assert all(solve(DECK.table, hand, True) is not None for hand in state.hands.values())
    assert len(state.out_of_play) == 60 - 21
    for seed in range(5):
        dealt = GAME.start(DECK, [0, 1, 2, 3, 4, 5], {"rotate": False}, seed)
        assert all(solve(DECK.table, h, False) is not None for h in dealt.hands.values())


def test_cards_can_be_placed_moved_turned_and_taken_back_freely() -> None:
    state = start()
    a, b = state.hands[0][:2]
    state, kinds = command(state, 0, type="place", card=a, x=0, y=0)
    assert kinds == ["placed"]
    state, _ = command(state, 0, type="place", card=b, x=5, y=5)  # not touching: fine for now
    state, _ = command(state, 0, type="place", card=b, x=1, y=0, turned=True)  # a move
    state, _ = command(state, 0, type="turn", card=b)
    assert [(p.card, p.x, p.y, p.turned) for p in state.boards[0]] == [
        (a, 0, 0, False),
        (b, 1, 0, False),
    ]
    state, kinds = command(state, 0, type="take_back", card=a)
    assert kinds == ["taken_back"]
    assert a in state.hands[0] and len(state.hands[0]) == 6
    with pytest.raises(IllegalMove) as refused:
        command(state, 0, type="place", card=a, x=1, y=0)
    assert refused.value.code == "occupied"
    with pytest.raises(IllegalMove) as refused:
        command(state, 0, type="place", card=state.hands[1][0], x=3, y=3)
    assert refused.value.code == "not_yours"


def test_others_see_only_how_many_cards_each_player_has_placed() -> None:
    state = start()
    card = state.hands[0][0]
    state, events = apply(GAME, state, 0, {"type": "place", "card": card, "x": 2, "y": 3}, 1.0)
    assert events[0].for_seat(0) == {
        "kind": "placed", "seat": 0, "placed": 1, "hand": 6, "card": card, "x": 2, "y": 3,
        "turned": False,
    }  # fmt: skip
    assert events[0].for_seat(1) == {"kind": "placed", "seat": 0, "placed": 1, "hand": 6}
    view = GAME.view(state, 1)
    assert view["board"] == [] and [c["id"] for c in view["hand"]] == list(state.hands[1])
    assert view["scores"][0] == {
        "seat": 0, "placed": 1, "hand": 6, "wins": 0, "away": False, "left": False,
    }  # fmt: skip
    other = dataclasses.replace(
        state,
        hands={**state.hands, 0: state.out_of_play[:6], 2: state.out_of_play[6:13]},
        boards={**state.boards, 0: (dataclasses.replace(state.boards[0][0], x=-4),)},
    )
    assert GAME.view(other, 1) == view
    msgpack.unpackb(msgpack.packb(GAME.view(state, 0)), strict_map_key=True)


def test_a_correct_game_call_wins() -> None:
    state = arrange(start(), 1)
    assert {"type": "call_game"} in GAME.legal(state, 1)
    state, kinds = command(state, 1, type="call_game")
    assert kinds == ["game_called", "match_over"]
    assert state.winners == (1,) and GAME.is_over(state)
    assert state.last is not None and state.last["valid"] and len(state.last["board"]) == 7


def test_a_game_call_with_cards_in_hand_is_refused() -> None:
    with pytest.raises(IllegalMove) as refused:
        command(start(), 0, type="call_game")
    assert refused.value.code == "cards_in_hand"


def test_a_wrong_call_sends_all_the_players_cards_back_to_the_hand() -> None:
    state = start()
    for i, card in enumerate(state.hands[0]):
        state, _ = command(state, 0, type="place", card=card, x=2 * i, y=0)  # not joined up
    state, events = apply(GAME, state, 0, {"type": "call_game"}, 1.0)
    assert [e.kind for e in events] == ["game_called"]
    assert events[0].data["valid"] is False and "one grid" in events[0].data["reason"]
    assert len(state.hands[0]) == 7 and state.boards[0] == () and state.phase == "race"


def test_a_call_on_a_joined_grid_that_breaks_the_rule_is_wrong() -> None:
    state = start()
    for seed in range(50):  # find a straight row of the hand that breaks the rule
        order = state.hands[0][seed % 7 :] + state.hands[0][: seed % 7]
        trial = state
        for i, card in enumerate(order):
            trial, _ = command(trial, 0, type="place", card=card, x=i, y=0, turned=seed > 7)
        trial, events = apply(GAME, trial, 0, {"type": "call_game"}, 1.0)
        if not events[0].data["valid"]:
            assert "would touch" in events[0].data["reason"]
            return
    raise AssertionError("every row obeyed the rule")


def test_best_of_three_deals_a_new_game_until_someone_has_two_wins() -> None:
    state = start(match="best-of-3")
    state = arrange(state, 2)
    state, events = apply(GAME, state, 2, {"type": "call_game"}, 1.0)
    assert [e.kind for e in events] == ["game_called", "dealt"]
    dealt = events[1]
    assert dealt.for_seat(0) == {
        "kind": "dealt",
        "game": 2,
        "void": False,
        "hand": list(state.hands[0]),
    }
    assert "hand" not in (dealt.for_seat(None) or {})
    assert state.game == 2 and state.wins[2] == 1 and all(b == () for b in state.boards.values())
    assert sorted(c for c, _ in GAME.card_locations(state)) == list(range(60))
    state = arrange(state, 2)
    state, kinds = command(state, 2, type="call_game")
    assert kinds == ["game_called", "match_over"] and state.winners == (2,)


def test_when_everyone_is_stuck_the_game_is_void_and_dealt_again() -> None:
    state = start((0, 1))
    state, kinds = command(state, 0, type="stuck")
    assert kinds == ["stuck"]
    state, kinds = command(state, 1, type="stuck")
    assert kinds == ["stuck", "dealt"]
    assert state.game == 2 and state.wins == {0: 0, 1: 0} and state.stuck == frozenset()


def test_a_player_left_alone_wins_the_match() -> None:
    state = start((0, 1))
    state, events = apply(GAME, state, SYSTEM_SEAT, {"type": "seat_left", "seat": 0}, 1.0)
    assert [e.kind for e in events] == ["seat_left", "match_over"] and state.winners == (1,)
