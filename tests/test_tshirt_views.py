"""What each seat sees: everything a table shows, nothing it hides."""

from __future__ import annotations

from typing import Any

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st
from partyhost.engine.core import SYSTEM_SEAT, IllegalMove, apply, apply_tick
from partyhost.engine.rng import Rng
from partyhost.engine.tshirt.state import Phase, TShirtState
from tshirtplay import (
    GAME,
    event,
    hand,
    hidden_texts,
    pick_seat,
    play,
    start,
    submit,
    submit_all,
)

VIEW_KEYS = {
    "game", "version", "phase", "round", "judge", "you", "target", "hand_size", "timers",
    "players", "hand", "tshirt", "submitted", "waiting_for", "your_submission", "submissions",
    "sat_out", "booyah", "last_round", "recap", "piles", "deadline", "winners", "end_reason",
    "legal",
}  # fmt: skip


def _strings(value: Any) -> set[str]:
    """Every text anywhere in a view (keys and values)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | {text for item in value.values() for text in _strings(item)}
    if isinstance(value, list):
        return {text for item in value for text in _strings(item)}
    return set()


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for item in value.values() for key in _keys(item)}
    if isinstance(value, list):
        return {key for item in value for key in _keys(item)}
    return set()


def test_view_lists_everything_a_table_shows() -> None:
    view = GAME.view(start(), 1)
    assert set(view) == VIEW_KEYS
    assert view["game"] == "tshirt" and view["phase"] == "submitting" and view["you"] == 1
    assert view["piles"] == {
        "slogans": 34, "slogan_discard": 0, "tshirts": 4, "tshirt_discard": 0, "hot_or_not": 5,
    }  # fmt: skip
    assert [player["seat"] for player in view["players"]] == [0, 1, 2]
    assert view["legal"] == [{"type": "submit", "card": card} for card in hand(start(), 1)]


def test_a_seat_sees_its_own_hand_only() -> None:
    state = start()
    view = GAME.view(state, 1)
    assert [entry["card"] for entry in view["hand"]] == list(hand(state, 1))
    others = {state.deck.slogans[card] for card in hand(state, 2)}
    assert not others & _strings(view)
    assert [player["hand_count"] for player in view["players"]] == [0, 3, 3]


def test_spectators_see_public_information_only() -> None:
    state = submit(start(), 1)
    view = GAME.view(state, None)
    assert view["you"] is None and view["hand"] == [] and view["legal"] == []
    assert view["your_submission"] is None
    held = {state.deck.slogans[c] for p in state.players for c in p.hand}
    assert not held & _strings(view)


def test_who_submitted_is_public_but_never_the_card() -> None:
    state = submit(start((0, 1, 2, 3)), 2)
    view = GAME.view(state, 3)
    assert view["submitted"] == [2] and view["waiting_for"] == [1, 3]
    played = state.deck.slogans[state.submissions[0].card]
    assert played not in _strings(view)
    assert GAME.view(state, 2)["your_submission"]["text"] == played


def test_no_authors_before_the_pick() -> None:
    state = submit_all(start((0, 1, 2, 3)))
    for seat in (None, 0, 1, 2, 3):
        view = GAME.view(state, seat)
        assert [set(entry) for entry in view["submissions"]] == [{"index", "text"}] * 3
        assert view["last_round"] is None and "authors" not in _keys(view)
        assert view["submitted"] == [1, 2, 3]


def test_authors_are_public_after_the_pick() -> None:
    state, _ = pick_seat(submit_all(start((0, 1, 2, 3))), 3)
    result = GAME.view(state, None)["last_round"]
    assert result["winner"] == 3
    assert sorted(author["seat"] for author in result["authors"]) == [1, 2, 3]


def test_dealt_cards_reach_only_their_seat() -> None:
    state = GAME.start(start().deck, (0, 1, 2), {"first_judge": 0}, 4)
    _, events = apply_tick(GAME, state, 0.0)
    dealt = [e for e in events if e.kind == "dealt"]
    assert [e.data for e in dealt] == [{"seat": 1, "count": 3}, {"seat": 2, "count": 3}]
    assert "cards" in (dealt[0].for_seat(1) or {})
    assert "cards" not in (dealt[0].for_seat(2) or {})
    assert "cards" not in (dealt[0].for_seat(None) or {})


def test_the_reveal_order_and_generator_stay_secret() -> None:
    state = submit(start(), 1)
    _, events = play(state, 2, {"type": "submit", "card": hand(state, 2)[0]})
    revealed = event(events, "revealed")
    assert set(revealed.secret) == {"order", "rng"}
    assert set(revealed.for_seat(1) or {}) == {"kind", "submissions"}


def test_views_never_show_the_generator() -> None:
    state = submit_all(start())
    for seat in (None, 0, 1):
        view = GAME.view(state, seat)
        assert "rng" not in _keys(view)
        assert state.rng not in _ints(view)


def _ints(value: Any) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return {n for item in value.values() for n in _ints(item)}
    if isinstance(value, list):
        return {n for item in value for n in _ints(item)}
    return set()


def _check_view(state: TShirtState, seat: int | None) -> None:
    view = GAME.view(state, seat)
    assert msgpack.unpackb(msgpack.packb(view), strict_map_key=True) == view
    assert not hidden_texts(state, seat) & _strings(view)
    if state.phase in (Phase.SUBMITTING, Phase.JUDGING):
        last = view["last_round"]
        assert last is None or last["round"] < state.round
        assert all(set(entry) == {"index", "text"} for entry in view["submissions"])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), away_chance=st.integers(0, 20))
def test_random_play_never_leaks_hands_or_authors(seed: int, away_chance: int) -> None:
    """Bots play with players drifting away and back; every view is checked each step."""
    rng = Rng(seed)
    seats = list(range(3 + rng.below(4)))
    state = start(tuple(seats), seed=seed, first_judge=None, target=1000)
    for _ in range(120):
        if GAME.is_over(state):
            break
        roll = rng.below(100)
        try:
            if roll < away_chance:
                command = {"type": "seat_away", "seat": rng.choice(seats)}
                state, _ = apply(GAME, state, SYSTEM_SEAT, command, 0.0)
            elif roll < 2 * away_chance:
                command = {"type": "seat_back", "seat": rng.choice(seats)}
                state, _ = apply(GAME, state, SYSTEM_SEAT, command, 0.0)
        except IllegalMove:
            pass
        for seat in (None, *seats):
            _check_view(state, seat)
        moves = [(s, GAME.bot_command(GAME.view(state, s), rng, 0.0)) for s in seats]
        ready = [(s, command) for s, command in moves if command is not None]
        if ready:
            seat, command = rng.choice(ready)
            state, _ = apply(GAME, state, seat, command, 0.0)
