"""``partyhost play --level``: the quick game seats bots of the level asked for."""

from __future__ import annotations

import pytest
from nethelpers import running_host
from partyhost.cli import build_parser
from partyhost.tui.app import make_app
from partyhost.tui.play import QuickGame


@pytest.mark.parametrize("level", ["easy", "hard"])
async def test_the_quick_game_seats_bots_of_the_chosen_level(level: str) -> None:
    async with running_host() as host:
        quick = QuickGame("tshirt", 3, level)
        app = make_app(
            address=f"127.0.0.1:{host.port}",
            name="Ann",
            animate=False,
            remember=False,
            on_welcome=quick.attach,
        )
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(160):
                if app.room is not None and app.room.get("status") == "playing":
                    break
                await pilot.pause(0.05)
            assert app.room is not None and app.room["status"] == "playing"
            bots = [seat for seat in app.room["seats"] if seat["bot"]]
            assert [seat["bot_level"] for seat in bots] == [level] * 3


def test_play_takes_a_bot_level_and_refuses_others() -> None:
    parse = build_parser().parse_args
    assert parse(["play"]).level is None
    assert parse(["play", "meme", "--level", "hard"]).level == "hard"
    with pytest.raises(SystemExit):
        parse(["play", "--level", "genius"])
