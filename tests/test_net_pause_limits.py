"""An owner's pause has limits: a rate, a time limit, and the table's majority.

Each test runs against a real host on loopback: an owner toggling pause and
resume as fast as it can must not flood the others with notices, a pause
must end by itself once its limit (shown in the room message) is reached,
most of the table may resume without the owner, and the grace period of a
disconnected player stands still while the game is paused.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from nethelpers import Message, Seat, running_host, table
from partyhost.net import protocol as p


def presence(seat_number: int, state: str) -> Callable[[Message], bool]:
    def matches(room: Message) -> bool:
        return any(s["seat"] == seat_number and s["presence"] == state for s in room["seats"])

    return matches


def seat_entry(seat: Seat, seat_number: int) -> Message:
    room = seat.room
    assert room is not None
    return next(s for s in room["seats"] if s["seat"] == seat_number)


async def paused(seat: Seat, since: int) -> Message:
    room = await seat.expect(p.ROOM, since=since, where=lambda r: r["paused"] is not None)
    shown = room["paused"]
    assert isinstance(shown, dict)
    return shown


async def test_an_owner_toggling_pause_cannot_flood_the_table() -> None:
    async with running_host() as host:
        (ann, bob), _ = await table(host.port, ["Ann", "Bob"])
        mark = bob.mark()
        for _ in range(50):
            await ann.pause_game()
            await ann.resume_game()
        await ann.until(
            lambda: (
                sum(1 for m in ann.log if m["t"] == p.ERROR and m["code"] == "rate_limited") >= 20
            )
        )
        await asyncio.sleep(0.3)
        notices = [m for m in bob.log[mark:] if m["t"] == p.NOTICE]
        assert len(notices) <= 15, len(notices)  # the burst of 10, and a little refill
        await ann.close()
        await bob.close()


async def test_a_pause_ends_by_itself_at_the_limit_the_room_shows() -> None:
    async with running_host(max_pause_seconds=1.5) as host:
        (ann, bob), _ = await table(host.port, ["Ann", "Bob"])
        mark = bob.mark()
        before = time.time()
        await ann.pause_game()
        shown = await paused(bob, mark)
        assert before + 1.4 <= shown["until"] <= time.time() + 1.6
        await bob.expect(p.ROOM, since=mark, where=lambda r: r["paused"] is None, timeout=5)
        notice = await bob.expect(p.NOTICE, since=mark, where=lambda n: "pause" in n["text"])
        assert "goes on" in notice["text"]
        await ann.close()
        await bob.close()


async def test_most_of_the_table_resumes_without_the_owner() -> None:
    async with running_host() as host:
        (ann, bob, cid), _ = await table(host.port, ["Ann", "Bob", "Cid"])
        mark = ann.mark()
        await ann.pause_game()
        await paused(ann, mark)
        mark = ann.mark()
        await bob.resume_game()
        shown = await ann.expect(
            p.ROOM, since=mark, where=lambda r: bool(r["paused"] and r["paused"]["asking"])
        )
        assert shown["paused"]["asking"] == [1]  # one of three: not yet
        await cid.resume_game()
        await ann.expect(p.ROOM, since=mark, where=lambda r: r["paused"] is None)
        for seat in (ann, bob, cid):
            await seat.close()


async def test_a_grace_period_stands_still_while_the_game_is_paused() -> None:
    async with running_host(grace_seconds=1.0) as host:
        (ann, bob), _ = await table(host.port, ["Ann", "Bob"])
        mark = ann.mark()
        await ann.pause_game()
        await paused(ann, mark)
        mark = ann.mark()
        bob.conn.abort()
        await ann.expect(p.ROOM, since=mark, where=presence(1, "disconnected"))
        await asyncio.sleep(1.8)  # past the grace period, had it run
        assert seat_entry(ann, 1)["presence"] == "disconnected"
        assert seat_entry(ann, 1)["grace_left"] >= 0.9
        mark = ann.mark()
        await ann.resume_game()
        await ann.expect(p.ROOM, since=mark, where=lambda r: r["paused"] is None)
        assert seat_entry(ann, 1)["presence"] == "disconnected"
        await ann.expect(p.ROOM, since=mark, where=presence(1, "away"), timeout=5)
        await ann.close()
