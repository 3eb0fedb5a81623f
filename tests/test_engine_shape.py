"""Every game package has one shape, one way to decide and one seat check.

Knowing one game means knowing all: each registered game's package has the
same modules for the same jobs, every ``decide`` records its events in a
:class:`~partyhost.engine.core.Decision`, and every game refuses a table
outside its declared bounds with the same code.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from partyhost.decks.files import load_deck_file
from partyhost.engine.core import RESULT_PAUSES, ROUND_RESULTS, Decision, Event, Game, IllegalMove
from partyhost.engine.registry import all_games, get_game

DECKS = Path(__file__).resolve().parent.parent / "decks"
GAMES = all_games()
JOBS = {
    "game": (),
    "state": (),
    "setup": ("setup",),
    "rules": ("decide", "tick", "deadline"),
    "evolve": ("evolve",),
    "views": ("view", "legal"),
    "bot": ("bot_command",),
}
"""Module name -> the functions it must define, in every game package."""


def package_of(game: Game) -> str:
    module = type(game).__module__
    assert module.endswith(".game"), f"{game.id}: its Game class lives in {module}"
    return module.removesuffix(".game")


def deck_for(game: Game) -> Any:
    return load_deck_file(DECKS / f"{game.default_deck}.yaml").deck


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
def test_every_game_package_has_the_same_modules_for_the_same_jobs(game: Game) -> None:
    package = package_of(game)
    for name, functions in JOBS.items():
        module = importlib.import_module(f"{package}.{name}")
        missing = [
            function for function in functions if not callable(getattr(module, function, None))
        ]
        assert missing == [], f"{package}.{name} lacks {missing}"
    registered = importlib.import_module(package)
    assert getattr(registered, "GAME", None) is game


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
def test_every_game_refuses_too_few_or_too_many_players_with_player_count(game: Game) -> None:
    deck = deck_for(game)
    for count in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(IllegalMove) as refused:
            game.setup(deck, list(range(count)), {}, 1)
        assert refused.value.code == "player_count"
        assert game.name in refused.value.message
    for count in (game.min_players, game.max_players):
        game.setup(deck, list(range(count)), {}, 1)


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
def test_every_game_refuses_a_repeated_or_negative_seat(game: Game) -> None:
    deck = deck_for(game)
    seats = list(range(game.min_players))
    for bad in ([*seats[:-1], seats[0]], [-1, *seats[1:]]):
        with pytest.raises(IllegalMove) as refused:
            game.setup(deck, bad, {}, 1)
        assert refused.value.code == "bad_seats"


def test_the_player_count_check_names_the_bounds_and_the_count() -> None:
    exact = next(game for game in GAMES if game.min_players == game.max_players)
    with pytest.raises(IllegalMove) as refused:
        exact.check_player_count(exact.max_players + 1)
    assert f"exactly {exact.max_players} players, not {exact.max_players + 1}" in (
        refused.value.message
    )
    ranged = next(game for game in GAMES if game.min_players < game.max_players)
    with pytest.raises(IllegalMove) as refused:
        ranged.check_player_count(0)
    assert f"{ranged.min_players} to {ranged.max_players} players, not 0" in refused.value.message


@dataclass(frozen=True)
class Counter:
    total: int = 0
    rng: int = 0


def test_a_decision_shows_later_steps_every_event_so_far() -> None:
    evolved: list[str] = []

    def add(state: Counter, event: Event) -> Counter:
        evolved.append(event.kind)
        return replace(state, total=state.total + event.data["n"])

    decision = Decision(add, Counter(), now=5.0)
    decision.emit("one", {"n": 1})
    decision.emit("two", {"n": 2})
    assert decision.state.total == 3
    decision.emit("four", {"n": 4}, private={0: {"secret": True}}, secret={"rng": 9})
    assert decision.state.total == 7
    assert [event.kind for event in decision.events] == ["one", "two", "four"]
    assert evolved == ["one", "two", "four"], "each event is folded once"
    assert decision.events[2].for_seat(1) == {"kind": "four", "n": 4}
    assert decision.now == 5.0


def test_a_decision_folds_events_only_when_its_state_is_read() -> None:
    evolved: list[str] = []

    def add(state: Counter, event: Event) -> Counter:
        evolved.append(event.kind)
        return state

    decision = Decision(add, Counter(), now=0.0)
    decision.emit("unread")
    assert evolved == []
    assert decision.events[0].data == {}


def test_a_decision_hands_out_a_copy_of_the_state_generator() -> None:
    decision = Decision(lambda state, event: state, Counter(rng=42), now=0.0)
    first = decision.rng()
    first.next_u64()
    assert decision.rng().state == 42


def test_games_with_rounds_say_when_one_ends_and_offer_the_results_pause() -> None:
    ends = {
        "tshirt": [Event("drew", {"seat": 1}), Event("round_void", {"reason": "judge_left"})],
        "meme": [Event("turn_over", {"turn": 1})],
        "stealing-home": [Event("match_won", {}), Event("no_fit", {}), Event("tiebreak", {})],
        "scramble": [Event("game_called", {"seat": 1, "valid": True})],
    }
    for game in all_games():
        assert (ROUND_RESULTS in game.options) == (game.id in ends), game.id
        for end in ends.get(game.id, []):
            assert game.round_over([Event("submitted", {"seat": 1}), end]), (game.id, end)
        assert not game.round_over([Event("submitted", {"seat": 1})]), game.id
    wrong_call = Event("game_called", {"seat": 1, "valid": False})
    assert not get_game("scramble").round_over([wrong_call])
    assert ROUND_RESULTS.default in RESULT_PAUSES and RESULT_PAUSES["no pause"] == 0
