"""The round-result moment: while the host waits for this seat's key, the round's result shows.

The room message's ``pause`` lists the seats still reading; the result opens
for them, any key closes it and sends ``seen``, and the host's word (the
pause gone) closes it without one.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from typing import Any

import pytest
from partyhost.tui.shared.moment import RoundResultScreen
from textual.pilot import Pilot
from tuikit.fakehost import FakeHost
from tuikit.layout import layout_problems
from tuikit.pilot import app_for, screen_text, settle
from tuikit.samples import sample_room, tshirt_view, view_frame
from tuikit.samples_gsm import gsm_room, scramble_view, stealing_home_view
from tuikit.samples_meme import meme_room, meme_view

Frame = dict[str, Any]
TABLES: dict[str, tuple[Callable[[], Frame], Callable[[], Frame], str]] = {
    "tshirt": (
        lambda: sample_room(status="playing"),
        tshirt_view,
        "Ask me about my feelings (don't)",
    ),
    "meme": (meme_room, lambda: meme_view("scenario"), "reacted with AWKWARD..."),
    "stealing-home": (
        lambda: gsm_room("stealing-home"),
        stealing_home_view,
        "called Match! first and was right",
    ),
    "scramble": (
        lambda: gsm_room("scramble"),
        lambda: scramble_view(last={"seat": 1, "valid": True, "reason": None}, wins_needed=2),
        "called Game! and every card fits",
    ),
}


async def seated(pilot: Pilot[int], host: FakeHost, room: Frame, view: Frame) -> None:
    await settle(pilot)
    host.room = room
    joined = {"t": "joined", "code": "KQZD", "seat": 0, "token": "t"}
    host.last.push(joined, copy.deepcopy(room), view_frame(view))
    await settle(pilot)


def paused(room: Frame, waiting: list[int]) -> Frame:
    return {**room, "pause": {"until": time.time() + 30, "waiting": waiting}}


async def reading_a_result(pilot: Pilot[int], host: FakeHost) -> tuple[Frame, RoundResultScreen]:
    """Ann at a T-Shirt table whose host waits for her to read the round's result."""
    room = sample_room(status="playing")
    await seated(pilot, host, room, tshirt_view())
    host.last.push(paused(room, [0]))
    await settle(pilot)
    result = pilot.app.screen
    assert isinstance(result, RoundResultScreen)
    return room, result


def seen(host: FakeHost) -> int:
    return sum(1 for frame in host.last.sent if frame.get("t") == "seen")


@pytest.mark.parametrize("game", list(TABLES))
async def test_the_result_shows_until_a_key_and_the_host_is_told(game: str) -> None:
    make_room, make_view, words = TABLES[game]
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        room = make_room()
        await seated(pilot, host, room, make_view())
        host.last.push(paused(room, [0, 1]))
        await settle(pilot)
        assert isinstance(app.screen, RoundResultScreen)
        text = screen_text(app)
        assert words in text and "Tap, or press any key, to go on." in text
        assert layout_problems(app) == []
        await pilot.press("j")  # any key, even one the table would use
        await settle(pilot)
        assert not isinstance(app.screen, RoundResultScreen)
        assert seen(host) == 1
        assert [f for f in host.last.sent if f.get("t") == "play"] == []


async def test_the_host_closes_the_result_once_everyone_has_read_it() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        room, _ = await reading_a_result(pilot, host)
        host.last.push({**room, "pause": None})
        await settle(pilot)
        assert not isinstance(app.screen, RoundResultScreen) and seen(host) == 0


async def test_no_result_for_a_seat_the_host_does_not_wait_for() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        room = sample_room(status="playing")
        await seated(pilot, host, room, tshirt_view())
        host.last.push(paused(room, [1, 2]))
        await settle(pilot)
        assert not isinstance(app.screen, RoundResultScreen)


async def test_a_key_that_reaches_a_result_taken_down_by_the_games_end_closes_nothing() -> None:
    """The game ended while the result showed: the router took it down; a late key must not
    pop the results screen (or the last screen, which crashed the app)."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        room, result = await reading_a_result(pilot, host)
        over = {**tshirt_view("over", winners=[1]), "legal": []}
        host.last.push(view_frame(over), {**room, "status": "over", "pause": None})
        await settle(pilot)
        results = app.screen
        assert type(results).__name__ == "TShirtResultsScreen"
        result.action_go_on()  # as a key already queued for it would
        await settle(pilot)
        assert app.screen is results and seen(host) == 0
    assert app.return_code in (None, 0)


async def test_the_hosts_close_waits_for_a_dialog_opened_over_the_result() -> None:
    """Help opened over the result and the host closed the pause: the help stays, and the
    result closes once it is on top again. A dialog under another counts as "current" in
    Textual; closing it then popped the help instead and delivered the result twice (a
    crash on the next close)."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        room, result = await reading_a_result(pilot, host)
        await pilot.press("f1")
        await settle(pilot)
        helping = app.screen
        assert type(helping).__name__ == "HelpScreen"
        host.last.push({**room, "pause": None})
        await settle(pilot)
        assert app.screen is helping and result in app.screen_stack
        await pilot.press("escape")
        await settle(pilot)
        assert result not in app.screen_stack and type(app.screen).__name__ == "TShirtScreen"
        assert seen(host) == 0
    assert app.return_code in (None, 0)


async def test_a_dialog_under_another_is_not_closed_in_its_place() -> None:
    """Closing a dialog that is not on top (the leave question under the help) does nothing:
    Textual would pop the dialog on top and call the one underneath's answer."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        room = sample_room(status="playing")
        await seated(pilot, host, room, tshirt_view())
        await pilot.press("escape")
        await settle(pilot)
        question = app.screen
        assert type(question).__name__ == "ConfirmScreen"
        await pilot.press("f1")
        await settle(pilot)
        helping = app.screen
        question.dismiss(False)
        question.dismiss(False)
        await settle(pilot)
        assert app.screen is helping and question in app.screen_stack
    assert app.return_code in (None, 0)
