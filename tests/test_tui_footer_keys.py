"""Every key a game screen's footer offers does something when pressed, or says why not.

Each key gets a fresh table (the sample view of each game at 80x24). Something
happened when the host was sent a request, a dialog or screen opened or closed,
a toast was shown, or the screen looks different (a card highlighted, the
cursor moved): a key that changes none of these is a key that does not answer. The number keys
show the range there is to choose from now, and are gone when there is nothing.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from test_tui_presence import seat_ann
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, screen_text, settle
from tuikit.samples import sample_room, tshirt_view, view_frame
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


def fewer_choices(game: str, count: int) -> tuple[Frame, Frame]:
    """``game``'s table with ``count`` things to choose from (the first ``count``)."""
    room, view = copy.deepcopy(TABLES[game])
    if game == "tshirt":
        view["hand"] = view["hand"][:count]
        view["legal"] = view["legal"][:count]
    elif game == "meme":
        view["memes"] = view["memes"][:count]
        choices = [entry["meme"] for entry in view["memes"]]
        view["legal"] = [
            {**command, "choices": choices}
            for command in view["legal"]
            if command.get("meme") in choices
        ]
    else:
        view["hand"] = view["hand"][:count]
    return room, view


async def footer_line(room: Frame, view: Frame) -> str:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await seat_ann(pilot, host, room, view)
        return screen_text(app).splitlines()[-1]


CHOOSING = {"tshirt": "Choose", "meme": "Meme", "scramble": "Card", "four-corners": "Card"}


@pytest.mark.parametrize("game", list(CHOOSING))
async def test_the_number_keys_in_the_footer_name_only_what_there_is_to_choose(game: str) -> None:
    word = CHOOSING[game]
    for count, keys in ((3, "1-3"), (2, "1-2"), (1, "1")):
        line = await footer_line(*fewer_choices(game, count))
        assert f" {keys} {word} " in line, (count, line)
        assert "1-9" not in line and "1-7" not in line
    line = await footer_line(*fewer_choices(game, 0))
    assert f" {word} " not in line, line  # nothing to choose: no number keys offered


async def test_the_footer_follows_the_hand_as_it_shrinks() -> None:
    """A played card takes its number off the footer: the next view has one choice fewer."""
    room, view = fewer_choices("gridiron", 3)
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await seat_ann(pilot, host, room, view)
        assert " 1-3 Card " in screen_text(app).splitlines()[-1]
        smaller = copy.deepcopy(view)
        smaller["hand"] = smaller["hand"][:2]
        smaller["version"] = int(smaller.get("version", 0)) + 1
        host.last.push(view_frame(smaller))
        await settle(pilot)
        assert " 1-2 Card " in screen_text(app).splitlines()[-1]


async def test_a_hand_that_shrank_under_a_dialog_shows_its_range_once_it_closes() -> None:
    room, view = fewer_choices("gridiron", 3)
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await seat_ann(pilot, host, room, view)
        table = app.screen
        await pilot.press("c")  # the chat dialog over the table
        await settle(pilot)
        assert app.screen is not table
        smaller = copy.deepcopy(view)
        smaller["hand"] = smaller["hand"][:2]
        smaller["version"] = int(smaller.get("version", 0)) + 1
        host.last.push(view_frame(smaller))
        await settle(pilot)
        await app.screen.dismiss()
        await settle(pilot)
        assert app.screen is table
        assert " 1-2 Card " in screen_text(app).splitlines()[-1]
