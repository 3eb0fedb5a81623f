"""A door's visitors share the host's cores, a room of them at once, so their clients do
less for each screen: a lobby dialog covers a plain background instead of the dimmed
lobby (which a redraw had to blend in), and what start-up made is kept out of the
collector's full passes once the first main screen is drawn, and the lobby builds its
dialogs before they are first asked for."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest
from partyhost.cli import main
from partyhost.tui.app import PartyApp
from partyhost.tui.shared.dialogs import CreateRoomScreen, JoinRoomScreen
from partyhost.tui.shared.lobbyscreen import CREATE_DIALOG, JOIN_DIALOG, LobbyScreen
from textual import events
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
    app = PartyApp(FakeHost(), address=ADDRESS, name="Ann", remember=False, own_process=True)
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


async def test_a_client_alone_in_its_process_builds_the_lobby_dialogs_ahead(thawed: None) -> None:
    app = PartyApp(FakeHost(), address=ADDRESS, name="Ann", locked=True, own_process=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)  # built off-stage: the lobby stays on top
        built = {name: app.get_screen(name) for name in (CREATE_DIALOG, JOIN_DIALOG)}
        assert all(dialog.is_mounted for dialog in built.values())
        for key, name, kind in (
            ("c", CREATE_DIALOG, CreateRoomScreen),
            ("j", JOIN_DIALOG, JoinRoomScreen),
        ):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, kind)
            assert app.screen is built[name]  # the one built ahead, not another
            await pilot.press("escape")
            await settle(pilot)
            assert isinstance(app.screen, LobbyScreen)


async def test_a_client_sharing_its_process_builds_a_dialog_when_asked(thawed: None) -> None:
    app = PartyApp(FakeHost(), address=ADDRESS, name="Ann", remember=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not app.is_screen_installed(CREATE_DIALOG)
        assert not app.is_screen_installed(JOIN_DIALOG)


def test_partyhost_join_runs_its_client_alone_in_its_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened = catch_join(monkeypatch)
    assert main(["join", "127.0.0.1:1", "--no-remember"]) == 0
    assert [client["own_process"] for client in opened] == [True]


async def test_keys_pressed_while_the_dialogs_are_built_reach_the_lobby(
    thawed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_ahead = LobbyScreen.prepare_dialogs
    pushed: list[object] = []
    refreshed: list[str] = []

    async def pressed_meanwhile(lobby: LobbyScreen) -> None:
        app = lobby.app
        push = app.push_screen

        def push_and_press(*args: Any, **kwargs: Any) -> Any:
            pushed.append(args[0])
            app.post_message(events.Key("r", "r"))  # pressed with a dialog built off-stage
            return push(*args, **kwargs)

        app.push_screen = push_and_press  # type: ignore[method-assign]
        try:
            await build_ahead(lobby)
        finally:
            del app.push_screen

    monkeypatch.setattr(LobbyScreen, "prepare_dialogs", pressed_meanwhile)
    monkeypatch.setattr(LobbyScreen, "action_refresh", lambda lobby: refreshed.append("r"))
    app = PartyApp(
        FakeHost(), address=ADDRESS, name="Ann", locked=True, own_process=True, animate=False
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert {type(dialog) for dialog in pushed} == {CreateRoomScreen, JoinRoomScreen}
        assert refreshed == ["r"] * len(pushed)  # a key each time a dialog was on top, none lost
