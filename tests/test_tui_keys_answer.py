"""Keys that answer wherever they are offered: the replay's keys whichever part has focus,
``P`` in the owner's table dialog as on the game screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from partyhost.net.clients.client import build
from partyhost.tui.replay.screen import ReplayApp, ReplayScreen
from test_tui_presence import owner_table
from test_tui_replay import SIZE, tshirt_replay
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, settle


@pytest.mark.parametrize("focused", ["#replay-table-box", "#replay-log"])
async def test_the_replays_keys_work_whichever_part_has_focus(tmp_path: Path, focused: str) -> None:
    replay = tshirt_replay(tmp_path)
    app = ReplayApp(replay.info, replay.steps)
    last = len(replay.steps) - 1
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        screen.query_one(focused).focus()
        await pilot.pause()
        assert screen.focused is screen.query_one(focused)
        other = "#replay-log" if focused == "#replay-table-box" else "#replay-table-box"
        outline = screen.query_one(focused).styles.border_top[1]
        assert outline != screen.query_one(other).styles.border_top[1], "focus is visible"
        await pilot.press("end")
        assert screen.position == last
        await pilot.press("home")
        assert screen.position == 0
        await pilot.press("pagedown")
        assert screen.position == next(start for start in replay.info["rounds"] if start > 0)
        await pilot.press("pageup")
        assert screen.position == 0
        await pilot.press("right")
        assert screen.position == 1


async def test_shift_p_in_the_owners_table_dialog_pauses_as_on_the_game_screen() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await owner_table(pilot, host)
        await pilot.press("P")
        await settle(pilot)
        assert build.pause_game() in host.last.sent
