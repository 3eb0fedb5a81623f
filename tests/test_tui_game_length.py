"""Games say their length: the room and the first round say about how many rounds, and the
create dialog offers the T-Shirt Game's shorter targets."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from partyhost.engine.registry import all_games
from partyhost.net.clients.client import build
from partyhost.tui.shared.dialogs import CreateRoomScreen
from partyhost.tui.shared.gamelength import (
    COUNTING_HANDS,
    MEME_ROUNDS,
    ROUNDS,
    STEALING_HOME_ROUNDS,
    TSHIRT_ROUNDS,
    length_words,
    rough_rounds,
)
from test_tui_flows import in_game, in_room
from textual.widgets import Select
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, screen_text, settle
from tuikit.samples import tshirt_view
from tuikit.samples_meme import meme_room

SIZE = (80, 24)
BENCH = Path(__file__).parents[1] / "bench" / "game_length.py"


def game_length_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("game_length", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_game_that_counts_rounds_has_a_measured_table() -> None:
    """Each game the bench measures has its table, for each option set and table size it
    plays; every other game counts hands won (and says no length)."""
    bench = game_length_bench()
    games = {game.id: game for game in all_games()}
    games.pop("counting", None)  # the test game (netgame.py), if another test registered it
    assert set(bench.GAMES) == set(ROUNDS)
    assert set(games) - set(ROUNDS) == COUNTING_HANDS
    for game_id, option_sets in bench.GAMES.items():
        game = games[game_id]
        top = min(game.max_players, bench.MAX_PLAYERS)
        for options in option_sets:
            for players in range(max(2, game.min_players), top + 1):
                assert rough_rounds(game_id, options, players) is not None, (game_id, players)
                assert length_words(game_id, options, players) is not None


def test_what_do_you_meme_and_stealing_home_say_their_length() -> None:
    assert rough_rounds("meme", {}, 4) == MEME_ROUNDS[4] == 4
    assert rough_rounds("meme", {"target": 3000}, 9) == MEME_ROUNDS[6]  # no target to scale
    assert length_words("meme", {}, 1) == "Length: ~4 rounds (2 players)"
    assert rough_rounds("stealing-home", {}, 3) == STEALING_HOME_ROUNDS[3]
    assert length_words("stealing-home", {}, 10) == (
        f"Length: ~{STEALING_HOME_ROUNDS[8]} rounds (10 players)"
    )


def test_the_rough_length_follows_the_measured_table() -> None:
    assert rough_rounds("tshirt", {"target": 3000}, 4) == TSHIRT_ROUNDS[3000][4]
    assert rough_rounds("tshirt", {"target": 1000}, 3) == TSHIRT_ROUNDS[1000][3]
    assert rough_rounds("tshirt", {"target": 3000}, 10) == TSHIRT_ROUNDS[3000][8]  # most measured
    assert rough_rounds("tshirt", {"target": 6000}, 4) == 2 * TSHIRT_ROUNDS[3000][4]  # scaled
    assert rough_rounds("scramble", {}, 4) is None  # it counts hands won, not rounds
    assert length_words("tshirt", {"target": 1000}, 1) == (  # the room fills up still
        f"Length: ~{TSHIRT_ROUNDS[1000][3]} rounds (3 players)"
    )
    assert length_words("tshirt", {"target": 2000}, 5) == (
        f"Length: ~{TSHIRT_ROUNDS[2000][5]} rounds (5 players)"
    )


async def test_the_room_says_about_how_many_rounds_with_this_many_players() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(100, 30)) as pilot:
        await in_room(pilot, host)
        room = host.room
        assert room is not None
        words = length_words("tshirt", room["options"], len(room["seats"]))
        assert words == "Length: ~10 rounds (4 players)"  # 1,500: half way, from 1,000
        text = screen_text(app)
        assert "Points to win: 1500" in text and words in text


async def test_the_first_round_says_about_how_many_rounds_the_target_takes() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        view = tshirt_view(round=1)
        await in_game(pilot, host, view)
        rounds = rough_rounds("tshirt", {"target": view["target"]}, len(view["players"]))
        assert f"about {rounds} rounds" in screen_text(app)


async def test_the_create_dialog_offers_the_shorter_tshirt_targets() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, CreateRoomScreen)
        target = dialog.query_one("#option-target", Select)
        offered = [value for _, value in target._options]  # the choices, in order
        assert offered == ["1000", "2000", "3000"] and target.value == "3000"
        target.value = "1000"
        await pilot.press("ctrl+s")
        await settle(pilot)
        create = next(f for f in host.last.sent if f["t"] == "create_room")
        assert create["options"]["target"] == 1000
        assert create == build.create_room(
            "tshirt", deck=create["deck"], options=create["options"], password=None
        )


async def test_a_what_do_you_meme_room_says_its_length() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        host.room = meme_room(status="lobby")
        host.last.push({"t": "joined", "code": "KQZD", "seat": 0, "token": "t"}, host.room)
        await settle(pilot)
        assert "Length: ~4 rounds (4 players)" in screen_text(app)
