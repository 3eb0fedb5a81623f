"""Every action can be done with a finger: each footer key is a tap target on every screen.

The browser door's page tells the client it lost focus before anything is typed
(and a phone's page does so whenever its keyboard closes); the footer keeps its
keys all the same. A click on a footer key does what pressing it does: each one
is clicked on a fresh table and something must change (a request to the host, a
screen or dialog, a toast, the picture).
"""

from __future__ import annotations

from typing import Any

import pytest
from partyhost.tui.gsm.boardview import BoardView, HandRack
from partyhost.tui.gsm.screen import GsmScreen
from partyhost.tui.shared.dialogs import CreateRoomScreen
from test_tui_presence import seat_ann
from textual.events import AppBlur
from textual.widgets import Button
from textual.widgets._footer import FooterKey
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, screen_text, settle
from tuikit.samples import sample_room, tshirt_view
from tuikit.samples_gsm import SAMPLE_VIEWS, gsm_room
from tuikit.samples_meme import meme_room, meme_view

Frame = dict[str, Any]
SIDEWAYS_PHONE = (93, 18)
"""The terminal a phone held sideways (844x390 CSS pixels) gets through the browser door."""
UPRIGHT_PHONE = (43, 40)
"""The same phone held upright (390x844)."""


def tables() -> dict[str, tuple[Frame, Frame]]:
    """Every game's table as Ann sees it (room, view), with something to choose now."""
    found = {
        "tshirt": (sample_room(status="playing"), tshirt_view()),
        "tshirt-judge": (sample_room(status="playing"), tshirt_view("judging", you=1, judge=1)),
        "meme": (meme_room(), meme_view()),
    }
    for game, view in SAMPLE_VIEWS.items():
        found[game] = (gsm_room(game, seats=2 if game == "four-corners" else 4), view())
    return found


TABLES = tables()


def footer_keys(app: Any) -> list[FooterKey]:
    """The keys the footer of the screen on top draws, those that may be used now."""
    enabled = {key for key, active in app.screen.active_bindings.items() if active.enabled}
    return [key for key in app.screen.query(FooterKey).results(FooterKey) if key.key in enabled]


def state(app: Any, host: FakeHost) -> tuple[object, ...]:
    """What a tap can change: requests sent, screens, toasts, the picture."""
    return (
        len(host.last.sent),
        tuple(type(screen).__name__ for screen in app.screen_stack),
        len(app._notifications),
        app.export_screenshot(),
    )


async def test_the_footer_shows_its_keys_when_the_page_reports_a_blur_before_any_input() -> None:
    host = FakeHost()
    app = app_for(host)
    app.post_message(AppBlur())  # what the browser door's page says as the client starts
    async with app.run_test(size=SIDEWAYS_PHONE) as pilot:
        await settle(pilot)
        assert app.screen.KIND == "lobby"  # type: ignore[attr-defined]
        assert "Create" in [key.description for key in footer_keys(app)]
        assert "Create" in screen_text(app).splitlines()[-1]


@pytest.mark.parametrize("game", list(TABLES))
async def test_every_footer_key_of_every_game_answers_a_tap(game: str) -> None:
    room, view = TABLES[game]
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIDEWAYS_PHONE) as pilot:
        await seat_ann(pilot, host, room, view)
        count = len(footer_keys(app))
    assert count >= 3, f"{game}: {count} keys on the footer"
    silent = []
    for index in range(count):
        host = FakeHost()
        app = app_for(host)
        async with app.run_test(size=SIDEWAYS_PHONE) as pilot:
            await seat_ann(pilot, host, room, view)
            app.post_message(AppBlur())
            await settle(pilot)
            key = footer_keys(app)[index]
            before = state(app, host)
            await pilot.click(key)
            await settle(pilot)
            if state(app, host) == before:
                silent.append(key.description)
    assert silent == [], f"{game}: footer keys that did nothing when tapped: {silent}"


async def test_a_gridiron_card_is_chosen_turned_and_placed_by_taps_alone() -> None:
    room, view = TABLES["gridiron"]
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIDEWAYS_PHONE) as pilot:
        await seat_ann(pilot, host, room, view)
        screen = app.screen
        assert isinstance(screen, GsmScreen)
        await pilot.click(HandRack, offset=(2, 0))
        chosen = screen.selected
        assert chosen is not None
        (turn,) = [key for key in footer_keys(app) if key.description == "Turn"]
        await pilot.click(turn)
        await settle(pilot)
        assert screen.turned
        await pilot.click(turn)  # and back: it fits the slot the cursor went to unturned
        await settle(pilot)
        assert not screen.turned
        board = screen.query_one(BoardView)
        slot = screen.cursor
        assert slot is not None
        region = board.picture.slot_region(slot)
        await pilot.click(BoardView, offset=(region.x + 1, region.y + 1))  # the cursor's slot
        await settle(pilot)
        (sent,) = [frame["cmd"] for frame in host.last.sent if frame.get("t") == "play"]
        assert sent["card"] == chosen and sent["turned"] is False
        assert (sent["x"], sent["y"]) == slot


@pytest.mark.parametrize("game", list(SAMPLE_VIEWS))
async def test_a_game_set_match_table_asks_an_upright_phone_to_turn_sideways(game: str) -> None:
    room, view = TABLES[game]
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=UPRIGHT_PHONE) as pilot:
        await seat_ann(pilot, host, room, view)
        assert "Turn your phone sideways" in screen_text(app)
        assert footer_keys(app)  # Leave and Chat still answer
        await pilot.resize_terminal(*SIDEWAYS_PHONE)
        await settle(pilot)
        assert "Turn your phone sideways" not in screen_text(app)
        assert app.screen.query_one(BoardView).region.height > 0


async def test_a_dialog_taller_than_a_sideways_phone_pages_down_by_taps() -> None:
    """A finger cannot scroll the browser page's terminal: the create dialog's footer offers
    pgdn and pgup while it is taller than the screen, and the Create button comes into sight."""
    host = FakeHost()
    app = app_for(host)
    app.post_message(AppBlur())
    async with app.run_test(size=SIDEWAYS_PHONE) as pilot:
        await settle(pilot)
        (create,) = [key for key in footer_keys(app) if key.description == "Create"]
        await pilot.click(create)
        await settle(pilot)
        assert isinstance(app.screen, CreateRoomScreen)
        ok = app.screen.query_one("#ok", Button)

        def in_sight() -> bool:
            region = ok.region
            try:
                found, _ = app.screen.get_widget_at(region.x + 1, region.y)
            except Exception:
                return False
            return found is ok

        def page_key(description: str) -> FooterKey:
            drawn = app.screen.query(FooterKey).results(FooterKey)
            (key,) = [key for key in drawn if key.description == description]
            return key

        assert not in_sight()

        def dimmed(description: str) -> bool:
            return page_key(description).has_class("-disabled")

        assert dimmed("Up") and not dimmed("Down")  # at the top
        for _ in range(10):
            await pilot.click(page_key("Down"))
            await settle(pilot)
            if in_sight():
                break
        assert in_sight()
        for _ in range(10):  # to the end, where Down offers nothing more
            if dimmed("Down"):
                break
            await pilot.click(page_key("Down"))
            await settle(pilot)
        assert dimmed("Down") and not dimmed("Up")
        await pilot.click(ok)
        await settle(pilot)
        assert [frame for frame in host.last.sent if frame.get("t") == "create_room"]


async def test_the_empty_lobbys_keys_answer_a_tap() -> None:
    """ "No rooms yet. Press c to create one, or j to join by code.": c and j are taps too."""
    host = FakeHost(rooms=[])
    app = app_for(host)
    async with app.run_test(size=SIDEWAYS_PHONE) as pilot:
        await settle(pilot)
        lines = screen_text(app).splitlines()
        row = next(n for n, line in enumerate(lines) if "No rooms yet" in line)
        await pilot.click(offset=(lines[row].index("Press c") + len("Press "), row))
        await settle(pilot)
        assert isinstance(app.screen, CreateRoomScreen)
