"""A door's visitors share the host's cores, a room of them at once, so their clients do
less for each screen: a lobby dialog covers a plain background instead of the dimmed
lobby (which a redraw had to blend in), and what start-up made is kept out of the
collector's full passes once the first main screen is drawn."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from partyhost.cli import main
from partyhost.tui.app import PartyApp
from partyhost.tui.shared.dialogs import CreateRoomScreen
from partyhost.tui.shared.lobbyscreen import LobbyScreen
from tuikit.fakehost import FakeHost
from tuikit.pilot import catch_join, settle

SIZE = (93, 18)
"""A phone held sideways at the browser door."""
ADDRESS = "partybox:7777"


async def create_dialog_background_alpha(app: PartyApp) -> float:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, CreateRoomScreen)
        return app.screen.styles.background.a


async def test_a_door_visitors_dialog_covers_a_plain_background() -> None:
    app = PartyApp(FakeHost(), address=ADDRESS, name="Ann", locked=True, animate=False)
    assert await create_dialog_background_alpha(app) == 1


async def test_a_joined_clients_dialog_still_dims_the_lobby_beneath() -> None:
    app = PartyApp(FakeHost(), address=ADDRESS, name="Ann", remember=False, animate=False)
    assert await create_dialog_background_alpha(app) < 1


@pytest.fixture
def thawed() -> Iterator[None]:
    """The test process's objects, unfrozen again after the test (pytest runs many apps)."""
    gc.unfreeze()
    yield
    gc.unfreeze()


async def test_start_up_is_frozen_once_the_lobby_is_drawn(thawed: None) -> None:
    app = PartyApp(FakeHost(), address=ADDRESS, name="Ann", remember=False, freeze_start_up=True)
    async with app.run_test(size=SIZE) as pilot:
        assert gc.get_freeze_count() == 0  # connecting: not yet
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert gc.get_freeze_count() > 0


async def test_a_client_sharing_its_process_freezes_nothing(thawed: None) -> None:
    app = PartyApp(FakeHost(), address=ADDRESS, name="Ann", remember=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
    assert gc.get_freeze_count() == 0


def test_partyhost_join_runs_its_client_alone_in_its_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened = catch_join(monkeypatch)
    assert main(["join", "127.0.0.1:1", "--no-remember"]) == 0
    assert [client["freeze_start_up"] for client in opened] == [True]
