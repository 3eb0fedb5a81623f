"""Bots play every variant to the end; cards are conserved and nothing hidden leaks."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgpack
import pytest
from gsmplay import play_bots, shipped_deck
from partyhost.engine.core import Event, Game
from partyhost.engine.gsm.bot import BOT_DELAYS
from partyhost.engine.gsm.four_corners.game import GAME as FOUR_CORNERS
from partyhost.engine.gsm.gridiron.game import GAME as GRIDIRON
from partyhost.engine.gsm.scramble.game import GAME as SCRAMBLE
from partyhost.engine.gsm.stealing_home.game import GAME as STEALING_HOME

DECK = shipped_deck()
ALL_CARDS = list(range(60))


def _hidden_swapped(game: Game, state: Any, seat: int) -> Any:
    """The same table with everything ``seat`` cannot see rearranged."""
    if game is STEALING_HOME:
        return dataclasses.replace(state, pile=state.pile[::-1])
    if game is SCRAMBLE:
        boards = {
            s: tuple(dataclasses.replace(p, x=p.x + 9) for p in board)
            for s, board in state.boards.items()
        }
        boards[seat] = state.boards[seat]
        spare = list(state.out_of_play)
        hands = dict(state.hands)
        for s in state.seats:
            if s != seat and len(spare) >= len(hands[s]):
                count = len(hands[s])
                hands[s], spare = tuple(spare[:count]), spare[count:] + list(hands[s])
        return dataclasses.replace(state, boards=boards, hands=hands, out_of_play=tuple(spare))
    hidden = list(state.pile if game is GRIDIRON else state.out_of_play)
    hands = dict(state.hands)
    for s in state.seats:
        if s != seat:
            count = len(hands[s])
            hidden, hands[s] = hidden[count:] + list(hands[s]), tuple(hidden[:count])
    if game is GRIDIRON:
        return dataclasses.replace(state, hands=hands, pile=tuple(hidden))
    return dataclasses.replace(state, hands=hands, out_of_play=tuple(hidden))


def _checker(game: Game) -> Any:
    steps = {"count": 0}

    def check(state: Any, events: list[Event]) -> None:
        assert game.card_locations is not None
        listed = [card for card, _ in game.card_locations(state)]
        assert sorted(listed) == ALL_CARDS, "a card appeared, vanished or is in two places"
        for event in events:
            for seat, extra in event.private.items():
                if "hand" in extra:
                    assert tuple(extra["hand"]) == state.hands[seat]
                if "card" in extra:
                    mine = [
                        *state.hands[seat],
                        *(p.card for p in getattr(state, "boards", {}).get(seat, ())),
                    ]
                    assert extra["card"] in mine or event.kind == "taken_back"
            assert "hand" not in event.data or isinstance(event.data["hand"], int)
            if game is SCRAMBLE and event.kind in ("placed", "taken_back"):
                assert set(event.data) == {"seat", "placed", "hand"}
            for seat in (None, *state.seats):
                shown = event.for_seat(seat)
                if shown is not None:
                    msgpack.unpackb(msgpack.packb(shown), strict_map_key=True)
        steps["count"] += 1
        if steps["count"] % 7 == 0:
            for seat in state.seats:
                view = game.view(state, seat)
                msgpack.unpackb(msgpack.packb(view), strict_map_key=True)
                assert game.view(_hidden_swapped(game, state, seat), seat) == view

    return check


TABLES = [
    (STEALING_HOME, [0, 1], {}),
    (STEALING_HOME, [0, 1, 2, 3, 4], {"tie_window_ms": 400, "hints": True}),
    (STEALING_HOME, [0, 1, 2], {"rotate": False, "round_seconds": 10}),
    (SCRAMBLE, [0, 1, 2], {"match": "best-of-3"}),
    (SCRAMBLE, [0, 1, 2, 3, 4, 5], {"rotate": False}),
    (SCRAMBLE, [0, 1], {"solvable_deals": False, "rotate": False}),
    (GRIDIRON, [0, 1, 2, 3, 4, 5], {}),
    (GRIDIRON, [0, 1], {"rotate": False, "hints": True}),
    (FOUR_CORNERS, [0, 1], {}),
    (FOUR_CORNERS, [3, 7], {"rotate": False, "stall_seconds": None}),
]


@pytest.mark.parametrize(("game", "seats", "rules"), TABLES, ids=lambda v: getattr(v, "id", None))
@pytest.mark.parametrize("seed", range(3))
def test_bots_play_every_variant_to_the_end(
    game: Game, seats: list[int], rules: dict[str, Any], seed: int
) -> None:
    state = game.start(DECK, seats, rules, seed)
    state, log, _now = play_bots(game, state, seed, check=_checker(game))
    assert game.is_over(state)
    assert state.winners and set(state.winners) <= set(seats)
    assert game.legal(state, seats[0]) == []
    assert log


def test_bot_delays_are_suggested_per_game_and_level() -> None:
    for levels in BOT_DELAYS.values():
        assert set(levels) == {"easy", "normal", "hard"}
        assert levels["hard"][1] <= levels["easy"][0] * 2
        assert all(0 < low <= high for low, high in levels.values())
