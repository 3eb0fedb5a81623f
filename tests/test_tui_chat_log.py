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


async def test_a_one_row_log_shows_a_lines_start_cut_short_not_its_wrapped_end() -> None:
    """On a phone held sideways (93x18) a Game, Set, Match! table's log has one row: a long
    line reads from its start, cut short, not as the last piece of it wrapped."""
    game, room, view = next(table for table in games() if table[0] == "gridiron")
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(93, 18)) as pilot:
        await seat_ann(pilot, host, room, view)
        log = app.screen.query_one("#gsm-log")
        assert log.scrollable_content_region.height == 1, game
        host.last.push(said("the quick brown fox jumps over the lazy dog and keeps on running"))
        await settle(pilot)
        rows = [line for line in screen_text(app).splitlines() if "said Carl" in line]
        assert len(rows) == 1 and "said Carl: the quick" in rows[0] and "…" in rows[0]
        assert "keeps on running" not in screen_text(app)
