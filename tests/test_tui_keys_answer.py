"""Keys that answer wherever they are offered: the replay's keys whichever part has focus,
``P`` in the owner's table dialog as on the game screen, the Booyah choice's first ``k``,
and no question answered that was not asked (Enter meant for a result already gone)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from partyhost.net.clients.client import build
from partyhost.tui.replay.screen import ReplayApp, ReplayScreen
from partyhost.tui.shared.gametable import STRAY_KEY_SECONDS
from partyhost.tui.shared.moment import RoundResultScreen
from partyhost.tui.tshirt.dialogs import BooyahScreen
from test_tui_moment import seated
from test_tui_presence import owner_table
from test_tui_replay import SIZE, tshirt_replay
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, settle
from tuikit.samples import booyah_view, sample_room, tshirt_view, view_frame
from tuikit.samples_gsm import gsm_room, stealing_home_view


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


@pytest.mark.parametrize("view_first", [True, False], ids=["view-first", "room-first"])
async def test_the_booyah_choice_waits_for_the_result_and_takes_the_first_k(
    view_first: bool,
) -> None:
    """The result and the Booyah came together: the first ``k`` closed the result, not
    the choice under it. Now the result shows first, then the choice takes the first ``k``."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        room = sample_room(status="playing")
        await seated(pilot, host, room, tshirt_view())
        reading = {**room, "pause": {"until": time.time() + 30, "waiting": [0]}}
        frames = [view_frame(booyah_view()), reading]
        host.last.push(*(frames if view_first else frames[::-1]))
        await settle(pilot)
        assert isinstance(app.screen, RoundResultScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert any(f.get("t") == "seen" for f in host.last.sent)
        assert not isinstance(app.screen, BooyahScreen)  # the host still waits for Ann
        host.last.push({**room, "pause": {"until": time.time() + 30, "waiting": [1]}})
        await settle(pilot)
        assert isinstance(app.screen, BooyahScreen)
        await pilot.press("k")
        await settle(pilot)
        plays = [f["cmd"] for f in host.last.sent if f.get("t") == "play"]
        assert plays == [{"type": "booyah", "choice": "keep", "v": 17}]


async def test_enter_just_after_a_result_closed_by_itself_asks_for_nothing() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        room = gsm_room("stealing-home")
        await seated(pilot, host, room, stealing_home_view())
        host.last.push({**room, "pause": {"until": time.time() + 30, "waiting": [0]}})
        await settle(pilot)
        assert isinstance(app.screen, RoundResultScreen)
        host.last.push({**room, "pause": None})  # closed by itself as Ann reached for Enter
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert [n.message for n in app._notifications] == []  # type: ignore[attr-defined]
        app.screen._result_gone_at -= STRAY_KEY_SECONDS  # type: ignore[attr-defined]
        await pilot.press("enter")  # later, Enter is a question again and gets its answer
        await settle(pilot)
        shown = [n.message for n in app._notifications]  # type: ignore[attr-defined]
        assert shown == ["Choose a face-up card first: 1 or 2."]
