"""Chat said during a game is seen on every game screen without opening the chat."""

from __future__ import annotations

from typing import Any

import pytest
from test_tui_presence import games, seat_ann
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, screen_text, settle

Frame = dict[str, Any]
SIZE = (80, 24)


def said(text: str, at: float = 1.0) -> Frame:
    return {"t": "chat_line", "seat": 2, "name": "Carl", "text": text, "at": at}


@pytest.mark.parametrize(("game", "room", "view"), games(), ids=[g[0] for g in games()])
async def test_a_chat_line_appears_in_the_game_log_of_every_game(
    game: str, room: Frame, view: Frame
) -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await seat_ann(pilot, host, room, view)
        host.last.push(said("good luck all"))
        await settle(pilot)
        assert "said Carl: good luck all" in screen_text(app), game


async def test_the_recent_chat_sent_again_on_a_reconnect_is_not_shown_twice() -> None:
    _, room, view = games()[0]
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await seat_ann(pilot, host, room, view)
        host.last.push(said("first", at=1.0), said("second", at=2.0))
        await settle(pilot)
        await seat_ann(pilot, host, room, view)  # joined again: the host sends its chat again
        host.last.push(said("first", at=1.0), said("second", at=2.0), said("third", at=3.0))
        await settle(pilot)
        assert [line["text"] for line in app.chat] == ["first", "second", "third"]
        text = screen_text(app)
        assert text.count("said Carl: first") == 1 and "said Carl: third" in text
