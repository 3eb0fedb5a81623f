"""Every key a game screen's footer offers does something when pressed, or says why not.

Each key gets a fresh table (the sample view of each game at 80x24). Something
happened when the host was sent a request, a dialog or screen opened or closed,
a toast was shown, or the screen looks different (a card highlighted, the
cursor moved): a key that changes none of these is a key that does not answer.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_tui_presence import seat_ann
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, settle
from tuikit.samples import sample_room, tshirt_view
from tuikit.samples_gsm import SAMPLE_VIEWS, gsm_room
from tuikit.samples_meme import meme_room, meme_view

Frame = dict[str, Any]
SIZE = (80, 24)


def tables() -> dict[str, tuple[Frame, Frame]]:
    """Every game's table as Ann sees it (room, view), with something to choose now."""
    found = {
        "tshirt": (sample_room(status="playing"), tshirt_view()),
        "tshirt-bot-judges": (sample_room(status="playing"), tshirt_view("judging", judge=1)),
        "meme": (meme_room(), meme_view()),
    }
    for game, view in SAMPLE_VIEWS.items():
        found[game] = (gsm_room(game, seats=2 if game == "four-corners" else 4), view())
    return found


TABLES = tables()


def state(app: Any, host: FakeHost) -> tuple[object, ...]:
    """What a key can change: requests sent, screens, toasts, the picture (styles too)."""
    return (
        len(host.last.sent),
        tuple(type(screen).__name__ for screen in app.screen_stack),
        len(app._notifications),
        app.export_screenshot(),
    )


async def footer_keys(game: str) -> list[str]:
    room, view = TABLES[game]
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await seat_ann(pilot, host, room, view)
        return [
            key
            for key, active in app.screen.active_bindings.items()
            if active.binding.show and active.enabled
        ]


@pytest.mark.parametrize("game", list(TABLES))
async def test_every_footer_key_of_every_game_screen_answers(game: str) -> None:
    room, view = TABLES[game]
    keys = await footer_keys(game)
    assert keys, f"{game}: a footer with no keys"
    silent = []
    for key in keys:
        host = FakeHost()
        app = app_for(host)
        async with app.run_test(size=SIZE) as pilot:
            await seat_ann(pilot, host, room, view)
            before = state(app, host)
            await pilot.press(key)
            await settle(pilot)
            if state(app, host) == before:
                silent.append(key)
    assert silent == [], f"{game}: footer keys that did nothing and said nothing: {silent}"


async def test_a_bot_judges_turn_offers_no_choosing_and_a_number_says_why() -> None:
    room, view = TABLES["tshirt-bot-judges"]
    keys = await footer_keys("tshirt-bot-judges")
    assert "1" not in keys and "enter" not in keys
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await seat_ann(pilot, host, room, view)
        await pilot.press("2", "enter")
        await settle(pilot)
        shown = [n.message for n in app._notifications]
        assert shown and all(message == "Only the judge picks the winner." for message in shown)
        assert not [f for f in host.last.sent if f.get("t") == "play"]
