"""Bot levels: the owner picks how quickly an in-host bot reacts, and everyone sees it.

A level (easy, normal, hard) travels with ``add_bot``, shows in the room's
seat list as ``bot_level`` and sets the bot's thinking delay: the game's own
range where it has one (the real-time Game, Set, Match! games; never shorter
than the host's delay), otherwise the host's delay scaled by level.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from pathlib import Path

import pytest
from nethelpers import Seat, running_host, table
from partyhost.engine.core import BOT_LEVELS
from partyhost.engine.gsm.bot import BOT_DELAYS
from partyhost.engine.registry import get_game
from partyhost.net import protocol as p
from partyhost.net.clients.client import build
from partyhost.net.hosting.host import Host
from partyhost.net.rooms.hostbots import LEVEL_SCALE, BotBrain, thinking_delay
from partyhost.net.rooms.roster import Member
from partyhost.net.store.database import Store
from partyhost.net.store.records import MEMBER_COLUMNS

HOST_DELAY = (30.0, 40.0)
"""Long enough that no bot acts while a test looks at it."""


class HighestJitter(random.Random):
    """A jitter that always draws the top of the range, so due times are exact."""

    def random(self) -> float:
        return 1.0


def bots_of(host: Host, code: str) -> list[Member]:
    assert host.lobby is not None
    return [member for member in host.lobby.rooms[code].members if member.bot]


async def add_bot(owner: Seat, level: str | None = None) -> dict[str, object]:
    """Ask for a bot (``level`` None: say nothing) and return the room frame that seats it."""
    before = len(owner.room["seats"]) if owner.room else 0
    mark = owner.mark()
    await owner.send(build.add_bot() if level is None else build.add_bot(level))
    return await owner.expect(p.ROOM, since=mark, where=lambda r: len(r["seats"]) > before)


async def owner_of_room(port: int, game: str) -> tuple[Seat, str]:
    owner = await Seat.open(port, "Ann")
    await owner.create_room(game)
    joined = await owner.expect(p.JOINED)
    await owner.expect(p.ROOM)
    return owner, str(joined["code"])


# --- the request -----------------------------------------------------------------


async def test_a_bot_is_normal_unless_the_owner_names_a_level() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann"], start=False)
        ann = seats[0]
        room = await add_bot(ann)
        assert room["seats"][1]["bot_level"] == "normal"
        room = await add_bot(ann, "easy")
        room = await add_bot(ann, "hard")
        assert [(s["name"], s["bot"], s["bot_level"]) for s in room["seats"]] == [
            ("Ann", False, None),
            ("Bot 1", True, "normal"),
            ("Bot 2", True, "easy"),
            ("Bot 3", True, "hard"),
        ]
        notices = [m["text"] for m in ann.log if m["t"] == p.NOTICE]
        assert "Bot 2 (an easy bot) joined." in notices
        assert "Bot 3 (a hard bot) joined." in notices
        await ann.close()


@pytest.mark.parametrize("level", ["insane", "EASY", ""])
async def test_an_unknown_level_is_refused_with_bad_level_and_seats_nobody(level: str) -> None:
    async with running_host() as host:
        seats, code = await table(host.port, ["Ann"], start=False)
        ann = seats[0]
        await ann.add_bot(level)
        error = await ann.expect(p.ERROR)
        assert error["code"] == "bad_level"
        assert "easy, normal or hard" in error["message"]
        assert bots_of(host, code) == []
        await ann.close()


async def test_only_the_owner_adds_bots_whatever_the_level() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann", "Bob"], start=False)
        await seats[1].add_bot("nonsense")
        assert (await seats[1].expect(p.ERROR))["code"] == "not_owner"
        for seat in seats:
            await seat.close()


def test_bad_level_is_a_documented_error_code() -> None:
    assert "bad_level" in p.ERROR_CODES


# --- the thinking delay -----------------------------------------------------------


def test_levels_scale_the_host_delay_easy_slowest() -> None:
    assert set(LEVEL_SCALE) == set(BOT_LEVELS)
    assert LEVEL_SCALE["easy"] > LEVEL_SCALE["normal"] == 1.0 > LEVEL_SCALE["hard"]


@pytest.mark.parametrize("game_id", ["stealing-home", "scramble", "four-corners"])
def test_real_time_games_use_their_own_delays_per_level(game_id: str) -> None:
    game = get_game(game_id)
    for level in BOT_LEVELS:
        assert thinking_delay(game, level, (0.0, 0.0)) == BOT_DELAYS[game_id][level]


def test_a_slower_host_delay_slows_a_real_time_bot_too() -> None:
    game = get_game("scramble")
    assert thinking_delay(game, "hard", (0.4, 1.2)) == BOT_DELAYS["scramble"]["hard"]
    assert thinking_delay(game, "hard", (10.0, 60.0)) == (10.0, 60.0)


@pytest.mark.parametrize("game_id", ["tshirt", "meme", "gridiron"])
def test_turn_based_games_use_the_host_delay_scaled_by_level(game_id: str) -> None:
    game = get_game(game_id)
    assert "normal" not in game.bot_delays
    assert thinking_delay(game, "normal", (1.0, 2.0)) == (1.0, 2.0)
    assert thinking_delay(game, "easy", (1.0, 2.0)) == (2.5, 5.0)
    assert thinking_delay(game, "hard", (1.0, 2.0)) == (0.5, 1.0)


async def test_the_host_bot_pace_scales_every_thinking_time() -> None:
    async with running_host(bot_delay=(1.0, 2.0), bot_pace=0.1) as host:
        ann, code = await owner_of_room(host.port, "stealing-home")
        await add_bot(ann, "hard")
        (bot,) = bots_of(host, code)
        low, high = BOT_DELAYS["stealing-home"]["hard"]
        assert bot.brain is not None and bot.brain.delay == pytest.approx((low / 10, high / 10))
        await ann.close()


def test_a_bot_facing_new_moves_thinks_afresh_and_keeps_its_plan_otherwise() -> None:
    """New cards turned up while a bot was thinking: it looks at them for its full delay."""
    brain = BotBrain(1, (5.0, 9.0))
    round_one = [{"type": "match", "cards": [1, 2]}]
    brain.arm(100.0, HighestJitter(), round_one)
    brain.arm(104.0, HighestJitter(), list(round_one))  # someone else moved
    assert brain.due == 109.0
    brain.arm(108.0, HighestJitter(), [{"type": "match", "cards": [3, 4]}])
    assert brain.due == 117.0


async def test_bots_wake_nobody_once_the_game_is_over() -> None:
    """A plan left from the last move must not keep an ended room's task spinning."""
    async with running_host(bot_delay=(0.0, 0.0)) as host:
        seats, code = await table(host.port, ["Ann"], start=False, options={"target": 6})
        ann = seats[0]
        await add_bot(ann, "hard")
        await ann.start_game()
        assert host.lobby is not None
        room = host.lobby.rooms[code]
        async with asyncio.timeout(20):
            while room.status != p.OVER:
                shown = ann.view
                legal = (shown or {}).get("view", {}).get("legal") or []
                if legal:
                    await ann.play(legal[0])
                await asyncio.sleep(0.05)
        (bot,) = bots_of(host, code)
        assert bot.brain is not None
        bot.brain.arm(time.time(), HighestJitter())  # a plan from before the end
        assert room.next_wake() is None or room.next_wake() > time.time() + 1
        await ann.close()


async def test_a_bot_in_a_turn_based_game_is_armed_from_the_scaled_host_delay() -> None:
    async with running_host(bot_delay=HOST_DELAY) as host:
        seats, code = await table(host.port, ["Ann"], start=False)
        ann = seats[0]
        await add_bot(ann, "easy")
        await add_bot(ann, "hard")
        assert host.lobby is not None
        host.lobby.rooms[code].bots.jitter = HighestJitter()
        started = time.time()
        mark = ann.mark()
        await ann.start_game()
        await ann.expect(p.VIEW, since=mark)
        armed = time.time()
        easy, hard = bots_of(host, code)
        assert easy.brain is not None and hard.brain is not None
        assert easy.brain.delay == (75.0, 100.0) and hard.brain.delay == (15.0, 20.0)
        assert easy.brain.due is not None and hard.brain.due is not None
        assert started + 100.0 <= easy.brain.due <= armed + 100.0
        assert started + 20.0 <= hard.brain.due <= armed + 20.0
        await ann.close()


@pytest.mark.parametrize("level", BOT_LEVELS)
async def test_a_four_corners_bot_reacts_at_the_games_pace_for_its_level(level: str) -> None:
    async with running_host(bot_delay=(0.0, 0.0)) as host:
        ann, code = await owner_of_room(host.port, "four-corners")
        room = await add_bot(ann, level)
        assert room["seats"][1]["bot_level"] == level
        assert host.lobby is not None
        host.lobby.rooms[code].bots.jitter = HighestJitter()
        started = time.time()
        mark = ann.mark()
        await ann.start_game()
        await ann.expect(p.VIEW, since=mark)
        armed = time.time()
        (bot,) = bots_of(host, code)
        assert bot.brain is not None and bot.brain.due is not None
        high = BOT_DELAYS["four-corners"][level][1]
        assert started + high <= bot.brain.due <= armed + high
        await ann.close()


# --- the store ----------------------------------------------------------------------


async def test_the_level_is_journaled_with_the_bot_seat(tmp_path: Path) -> None:
    async with running_host(data_dir=tmp_path) as host:
        seats, _ = await table(host.port, ["Ann"], start=False)
        await add_bot(seats[0], "hard")
        await seats[0].close()
    journal = Store(tmp_path)
    try:
        (stored,) = journal.load()
    finally:
        journal.close()
    assert [(m.name, m.bot_level) for m in stored.members] == [("Ann", None), ("Bot 1", "hard")]


async def test_a_bots_level_survives_a_host_restart(tmp_path: Path) -> None:
    async with running_host(data_dir=tmp_path, bot_delay=HOST_DELAY) as first:
        seats, code = await table(first.port, ["Ann"], start=False)
        await add_bot(seats[0], "easy")
        token = seats[0].conn.token
        await seats[0].close()
    async with running_host(data_dir=tmp_path, bot_delay=HOST_DELAY) as second:
        ann = await Seat.open(second.port, "Ann", token=token)
        room = await ann.expect(p.ROOM)
        (bot,) = bots_of(second, code)
        await ann.close()
    assert [(s["name"], s["bot_level"]) for s in room["seats"]] == [
        ("Ann", None),
        ("Bot 1", "easy"),
    ]
    assert bot.brain is not None and bot.brain.delay == (75.0, 100.0)


def test_a_journal_from_before_bot_levels_opens_and_reads_as_no_level(tmp_path: Path) -> None:
    old = sqlite3.connect(tmp_path / "host.sqlite3")
    old.executescript(
        """
        CREATE TABLE members (
            code TEXT NOT NULL, member INTEGER NOT NULL, seat INTEGER, name TEXT NOT NULL,
            token_hash TEXT, bot INTEGER NOT NULL, bot_seed INTEGER NOT NULL,
            ready INTEGER NOT NULL, left_room INTEGER NOT NULL, PRIMARY KEY (code, member)
        );
        """
    )
    old.close()
    journal = Store(tmp_path)
    try:
        columns = [row[1] for row in journal._db.execute("PRAGMA table_info(members)")]
        assert "bot_level" in columns and set(MEMBER_COLUMNS) <= set(columns)
        assert journal.load() == []
    finally:
        journal.close()
