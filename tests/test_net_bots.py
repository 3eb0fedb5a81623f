"""Network bots: real clients that play from their views and come back when dropped."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from nethelpers import LOOPBACK, counting, running_host
from partyhost.net import protocol as p
from partyhost.net.clients.client import ReconnectPolicy, RequestMethods
from partyhost.net.clients.netbot import NetBot, run_network_bots

FAST = ReconnectPolicy(first_delay=0.05, max_delay=0.2, attempts=20, total_seconds=10)


async def _owner_with_room(
    port: int, players: int, target: int = 60
) -> tuple[NetBot, str, asyncio.Task[None]]:
    """A bot that creates a counting room and starts it once ``players`` are seated."""
    counting()
    owner = NetBot(LOOPBACK, port, "Owner", delay=0.0, seed=1, policy=FAST)
    task = asyncio.create_task(
        owner.play(create={"game": "counting", "options": {"target": target}}, start_with=players)
    )
    async with asyncio.timeout(5):
        while owner.code is None:
            await asyncio.sleep(0.01)
    return owner, owner.code, task


async def test_network_bots_join_by_code_and_play_to_the_end() -> None:
    async with running_host() as host:
        owner, code, owner_task = await _owner_with_room(host.port, 3)
        async with asyncio.timeout(20):
            await asyncio.gather(run_network_bots(LOOPBACK, host.port, code, 2, 0.0), owner_task)
        assert owner.room is not None and owner.room["status"] == p.OVER
        assert [seat["name"] for seat in owner.room["seats"]] == ["Owner", "Netbot 1", "Netbot 2"]


async def test_a_dropped_network_bot_rejoins_with_its_token_and_the_game_finishes() -> None:
    async with running_host() as host:
        owner, code, owner_task = await _owner_with_room(host.port, 3, target=200)
        bots = [
            NetBot(LOOPBACK, host.port, f"Bot {n}", delay=0.0, seed=n, policy=FAST) for n in (2, 3)
        ]
        tasks = [asyncio.create_task(bot.play(code)) for bot in bots]
        async with asyncio.timeout(10):
            while owner.view is None or owner.view["version"] < 10:
                await asyncio.sleep(0.01)
        victim = bots[0].client
        assert victim is not None and victim.connection is not None
        victim.connection._writer.transport.abort()
        async with asyncio.timeout(20):
            await asyncio.gather(*tasks, owner_task)
        assert bots[0].statuses[0] == "lost" and "restored" in bots[0].statuses
        assert owner.room is not None and owner.room["status"] == p.OVER
        assert len(owner.room["seats"]) == 3


async def test_a_network_bot_gives_up_on_a_room_that_does_not_exist() -> None:
    async with running_host() as host:
        async with asyncio.timeout(5):
            await run_network_bots(LOOPBACK, host.port, "ZZZZ", 2, 0.0)


class ScriptedLink(RequestMethods[Awaitable[None]]):
    """Stands in for a bot's connection: hands out ``script``, records what the bot sends."""

    def __init__(self, script: list[dict[str, object]]) -> None:
        self.script = script
        self.sent: list[dict[str, Any]] = []

    async def recv(self) -> dict[str, object]:
        assert self.script, "the bot asked for more than the script holds"
        return self.script.pop(0)

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


async def test_an_owner_bot_whose_last_game_ended_starts_no_other() -> None:
    """Back after the end, it sees the others already ready; one game means one game.

    (Found by bench/chaos.py: the owner's start wiped the finished game from the journal.)
    """
    counting()

    def room(status: str, others_ready: bool) -> dict[str, object]:
        seats = [
            {"seat": 0, "ready": False, "left": False},
            {"seat": 1, "ready": others_ready, "left": False},
        ]
        return {
            "t": p.ROOM,
            "game": "counting",
            "status": status,
            "owner": 0,
            "you": 0,
            "seats": seats,
        }

    bot = NetBot(LOOPBACK, 1, "Owner", delay=0.0, seed=1)
    link = ScriptedLink([room(p.PLAYING, True), room(p.OVER, True)])
    bot.client = link  # type: ignore[assignment]
    async with asyncio.timeout(5):
        await bot._loop(start_with=2, games=1)
    assert link.sent == [], "the bot acted in a room whose last game it had finished"
