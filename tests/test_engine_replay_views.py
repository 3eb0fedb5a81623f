"""Every game's replay view and results, checked at every step of seeded random games.

A replay view is the table with nothing hidden: whatever any seat's own view
showed at that moment (its hand, its face-down card, its sealed bet, its
private board), the replay view shows too, for every seat at once. It is
plain data with a whole-number ``round`` to step by. At the end, ``results``
names every seat that played, marks exactly the winners and carries the
score the table showed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgpack
import pytest
from partyhost.engine.core import Game, apply, apply_tick
from partyhost.engine.registry import all_games
from test_engine_random_games import Table, _deck, _play

SEEDS = range(6)

Check = Callable[[dict[str, Any], dict[str, Any], int], None]


def _by_seat(entries: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {entry["seat"]: entry for entry in entries}


def _tshirt_reveals(replay: dict[str, Any], seen: dict[str, Any], seat: int) -> None:
    assert _by_seat(replay["hands"])[seat]["cards"] == seen["hand"]
    own = seen["your_submission"]
    if own is not None:
        played = [(p["seat"], p["card"], p["text"]) for p in replay["played"]]
        assert (seat, own["card"], own["text"]) in played


def _meme_reveals(replay: dict[str, Any], seen: dict[str, Any], seat: int) -> None:
    table, shown = replay["table"], seen["table"]
    if shown["reaction"]["meme"] is not None:
        assert replay["table"]["reaction"]["meme"] == shown["reaction"]["meme"]
    guesses = _by_seat(table["guesses"])
    for guess in shown["guesses"]:
        if guess["meme"] is not None:
            assert guesses[guess["seat"]]["meme"] == guess["meme"]
    bets = _by_seat(table["bets"])
    for bet in shown["bets"]:
        if not bet["sealed"]:
            assert bets[bet["seat"]]["bets"] == bet["bets"]
    for bet in table["bets"]:
        assert bet["bets"] is not None, "a sealed bet is shown in a replay"


def _gsm_reveals(replay: dict[str, Any], seen: dict[str, Any], seat: int) -> None:
    if "hands" in replay:
        assert _by_seat(replay["hands"])[seat]["cards"] == seen["hand"]
    else:
        assert not seen.get("hand"), "a hidden hand the replay does not show"
    if "boards" in replay:
        assert _by_seat(replay["boards"])[seat]["board"] == seen["board"]


REVEALS: dict[str, Check] = {"tshirt": _tshirt_reveals, "meme": _meme_reveals}


def _reveals(game: Game) -> Check:
    return REVEALS.get(game.id, _gsm_reveals)


def _wire(value: Any) -> Any:
    packed = msgpack.packb(value)
    return msgpack.unpackb(packed, strict_map_key=True)


def _check_replay_view(table: Table, state: Any, seats: list[int]) -> None:
    game = table.game
    replay = _wire(game.replay_view(state))
    assert isinstance(replay["round"], int) and not isinstance(replay["round"], bool)
    assert replay["legal"] == [] and replay["you"] is None
    for seat in seats:
        seen = _wire(game.view(state, seat))
        if seen["you"] == seat:  # a seat that has joined by now
            _reveals(game)(replay, seen, seat)


def _states(table: Table) -> list[Any]:
    """Every state of the game again, from its seed and accepted steps."""
    game = table.game
    state = game.start(table.deck, table.first_seats, table.rules, table.seed)
    states = [state]
    for seat, command, now in table.journal:
        if seat is None:
            state, _ = apply_tick(game, state, now)
        else:
            assert command is not None
            state, _ = apply(game, state, seat, command, now)
        states.append(state)
    return states


def _shown_scores(game: Game, final: dict[str, Any]) -> dict[int, int]:
    """The score each seat's row shows at the end (points or money), by seat."""
    rows = final.get("players") or final.get("scores") or []
    keys = {"tshirt": "score", "meme": "money", "stealing-home": "cards", "scramble": "wins"}
    key = keys.get(game.id)
    return {} if key is None else {row["seat"]: row[key] for row in rows}


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_replay_views_show_whatever_any_seat_saw(game: Game) -> None:
    deck = _deck(game)
    for seed in SEEDS:
        table = _play(game, deck, seed)
        for state in _states(table):
            _check_replay_view(table, state, list(table.seats))


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_results_name_every_seat_mark_the_winners_and_carry_the_score(game: Game) -> None:
    deck = _deck(game)
    for seed in SEEDS:
        table = _play(game, deck, seed)
        results = game.results(table.state)
        final = game.view(table.state, None)
        assert sorted(r.seat for r in results) == sorted(set(table.seats))
        assert {r.seat for r in results if r.won} == set(final["winners"])
        shown = _shown_scores(game, final)
        for result in results:
            score = result.money if game.id == "meme" else result.points
            if shown:
                assert score == shown[result.seat], (result, shown)
            else:
                assert result.points is None and result.money is None
