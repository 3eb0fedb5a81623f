"""Every game is one declaration, its package has one shape, and the core does the checks.

Knowing one game means knowing all: each game's ``game`` module declares a
:class:`~partyhost.engine.core.Game` naming the functions of its contract,
each living in the module named for its job (in the game's own package, or
for a family of games like Game, Set, Match! in the family's shared module of
that name). Every ``decide`` records its events in a
:class:`~partyhost.engine.core.Decision`, and every game refuses a table
outside its declared bounds with the same code, from the core.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any

import partyhost.engine
import pytest
from partyhost.decks.files import load_deck_file
from partyhost.engine.core import (
    RESULT_PAUSES,
    ROUND_RESULTS,
    Decision,
    Event,
    Game,
    IllegalMove,
    check_join,
    declare,
)
from partyhost.engine.registry import all_games, get_game

DECKS = Path(__file__).resolve().parent.parent / "decks"
JOBS = {
    "setup": "state",
    "decide": "rules",
    "tick": "rules",
    "deadline": "rules",
    "evolve": "state",
    "view": "views",
    "legal": "views",
    "replay_view": "views",
    "results": "views",
    "bot_command": "bot",
}
"""Each function a game declares -> the name of the module whose job it is."""
SHAPE = {"__init__", "game", "deck", "state", "rules", "views", "bot", "wire"}
"""The modules a game's package may hold (``deck`` and ``bot`` may be the family's)."""
BESIDES_THE_SHAPE = {"meme": {"betting"}}
"""A game's modules outside the shape, each named in docs/architecture.md."""
TIMERS = ("tick", "deadline")
"""Functions a game without timers may leave to the core's defaults."""


def _declarations() -> dict[str, ModuleType]:
    """Every ``game`` module under the engine that declares a ``GAME``, by game id."""
    found: dict[str, ModuleType] = {}
    for info in pkgutil.walk_packages(partyhost.engine.__path__, "partyhost.engine."):
        if info.name.endswith(".game"):
            module = importlib.import_module(info.name)
            declared = getattr(module, "GAME", None)
            if isinstance(declared, Game):
                found[declared.id] = module
    return found


DECLARED = _declarations()
GAMES = [get_game(game_id) for game_id in sorted(DECLARED)]


def deck_for(game: Game) -> Any:
    return load_deck_file(DECKS / f"{game.default_deck}.yaml").deck


def test_every_shipped_game_is_declared_by_a_game_module_and_registered() -> None:
    assert len(DECLARED) >= 6
    shipped = {g.id for g in all_games() if g.setup.__module__.startswith("partyhost.engine.")}
    assert set(DECLARED) == shipped
    for game_id, module in DECLARED.items():
        assert get_game(game_id) is module.GAME, game_id


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
def test_every_declared_function_lives_in_the_module_named_for_its_job(game: Game) -> None:
    package = DECLARED[game.id].__name__.removesuffix(".game")
    family = package.rpartition(".")[0]
    for name, job in JOBS.items():
        home = getattr(game, name).__module__
        homes = {f"{package}.{job}"}
        if family != "partyhost.engine":
            homes.add(f"{family}.{job}")
        if name in TIMERS:
            homes.add("partyhost.engine.core")
        assert home in homes, f"{game.id}: {name} lives in {home}, not in {sorted(homes)}"
    for job in ("state", "rules", "views", "wire"):
        importlib.import_module(f"{package}.{job}")
    assert game.wire is not None and game.wire.game == game.id


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
def test_every_game_package_holds_only_the_modules_of_the_shape(game: Game) -> None:
    package = importlib.import_module(DECLARED[game.id].__name__.removesuffix(".game"))
    modules = {info.name for info in pkgutil.iter_modules(package.__path__)} | {"__init__"}
    assert modules - SHAPE == BESIDES_THE_SHAPE.get(game.id, set()), package.__name__


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
def test_a_game_module_declares_and_defines_no_class(game: Game) -> None:
    """The declaration names the functions; no subclass forwards to them."""
    module = DECLARED[game.id]
    tree = ast.parse(inspect.getsource(module))
    classes = [node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    assert classes == [], f"{module.__name__} defines {classes}"


def test_a_declaration_takes_each_job_modules_functions_and_its_own_names_win() -> None:
    from partyhost.engine.tshirt import bot, deck, rules, state, views, wire

    def waits(view: Any, rng: Any, now: float) -> None:
        return None

    game = declare(
        (deck, state, rules, views, bot, wire),
        id="declared",
        name="Declared",
        min_players=1,
        max_players=2,
        deck_game="declared",
        default_deck="declared",
        bot_command=waits,
    )
    assert (game.build_deck, game.setup, game.tick) == (deck.build_deck, state.setup, rules.tick)
    assert (game.card_locations, game.view) == (state.card_locations, views.view)
    assert game.wire is wire.WIRE and game.bot_command is waits


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
def test_every_game_refuses_too_few_or_too_many_players_with_player_count(game: Game) -> None:
    deck = deck_for(game)
    for count in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(IllegalMove) as refused:
            game.start(deck, list(range(count)), {}, 1)
        assert refused.value.code == "player_count"
        assert game.name in refused.value.message
    for count in (game.min_players, game.max_players):
        game.start(deck, list(range(count)), {}, 1)


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
def test_every_game_refuses_a_repeated_or_negative_seat(game: Game) -> None:
    deck = deck_for(game)
    seats = list(range(game.min_players))
    for bad in ([*seats[:-1], seats[0]], [-1, *seats[1:]]):
        with pytest.raises(IllegalMove) as refused:
            game.start(deck, bad, {}, 1)
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


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
def test_a_seat_is_free_until_the_table_holds_the_most_players(game: Game) -> None:
    assert game.has_free_seat(game.max_players - 1)
    assert not game.has_free_seat(game.max_players)
    check_join(0, game.max_players - 1, game.max_players)
    with pytest.raises(IllegalMove) as refused:
        check_join(0, game.max_players, game.max_players)
    assert refused.value.code == "table_full"
    with pytest.raises(IllegalMove) as refused:
        check_join(-1, 0, game.max_players)
    assert refused.value.code == "bad_command"


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
