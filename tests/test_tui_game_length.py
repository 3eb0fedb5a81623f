"""Games say their length: the room and the first round say about how many rounds, and the
create dialog offers the T-Shirt Game's shorter targets."""

from __future__ import annotations

from partyhost.net.clients.client import build
from partyhost.tui.shared.dialogs import CreateRoomScreen
from partyhost.tui.shared.gamelength import TSHIRT_ROUNDS, length_words, rough_rounds
from test_tui_flows import in_game, in_room
from textual.widgets import Select
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, screen_text, settle
from tuikit.samples import tshirt_view

SIZE = (80, 24)


def test_the_rough_length_follows_the_measured_table() -> None:
    assert rough_rounds("tshirt", {"target": 3000}, 4) == TSHIRT_ROUNDS[3000][4]
    assert rough_rounds("tshirt", {"target": 1000}, 3) == TSHIRT_ROUNDS[1000][3]
    assert rough_rounds("tshirt", {"target": 3000}, 10) == TSHIRT_ROUNDS[3000][8]  # most measured
    assert rough_rounds("tshirt", {"target": 6000}, 4) == 2 * TSHIRT_ROUNDS[3000][4]  # scaled
    assert rough_rounds("meme", {"target": 3000}, 4) is None
    assert length_words("tshirt", {"target": 1000}, 1) == (  # the room fills up still
        f"Length: ~{TSHIRT_ROUNDS[1000][3]} rounds (3 players)"
    )
    assert length_words("tshirt", {"target": 2000}, 5) == (
        f"Length: ~{TSHIRT_ROUNDS[2000][5]} rounds (5 players)"
    )


async def test_the_room_says_about_how_many_rounds_with_this_many_players() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(100, 30)) as pilot:
        await in_room(pilot, host)
        room = host.room
        assert room is not None
        words = length_words("tshirt", room["options"], len(room["seats"]))
        assert words == "Length: ~10 rounds (4 players)"  # 1,500: half way, from 1,000
        text = screen_text(app)
        assert "Points to win: 1500" in text and words in text


async def test_the_first_round_says_about_how_many_rounds_the_target_takes() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        view = tshirt_view(round=1)
        await in_game(pilot, host, view)
        rounds = rough_rounds("tshirt", {"target": view["target"]}, len(view["players"]))
        assert f"about {rounds} rounds" in screen_text(app)


async def test_the_create_dialog_offers_the_shorter_tshirt_targets() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, CreateRoomScreen)
        target = dialog.query_one("#option-target", Select)
        offered = [value for _, value in target._options]  # the choices, in order
        assert offered == ["1000", "2000", "3000"] and target.value == "3000"
        target.value = "1000"
        await pilot.press("ctrl+s")
        await settle(pilot)
        create = next(f for f in host.last.sent if f["t"] == "create_room")
        assert create["options"]["target"] == 1000
        assert create == build.create_room(
            "tshirt", deck=create["deck"], options=create["options"], password=None
        )
