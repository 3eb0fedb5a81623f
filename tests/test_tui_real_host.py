"""The client against a real host on loopback: a quick game, joining by code, a host restart."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from partyhost.net.clients.client import HostConnection
from partyhost.net.hosting.host import Host
from partyhost.tui.app import PartyApp
from partyhost.tui.play import QuickGame, default_bots
from partyhost.tui.shared.dialogs import ReconnectingScreen
from partyhost.tui.shared.roomscreen import RoomScreen
from partyhost.tui.tshirt.screen import TShirtScreen
from tuihost import ann_app, host_config, loopback_host, wait_until
from tuikit.pilot import screen_text

SIZE = (100, 30)
HEARTBEAT = 2.0
"""Seconds between the host's pings in the restart test: a host that stops is noticed within
seconds. The other tests keep the host's own heartbeat: their friend's connection shares a
loop with an app starting up, which on a loaded machine can keep it silent for seconds."""


@pytest.fixture
async def host() -> AsyncIterator[Host]:
    async with loopback_host() as running:
        yield running


def legal_type(app: PartyApp) -> str | None:
    legal = (app.view or {}).get("legal") or []
    return str(legal[0]["type"]) if legal else None


async def test_quick_game_plays_a_round_as_submitter_and_one_as_judge(host: Host) -> None:
    app = ann_app(host.port, QuickGame("tshirt", default_bots(3, 10)))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TShirtScreen))
        assert len(app.room["seats"]) == 4  # type: ignore[index]
        done: set[str] = set()
        while done != {"submit", "pick"}:
            await wait_until(
                pilot,
                lambda: legal_type(app) in ("submit", "pick", "booyah"),
                read_results=True,
            )
            kind = legal_type(app)
            version = app.view["version"]  # type: ignore[index]
            if kind == "booyah":
                await wait_until(pilot, lambda: app.screen.__class__.__name__ == "BooyahScreen")
                await pilot.press("k")
            else:
                await pilot.press("1", "enter")
                done.add(str(kind))
            await wait_until(
                pilot,
                lambda v=version: app.view["version"] != v,  # type: ignore[index]
                read_results=True,
            )
        await wait_until(pilot, lambda: "played a slogan" in screen_text(app))
        assert "wins the round" in screen_text(app) or app.view["last_round"]  # type: ignore[index]


async def test_join_a_friends_room_by_code(host: Host) -> None:
    friend = await HostConnection.connect("127.0.0.1", host.port, "Bea")
    await friend.create_room("tshirt")
    joined = await friend.wait_for("joined")
    app = ann_app(host.port)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.link == "online")
        await pilot.press("j", *joined["code"], "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, RoomScreen))
        await wait_until(
            pilot, lambda: "Bea" in screen_text(app) and "Ann (you)" in screen_text(app)
        )
        await pilot.press("c", *"hello Bea", "enter")
        line = await friend.wait_for("chat_line")
        assert line["text"] == "hello Bea" and line["name"] == "Ann"
    await friend.close()


async def test_the_game_comes_back_after_the_host_restarts(tmp_path: Path) -> None:
    first = Host(host_config(data_dir=tmp_path, heartbeat_interval=HEARTBEAT))
    await first.start()
    port = first.port
    app = ann_app(port, QuickGame("tshirt", 3))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TShirtScreen) and app.view)
        await first.close("restarting")
        await wait_until(pilot, lambda: isinstance(app.screen, ReconnectingScreen))
        await wait_until(pilot, lambda: "Connection lost" in screen_text(app))
        assert "Scores" in screen_text(app)
        second = Host(host_config(port=port, data_dir=tmp_path, heartbeat_interval=HEARTBEAT))
        await second.start()
        try:
            await wait_until(pilot, lambda: app.link == "online", seconds=15)
            await wait_until(pilot, lambda: isinstance(app.screen, TShirtScreen))
            await wait_until(pilot, lambda: legal_type(app) is not None or app.view)
            assert app.room is not None and app.room["status"] == "playing"
        finally:
            await second.close()
    await asyncio.sleep(0)
