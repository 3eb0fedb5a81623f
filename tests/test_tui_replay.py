"""The replay screen: stepping through a finished game by move and by round, every hand shown.

The replay comes from a data folder the way ``partyhost replay --data``
builds it, from a T-Shirt Game the engine's bots played to the end.
"""

from __future__ import annotations

import io
import time
from collections import Counter
from pathlib import Path

import pytest
from partyhost.historycommands import ReplayData, local_replay
from partyhost.net.store.database import Store
from partyhost.tui.gsm.cards import Legend, Painter, read_cells
from partyhost.tui.replay.narration import result_line
from partyhost.tui.replay.screen import ReplayApp, ReplayScreen, replay_title
from playedgames import play_game
from rich.cells import cell_len
from rich.console import Console
from test_cli_history import keep
from textual.widgets import Static

SIZE = (100, 32)


def tshirt_replay(folder: Path) -> ReplayData:
    store = Store(folder)
    keep(store, play_game("tshirt", 4, seed=8, options={"target": 1000}), "ACDE", 5000.0)
    (entry,) = store.games()
    store.close()
    return local_replay(folder, entry.id)


def gridiron_replay(folder: Path) -> ReplayData:
    store = Store(folder)
    keep(store, play_game("gridiron", 4, seed=3), "ACDE", 5000.0)
    (entry,) = store.games()
    store.close()
    return local_replay(folder, entry.id)


def table_text(app: ReplayApp) -> tuple[str, int]:
    """The table panel as plain text, drawn at the panel's width, and that width."""
    table = app.screen.query_one("#replay-table", Static)
    width = table.content_region.width
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(table.content)
    return console.export_text(), width


def shown(app: ReplayApp, widget_id: str) -> str:
    """What a widget shows, as plain text."""
    console = Console(width=120, file=io.StringIO(), record=True, color_system=None)
    console.print(app.screen.query_one(f"#{widget_id}", Static).content)
    return console.export_text()


async def test_keys_step_by_move_and_by_round_to_the_end_and_back(tmp_path: Path) -> None:
    replay = tshirt_replay(tmp_path)
    app = ReplayApp(replay.info, replay.steps)
    last = len(replay.steps) - 1
    rounds = replay.info["rounds"]
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert "The game before its first move." in shown(app, "replay-status")
        await pilot.press("right", "right")
        assert screen.position == 2 and f"Step 2 of {last}" in shown(app, "replay-status")
        await pilot.press("left")
        assert screen.position == 1
        await pilot.press("right_square_bracket")
        assert screen.position == next(start for start in rounds if start > 1)
        await pilot.press("right_square_bracket", "left_square_bracket")
        assert screen.position == next(start for start in rounds if start > 1)
        await pilot.press("end")
        status = shown(app, "replay-status")
        assert screen.position == last and "The end." in status and " won" in status
        await pilot.press("right")
        assert screen.position == last, "no step past the end"
        await pilot.press("home")
        assert screen.position == 0
        await pilot.press("escape")
    assert app.return_code == 0


async def test_the_table_shows_every_hand_and_whose_slogan_is_face_down(tmp_path: Path) -> None:
    replay = tshirt_replay(tmp_path)
    app = ReplayApp(replay.info, replay.steps)
    submitted = next(
        step["step"]
        for step in replay.steps
        if step["view"]["phase"] == "submitting" and step["view"]["played"]
    )
    view = replay.steps[submitted]["view"]
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        screen.action_jump(submitted)
        await pilot.pause()
        table = " ".join(shown(app, "replay-table").split())
        for hand in view["hands"]:
            for card in hand["cards"]:
                assert " ".join(card["text"].split()) in table
        for entry in view["played"]:
            assert " ".join(entry["text"].split()) in table
        assert "(face down)" in table


async def test_the_first_step_says_the_game_has_not_begun(tmp_path: Path) -> None:
    """Step 0 comes before any round: no "Round 0  judge ?"."""
    replay = tshirt_replay(tmp_path)
    app = ReplayApp(replay.info, replay.steps)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = shown(app, "replay-table")
        assert table.startswith("Before the first round") and "judge ?" not in table
        assert isinstance(app.screen, ReplayScreen)
        app.screen.action_jump(1)
        await pilot.pause()
        assert shown(app, "replay-table").startswith("Round 1  judge ")


async def test_pages_that_arrive_later_extend_the_replay(tmp_path: Path) -> None:
    replay = tshirt_replay(tmp_path)
    app = ReplayApp(replay.info, replay.steps[:3])
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert "(loading: 3 of" in shown(app, "replay-status")
        await pilot.press("end")
        assert screen.position == 2
        screen.add_steps(5, replay.steps[5:])  # not the next page: ignored
        screen.add_steps(3, replay.steps[3:])
        await pilot.press("end")
        assert screen.position == len(replay.steps) - 1
        assert "loading" not in shown(app, "replay-status")


async def test_a_gsm_replay_shows_every_card_of_every_hand_within_the_panel(
    tmp_path: Path,
) -> None:
    replay = gridiron_replay(tmp_path)
    view = replay.steps[0]["view"]
    painter = Painter(Legend.from_view(view), ascii_only=False, initials=True)
    tops = Counter(
        painter.row(read_cells(card)[0]).plain for hand in view["hands"] for card in hand["cards"]
    )
    assert sum(tops.values()) == 4 * 7
    app = ReplayApp(replay.info, replay.steps)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "1 card on the table" in shown(app, "replay-status")
        text, width = table_text(app)
    for top, count in tops.items():
        assert text.count(top) >= count, f"{top!r} cut off at {width} columns"


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_a_gsm_replays_final_board_is_drawn_to_fit_the_panel(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    replay = gridiron_replay(tmp_path)
    app = ReplayApp(replay.info, replay.steps)
    async with app.run_test(size=size) as pilot:
        await pilot.press("end")
        await pilot.pause()
        text, width = table_text(app)
    board = [line.rstrip() for line in text.splitlines() if "│" in line]
    assert len(board) > 8  # the final board, many cards on it
    # Drawn whole, every line ends at a card's edge or an empty slot's dot; a board cut at
    # the panel's edge ends in the middle of a card.
    cut = [line for line in board if line[-1] not in "│┤╮╯┘┐·"]
    assert not cut, "\n".join(board)
    assert max(cell_len(line) for line in board) <= width


def test_a_results_line_counts_one_point_as_one() -> None:
    info = {"players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bea"}]}
    assert result_line({"seat": 0, "won": True, "points": 1}, info).plain == "Ann won, 1 point"
    assert result_line({"seat": 1, "points": 3200}, info).plain == "Bea, 3200 points"


def test_the_replay_title_says_when_the_game_ended_not_its_number_in_the_store() -> None:
    ended = time.mktime((2026, 12, 5, 21, 40, 0, 0, 0, -1))  # a Saturday, local time
    info = {
        "id": 1751967406137944,
        "game": "scramble",
        "game_name": "Game, Set, Match! - Scramble",
        "room": "NFYN",
        "status": "over",
        "ended": ended,
        "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bot 1"}],
        "results": [{"seat": 0, "won": True}],
    }
    assert replay_title(info).plain == (
        "Replay: Game, Set, Match! - Scramble in room NFYN, Sat 21:40: Ann*, Bot 1"
    )
