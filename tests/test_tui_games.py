"""The client's shape: one table from game id to screens, messages only through the typed API."""

from __future__ import annotations

import ast
import copy
from pathlib import Path

import partyhost.tui
import pytest
from partyhost.engine.registry import all_games
from partyhost.net.clients.client import build
from partyhost.tui.games import GAMES, main_screen
from partyhost.tui.gsm.results import GsmResultsScreen
from partyhost.tui.gsm.screen import StealingHomeScreen
from partyhost.tui.meme.results import MemeResultsScreen
from partyhost.tui.meme.screen import MemeScreen
from partyhost.tui.shared.connect import ConnectScreen
from partyhost.tui.shared.gametable import UnsupportedGameScreen
from partyhost.tui.shared.lobbyscreen import LobbyScreen
from partyhost.tui.shared.results import ResultsScreen
from partyhost.tui.shared.roomscreen import RoomScreen
from partyhost.tui.tshirt.results import TShirtResultsScreen
from partyhost.tui.tshirt.screen import TShirtScreen
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, screen_text, settle
from tuikit.samples import sample_room, seat_entry, view_frame

TUI = Path(partyhost.tui.__file__).resolve().parent


def test_every_shipped_game_has_its_own_screens() -> None:
    shipped = {game.id for game in all_games()} - {"counting"}  # the net tests' own game
    assert set(GAMES) == shipped


@pytest.mark.parametrize(
    ("kind", "game", "expected"),
    [
        ("connect", "", ConnectScreen),
        ("lobby", "", LobbyScreen),
        ("room", "meme", RoomScreen),
        ("game", "tshirt", TShirtScreen),
        ("results", "tshirt", TShirtResultsScreen),
        ("game", "meme", MemeScreen),
        ("results", "meme", MemeResultsScreen),
        ("game", "stealing-home", StealingHomeScreen),
        ("results", "gridiron", GsmResultsScreen),
        ("game", "mystery", UnsupportedGameScreen),
        ("results", "mystery", ResultsScreen),
    ],
)
def test_the_router_finds_each_screen_in_the_table(
    kind: str, game: str, expected: type[object]
) -> None:
    assert type(main_screen(kind, game)) is expected


EVERY_SCREEN = pytest.mark.parametrize(
    ("kind", "game"),
    [("connect", ""), ("lobby", "")]
    + [(kind, game) for kind in ("room", "game", "results") for game in sorted(GAMES)],
)


@EVERY_SCREEN
async def test_a_screen_swapped_out_before_it_mounts_does_no_harm(kind: str, game: str) -> None:
    """The router may put a screen up and take it down at once (a quick game that ends at
    once, a link that drops): its late mount must not reach for parts it lost."""
    app = app_for(FakeHost())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(5):
            app.push_screen(main_screen(kind, game))
            app.pop_screen()
            await pilot.pause()
        await settle(pilot)
    assert app.return_code in (0, None)


@EVERY_SCREEN
async def test_the_app_closing_as_a_screen_comes_up_does_no_harm(kind: str, game: str) -> None:
    """Quitting just as the router puts a screen up: it is taken down, still in the stack,
    while it mounts."""
    app = app_for(FakeHost())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(main_screen(kind, game))
    assert app.return_code in (0, None)


def test_an_unknown_kind_of_screen_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="sideboard"):
        main_screen("sideboard", "tshirt")


def message_literals(path: Path) -> list[int]:
    """Lines of ``path`` with a dict display that has a literal "t" key (a hand-made frame)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Dict)
        and any(isinstance(key, ast.Constant) and key.value == "t" for key in node.keys)
    ]


def test_the_client_writes_no_message_by_hand() -> None:
    found = {
        str(path.relative_to(TUI)): lines
        for path in sorted(TUI.rglob("*.py"))
        if (lines := message_literals(path))
    }
    assert found == {}


def test_the_check_for_hand_made_messages_finds_one(tmp_path: Path) -> None:
    module = tmp_path / "sample.py"
    module.write_text('def leave(app):\n    app.send({"t": "leave_room"})\n', encoding="utf-8")
    assert message_literals(module) == [2]


async def test_a_game_without_screens_ends_on_the_shared_results_screen() -> None:
    host = FakeHost()
    app = app_for(host)
    seats = [seat_entry(0, "Ann"), seat_entry(1, "Bea"), seat_entry(2, "Cy"), seat_entry(3, "Di")]
    room = sample_room(status="over", seats=seats) | {"game": "mystery"}
    view = {
        "phase": "over",
        "you": 0,
        "winners": [1, 2, 3],
        "players": [{"seat": s, "score": 10 * s} for s in range(4)],
    }
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        host.last.push(
            {"t": "joined", "code": "KQZD", "seat": 0, "token": "t"},
            copy.deepcopy(room),
            view_frame(view),
        )
        await settle(pilot)
        assert type(app.screen) is ResultsScreen
        text = screen_text(app)
        assert "Bea, Cy and Di win!" in text
        assert "Final scores" in text
        # names padded to the longest, points right-aligned: the numbers stand in one column
        rows = ["1. Di   30 points", "2. Cy   20 points", "3. Bea  10 points", "4. Ann   0 points"]
        assert sorted(rows, key=text.index) == rows
        assert isinstance(app.screen, ResultsScreen)
        app.screen.take_keys()  # as the short pause after the game's end does
        await pilot.press("s")
        await settle(pilot)
        assert host.last.sent[-1] == build.start_game()
        assert host.refused == []
