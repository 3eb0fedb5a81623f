"""Gridiron: place legally on your turn; draw only when nothing fits; first out wins."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from gsmplay import shipped_deck
from partyhost.engine.core import SYSTEM_SEAT, IllegalMove, apply
from partyhost.engine.gsm.gridiron.game import GAME
from partyhost.engine.gsm.gridiron.state import GridironState
from partyhost.engine.gsm.placement import Placement, fits

DECK = shipped_deck()


def start(seats: tuple[int, ...] = (0, 1, 2), **rules: Any) -> GridironState:
    return GAME.start(DECK, list(seats), {"first_seat": seats[0], **rules}, seed=3)


def misfits(state: GridironState) -> list[int]:
    """Cards that fit nowhere on the current board."""
    placed = {p.card for p in state.board}
    return [c for c in range(60) if c not in placed and not fits(DECK, state.board, [c], True)]


def stuck_hands(state: GridironState, sizes: dict[int, int], pile: int) -> GridironState:
    """Give each seat only cards that fit nowhere, and a pile of ``pile`` cards."""
    bad = misfits(state)
    hands, used = {}, 0
    for seat in state.seats:
        hands[seat] = tuple(bad[used : used + sizes[seat]])
        used += sizes[seat]
    held = {c for hand in hands.values() for c in hand} | {p.card for p in state.board}
    rest = [c for c in range(60) if c not in held]
    return dataclasses.replace(
        state, hands=hands, pile=tuple(rest[:pile]), out_of_play=tuple(rest[pile:])
    )


def place(state: GridironState, seat: int) -> tuple[GridironState, list[str]]:
    move = fits(DECK, state.board, state.hands[seat], True)[0]
    state, events = apply(GAME, state, seat, {"type": "place", **move}, 1.0)
    return state, [e.kind for e in events]


def test_setup_deals_seven_each_and_one_middle_card() -> None:
    state = GAME.start(DECK, [0, 1, 2], {}, seed=1)
    assert all(len(hand) == 7 for hand in state.hands.values())
    assert state.board == (Placement(state.board[0].card, 0, 0),)
    assert len(state.pile) == 60 - 21 - 1
    assert state.turn in (0, 1, 2)
    assert start().turn == 0 and start((4, 5)).turn == 4
    assert GAME.start(DECK, [0, 1], {"first_seat": 9}, seed=1).turn in (0, 1)


def test_placing_a_card_legally_passes_the_turn() -> None:
    state, kinds = place(start(), 0)
    assert kinds == ["card_placed", "turn"]
    assert state.turn == 1 and len(state.hands[0]) == 6 and len(state.board) == 2


def test_only_the_player_on_turn_may_act() -> None:
    with pytest.raises(IllegalMove) as refused:
        place(start(), 1)
    assert refused.value.code == "not_your_turn"


def test_a_placement_that_breaks_the_rule_is_refused_with_the_reason() -> None:
    state = start()
    for card in state.hands[0]:
        for slot in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            move = {"type": "place", "card": card, "x": slot[0], "y": slot[1], "turned": False}
            try:
                apply(GAME, state, 0, move, 1.0)
            except IllegalMove as refused:
                assert refused.code == "breaks_rule"
                assert "would touch" in refused.message
                return
    raise AssertionError("every card fitted everywhere")


def test_drawing_is_refused_while_a_card_fits() -> None:
    state = start()
    assert GAME.legal(state, 0)[0]["type"] == "place"
    with pytest.raises(IllegalMove) as refused:
        apply(GAME, state, 0, {"type": "draw"}, 1.0)
    assert refused.value.code == "card_fits"


def test_when_nothing_fits_the_player_draws_one_card_and_the_turn_passes() -> None:
    state = stuck_hands(start(), {0: 2, 1: 2, 2: 2}, pile=5)
    assert GAME.legal(state, 0) == [{"type": "draw", "v": state.version}]
    top = state.pile[0]
    state, events = apply(GAME, state, 0, {"type": "draw"}, 1.0)
    assert [e.kind for e in events] == ["card_drawn", "turn"]
    assert state.hands[0][-1] == top and state.turn == 1
    drawn = events[0]
    assert drawn.for_seat(0) is not None and drawn.for_seat(0)["card"] == top  # type: ignore[index]
    assert "card" not in (drawn.for_seat(1) or {}) and "card" not in (drawn.for_seat(None) or {})


def test_with_an_empty_pile_and_no_fit_the_player_passes() -> None:
    state = stuck_hands(start(), {0: 2, 1: 2, 2: 2}, pile=0)
    assert GAME.legal(state, 0) == [{"type": "pass", "v": state.version}]
    with pytest.raises(IllegalMove):
        apply(GAME, state, 0, {"type": "draw"}, 1.0)
    state, events = apply(GAME, state, 0, {"type": "pass"}, 1.0)
    assert [e.kind for e in events] == ["passed", "turn"]


def test_first_player_out_of_cards_wins() -> None:
    state = start()
    state = dataclasses.replace(state, hands={**state.hands, 0: state.hands[0][:1]})
    state = stuck_hands(state, {0: 0, 1: 3, 2: 3}, pile=3)
    state = dataclasses.replace(state, hands={**state.hands, 0: (fits_one(state),)})
    state, kinds = place(state, 0)
    assert kinds == ["card_placed", "game_over"]
    assert state.winners == (0,) and GAME.is_over(state)


def fits_one(state: GridironState) -> int:
    held = {c for hand in state.hands.values() for c in hand} | set(state.pile)
    return next(
        c for c in state.out_of_play if c not in held and fits(DECK, state.board, [c], True)
    )


def test_when_everyone_passes_in_a_row_the_fewest_cards_win_and_ties_share() -> None:
    state = stuck_hands(start(), {0: 2, 1: 3, 2: 2}, pile=0)
    state, _ = apply(GAME, state, 0, {"type": "pass"}, 1.0)
    state, _ = apply(GAME, state, 1, {"type": "pass"}, 1.0)
    state, events = apply(GAME, state, 2, {"type": "pass"}, 1.0)
    assert [e.kind for e in events] == ["passed", "game_over"]
    assert state.winners == (0, 2)


def test_a_player_who_is_away_is_skipped_and_one_who_leaves_gives_up_their_cards() -> None:
    state = start()
    state, _ = apply(GAME, state, SYSTEM_SEAT, {"type": "seat_away", "seat": 1}, 1.0)
    state, _ = place(state, 0)
    assert state.turn == 2
    held = list(state.hands[2])
    state, events = apply(GAME, state, SYSTEM_SEAT, {"type": "seat_left", "seat": 2}, 2.0)
    assert [e.kind for e in events] == ["seat_left", "turn"] and state.turn == 0
    assert set(held) <= set(state.out_of_play)
    state, events = apply(GAME, state, SYSTEM_SEAT, {"type": "seat_left", "seat": 1}, 3.0)
    assert events[-1].kind == "game_over" and state.winners == (0,)


def test_view_shows_only_your_own_hand() -> None:
    state = start()
    view = GAME.view(state, 1)
    assert [c["id"] for c in view["hand"]] == list(state.hands[1])
    assert [s["hand"] for s in view["scores"]] == [7, 7, 7]
    assert view["legal"] == []
    changed = dataclasses.replace(
        state,
        hands={**state.hands, 0: state.pile[:7], 2: state.pile[7:14]},
        pile=(*state.hands[0], *state.hands[2], *state.pile[14:]),
    )
    assert GAME.view(changed, 1) == view
