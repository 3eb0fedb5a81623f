"""The help screen (F1 / ?): each game's rules and keys, a page a game, the game on screen first.

Keys are read from the screens' bindings, so these tests check that each
game's own keys (and the shared screens' keys) are named, that the game on
screen comes first, and that the other games are there too. The room screen's
bot level choice is tested here as well: it is what the help's Room keys name.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from partyhost.net.clients.client import build
from partyhost.tui.games import GAMES
from partyhost.tui.help import HelpScreen, key_list
from partyhost.tui.shared.base import PartyScreen
from partyhost.tui.shared.roomscreen import BotLevelScreen, RoomScreen
from textual.pilot import Pilot
from textual.widgets import Static
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, screen_text, settle
from tuikit.samples import sample_room, seat_entry, tshirt_view, view_frame
from tuikit.samples_gsm import SAMPLE_VIEWS, gsm_room
from tuikit.samples_meme import meme_room, meme_view

Frame = dict[str, Any]
GAME_IDS = ["tshirt", "stealing-home", "scramble", "gridiron", "four-corners", "meme"]
OWN_KEYS: dict[str, list[tuple[str, str]]] = {
    "tshirt": [("1-9", "Choose"), ("⏎", "Confirm"), ("b", "Booyah"), ("k", "Keep")],
    "stealing-home": [("1-9", "Card"), ("m/⏎", "Match!"), ("n", "No fit"), ("r", "Turn")],
    "scramble": [("⏎", "Place"), ("t/⌫", "Take back"), ("g", "Game!"), ("s", "Stuck")],
    "gridiron": [("⏎", "Place"), ("d/⏎", "Draw"), ("p/⏎", "Pass"), ("hjkl", "Move")],
    "four-corners": [
        ("⏎", "Place"),
        ("t/⌫", "Take back"),
        ("s", "Stuck"),
        ("i", "Color letters on/off"),
    ],
    "meme": [("r/⏎", "Roll"), ("1-7", "Meme"), ("1-6", "Guess"), ("a", "Max"), ("^s", "Use it")],
}
"""A few keys each game's screen (and its dialogs) binds, as the help shows them."""


def room_and_view(game: str) -> tuple[Frame, Frame]:
    """The room frame and a view of ``game`` in play, from the test samples."""
    if game == "tshirt":
        return sample_room(status="playing"), tshirt_view()
    if game == "meme":
        return meme_room(), meme_view()
    return gsm_room(game, seats=2 if game == "four-corners" else 4), SAMPLE_VIEWS[game]()


async def open_help(pilot: Pilot[int], host: FakeHost, game: str, key: str = "f1") -> HelpScreen:
    """Ann at a table of ``game``, then the help opened with ``key``."""
    await settle(pilot)
    room, view = room_and_view(game)
    host.room = room
    host.last.push(
        {"t": "joined", "code": "KQZD", "seat": 0, "token": "t"},
        copy.deepcopy(room),
        view_frame(view),
    )
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, PartyScreen) and screen.KIND == "game"
    await pilot.press(key)
    await settle(pilot)
    assert isinstance(pilot.app.screen, HelpScreen)
    return pilot.app.screen


def text_of(help_screen: HelpScreen, selector: str) -> str:
    return str(help_screen.query_one(selector, Static).render())


def has_row(text: str, keys: str, description: str) -> bool:
    return any(line.split() == [keys, *description.split()] for line in text.splitlines())


@pytest.mark.parametrize("game", GAME_IDS)
async def test_the_help_for_a_game_names_its_rules_and_keys_first(game: str) -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(120, 40)) as pilot:
        help_screen = await open_help(pilot, host, game)
        assert help_screen.current_game() == game
        rules, keys = text_of(help_screen, "#help-rules"), text_of(help_screen, "#help-keys")
        assert rules.startswith(f"How to play {GAMES[game].title}")
        for key, description in OWN_KEYS[game]:
            assert has_row(keys, key, description), (key, description, keys)
        places = [line for line in keys.splitlines() if line and not line.startswith(" ")]
        assert places[:2] == ["Keys", GAMES[game].title]
        assert keys.index(GAMES[game].title) < keys.index("Everywhere") < keys.index("Room")
        assert f"How to play {GAMES[game].title}" in screen_text(app)


@pytest.mark.parametrize("game", GAME_IDS)
async def test_the_help_also_explains_every_other_game_with_its_keys(game: str) -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(120, 40)) as pilot:
        help_screen = await open_help(pilot, host, game)
        assert not help_screen.query(f"#help-{game}")
        for other in GAME_IDS:
            if other == game:
                continue
            page = text_of(help_screen, f"#help-{other}")
            assert page.startswith(f"How to play {GAMES[other].title}")
            assert GAMES[other].rules.split()[0] in page
            for key, description in OWN_KEYS[other]:
                assert has_row(page, key, description), (other, key, description)


async def test_the_help_opens_on_this_game_and_the_arrows_turn_to_the_others() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_help(pilot, host, "meme")
        shown = screen_text(app)
        assert "How to play What Do You Meme?" in shown
        assert "How to play The T-Shirt Game" not in shown  # one game a page, not one long scroll
        assert "Next game" in shown  # the footer says the other games are a key away
        others = [game for game in GAME_IDS if game != "meme"]
        for game in others:
            await pilot.press("right")
            await settle(pilot)
            assert f"How to play {GAMES[game].title}" in screen_text(app), game
        await pilot.press("right")  # round again to the game on screen
        await settle(pilot)
        assert "How to play What Do You Meme?" in screen_text(app)
        await pilot.press("left")
        await settle(pilot)
        assert f"How to play {GAMES[others[-1]].title}" in screen_text(app)


def find_on_screen(app: Any, words: str) -> tuple[int, int]:
    """Where ``words`` start on the app's screen (column, row)."""
    for row, line in enumerate(screen_text(app).splitlines()):
        if words in line:
            return line.index(words), row
    raise AssertionError(f"{words!r} is not on the screen")


async def test_a_tap_on_a_games_name_turns_to_its_page() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(93, 18)) as pilot:  # a phone held sideways
        await open_help(pilot, host, "meme")
        title = GAMES["gridiron"].title
        assert f"How to play {title}" not in screen_text(app)
        await pilot.click(offset=find_on_screen(app, title))
        await settle(pilot)
        assert f"How to play {title}" in screen_text(app)


async def test_a_page_taller_than_the_screen_has_page_keys_to_tap() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(93, 18)) as pilot:
        help_screen = await open_help(pilot, host, "tshirt")
        footer = screen_text(app).splitlines()[-1]
        assert "pgdn Down" in footer
        scroller = help_screen.page_scroller()
        assert scroller is not None and scroller.scroll_y == 0
        await pilot.click(offset=find_on_screen(app, "pgdn Down"))
        await settle(pilot)
        assert scroller.scroll_y > 0
    app = app_for(host)
    async with app.run_test(size=(160, 120)) as pilot:
        help_screen = await open_help(pilot, host, "tshirt")
        scroller = help_screen.page_scroller()
        assert scroller is not None and scroller.max_scroll_y == 0  # all of it in sight
        assert "pgdn" not in screen_text(app).splitlines()[-1]


async def test_the_shared_screens_keys_are_listed_for_every_game() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(120, 40)) as pilot:
        keys = text_of(await open_help(pilot, host, "meme", key="question_mark"), "#help-keys")
        for key, description in [
            ("f1/?", "Help"),
            ("c", "Create"),
            ("j", "Join code"),
            ("b", "Add bot"),
            ("B", "Add bot: easy/normal/hard"),
            ("h", "Hard"),
            ("⏎/esc", "Back to lobby"),
            ("esc", "Done chatting"),
        ]:
            assert has_row(keys, key, description), (key, description)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, HelpScreen)


def test_keys_doing_the_same_thing_share_a_row() -> None:
    assert key_list(["1", "2", "3", "4", "5", "6"]) == "1-6"
    assert key_list(["t", "⌫"]) == "t/⌫"
    assert key_list(["1", "3", "4"]) == "1/3/4"
    assert list(GAMES) == GAME_IDS


# --- the room screen: bots with a level --------------------------------------------


async def in_room(pilot: Pilot[int], host: FakeHost, seats: list[Frame]) -> None:
    await settle(pilot)
    host.room = sample_room(seats=seats)
    host.last.push({"t": "joined", "code": "KQZD", "seat": 0, "token": "t"}, host.room)
    await settle(pilot)


async def test_the_owner_adds_a_normal_bot_with_b_and_picks_a_level_with_shift_b() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await in_room(pilot, host, [seat_entry(0, "Ann", ready=True)])
        assert isinstance(app.screen, RoomScreen)
        await pilot.press("b")
        await pilot.press("B")
        await settle(pilot)
        assert isinstance(app.screen, BotLevelScreen)
        assert "Easy" in screen_text(app) and "Hard" in screen_text(app)
        await pilot.press("e")
        await settle(pilot)
        await pilot.press("B")
        await settle(pilot)
        await pilot.click("#level-hard")
        await settle(pilot)
        await pilot.press("B")
        await settle(pilot)
        await pilot.press("enter")  # the default, normal, has the focus
        await settle(pilot)
        await pilot.press("B")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        bots = [frame for frame in host.last.sent if frame.get("t") == "add_bot"]
        assert bots == [
            build.add_bot(),
            build.add_bot("easy"),
            build.add_bot("hard"),
            build.add_bot("normal"),
        ]


async def test_the_keys_the_owners_line_names_work_for_a_finger() -> None:
    """ "Add bots with b (B picks how good), then press s to start.": each key is a tap too
    (the level choice has no footer key)."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(93, 18)) as pilot:
        await in_room(pilot, host, [seat_entry(0, "Ann", ready=True)])
        column, row = find_on_screen(app, "B picks how")
        await pilot.click(offset=(column + 2, row))
        await settle(pilot)
        assert isinstance(app.screen, BotLevelScreen)
        await pilot.press("h")
        await settle(pilot)
        column, row = find_on_screen(app, "Add bots with b")
        await pilot.click(offset=(column + len("Add bots with "), row))
        await settle(pilot)
        bots = [frame for frame in host.last.sent if frame.get("t") == "add_bot"]
        assert bots == [build.add_bot("hard"), build.add_bot()]


async def test_only_the_owner_may_pick_a_bot_level() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        host.room = sample_room(you=1, owner=0)
        host.last.push({"t": "joined", "code": "KQZD", "seat": 1, "token": "t"}, host.room)
        await settle(pilot)
        await pilot.press("B")
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        assert "add_bot" not in host.last.sent_types()


async def test_the_seat_list_shows_each_bots_level() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        seats = [
            seat_entry(0, "Ann", ready=True),
            seat_entry(1, "Bot 1", ready=True, bot=True, bot_level="easy"),
            seat_entry(2, "Bot 2", ready=True, bot=True, bot_level="hard"),
            seat_entry(3, "Bea"),
        ]
        await in_room(pilot, host, seats)
        text = screen_text(app)
        assert "Bot 1 (easy)  ✔ ready" in text
        assert "Bot 2 (hard)  ✔ ready" in text
        assert "Bea  · not ready" in text
