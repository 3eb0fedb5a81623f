"""Attacks on a real host process: abandoned rooms, chat floods that rejoin, journal-filling games.

Each test does what a hostile guest did to an earlier host (fill the room
limit with rooms nobody uses, leave and rejoin to reset the chat limit, move
a card back and forth forever) against ``partyhost serve`` or ``python -m
partyhost.net``, and reads the outcome from outside: the lobby's list, the
frames, the journal on disk, the host's console.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from nethelpers import HostProcess, Seat, quiet
from partyhost.net import protocol as p
from partyhost.net.clients.client import build
from partyhost.net.store.database import read_store
from partyhost.net.store.records import StoredRoom
from servehelpers import listed, serve

ATTACKER = "127.0.0.2"
VICTIM = "127.0.0.3"
BYSTANDER = "127.0.0.4"


def read_rooms(data: Path, code: str) -> list[StoredRoom]:
    """Room ``code`` as the host's store holds it, read while the host runs."""
    store = read_store(data)
    try:
        return store.rooms(code)
    finally:
        store.close()


async def abandoned_room(host_port: int, source: str) -> str:
    """A T-Shirt room with two bots, started, then left by its only person: the attack."""
    seat = await Seat.open(host_port, "Ghost", source=source)
    await seat.create_room("tshirt")
    reply = await seat.expect(p.JOINED)
    for _ in range(2):
        await seat.add_bot()
    await seat.expect(p.ROOM, where=lambda room: len(room["seats"]) == 3)
    await seat.start_game()
    await seat.expect(p.ROOM, where=lambda room: room["status"] == p.PLAYING)
    await seat.close()
    return str(reply["code"])


async def eventually(check: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < deadline, "it never happened"
        await asyncio.sleep(0.1)


# --- abandoned rooms -------------------------------------------------------------------


async def test_one_address_cannot_fill_the_host_with_abandoned_rooms(tmp_path: Path) -> None:
    async with serve(tmp_path / "data", "--max-rooms", "8") as host:
        codes = [await abandoned_room(host.port, ATTACKER) for _ in range(3)]
        ghost = await host.seat("Ghost", ATTACKER)
        await ghost.create_room("tshirt")
        refused = await ghost.expect(p.ERROR)
        assert refused["code"] == "too_many_rooms"
        assert f"Your address {ATTACKER} already has 3 open room(s)" in refused["message"]
        other = await host.seat("Dora", BYSTANDER)  # everyone else still gets a room
        await other.create_room("tshirt")
        await other.expect(p.JOINED)
        host.type("rooms")
        for code in codes:
            await host.printed(rf"^{code} .* created from {ATTACKER}$")
        for seat in (ghost, other):
            await seat.close()


IDLE = ("--idle-room-minutes", "0.05")  # 3 s


async def gone_from_the_list(watcher: Seat, code: str) -> None:
    """Wait (20 s at most: the idle time, not the 2-minute grace) until ``code`` is not listed."""

    async def gone() -> bool:
        return code not in {room["code"] for room in await listed(watcher)}

    await eventually(gone)


async def test_a_room_nobody_is_connected_to_closes_without_waiting_out_the_grace(
    tmp_path: Path,
) -> None:
    async with serve(tmp_path / "data", *IDLE) as host:
        watcher = await host.seat("Watcher", BYSTANDER)
        code = await abandoned_room(host.port, ATTACKER)
        assert code in {room["code"] for room in await listed(watcher)}
        await gone_from_the_list(watcher, code)
        await watcher.close()


async def test_after_a_restart_an_abandoned_room_still_closes_and_its_journal_goes(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    async with serve(data, *IDLE) as host:
        code = await abandoned_room(host.port, ATTACKER)
        host.kill()  # before the room's idle time is up
    async with serve(data, *IDLE) as host:
        watcher = await host.seat("Watcher", BYSTANDER)
        assert code in {room["code"] for room in await listed(watcher)}
        await gone_from_the_list(watcher, code)
        assert read_rooms(data, code) == []
        await watcher.close()


async def test_the_hosts_console_closes_a_room_for_everyone_in_it(tmp_path: Path) -> None:
    async with serve(tmp_path / "data") as host:
        await host.printed("Type help for the host's commands")
        ann = await host.seat("Ann", VICTIM)
        await ann.create_room("tshirt")
        code = (await ann.expect(p.JOINED))["code"]
        watcher = await host.seat("Watcher", BYSTANDER)
        await watcher.join_room(code, spectate=True)
        await watcher.expect(p.JOINED)
        host.type("help")
        await host.printed(r"close CODE\s+close a room")
        host.type("rooms")
        await host.printed(rf"^{code}  The T-Shirt Game, lobby, 1/\d+ seats, 1 watching, owner Ann")
        host.type("close ZZZZ")
        await host.printed("No open room has the code ZZZZ")
        host.type(f"close {code.lower()}")
        await host.printed(f"Closing room {code}")
        for seat in (ann, watcher):
            left = await seat.expect(p.LEFT)
            assert left["reason"] == "closed_by_host"
        notices = [m["text"] for m in ann.log if m["t"] == p.NOTICE]
        assert "The host closed this room." in notices
        assert await listed(ann) == []
        host.type("quit")
        async with asyncio.timeout(15):
            assert await host.process.wait() == 0
        for seat in (ann, watcher):
            await seat.close()


# --- chat that leaves and comes back ---------------------------------------------------


def has_left(seat: Seat, since: int) -> bool:
    return any(message["t"] == p.LEFT for message in seat.log[since:])


async def test_leaving_rejoining_or_reconnecting_never_refills_the_chat_limit(
    tmp_path: Path,
) -> None:
    async with serve(tmp_path / "data") as host:  # chat: 1 line a second, bursts of 5
        ann = await host.seat("Ann", VICTIM)
        await ann.create_room("tshirt")
        code = (await ann.expect(p.JOINED))["code"]
        started = time.monotonic()
        spammer = await host.seat("Spam", ATTACKER)
        for round_number in range(10):
            if round_number == 5:  # hang up and come back on a new connection too
                await spammer.close()
                spammer = await host.seat("Spam", ATTACKER)
            mark = spammer.mark()
            await spammer.join_room(code, spectate=True)
            await spammer.expect(p.JOINED, since=mark)
            for n in range(5):
                await spammer.chat(f"spam {round_number}.{n}")
            await spammer.leave_room()
            await spammer.until(lambda seat=spammer, mark=mark: has_left(seat, mark))
        elapsed = time.monotonic() - started
        await quiet([ann])
        heard = [m for m in ann.log if m["t"] == p.CHAT_LINE and m["name"] == "Spam"]
        assert 5 <= len(heard) <= 5 + elapsed * 1.0 + 1  # the burst, then 1 a second
        refused = [m for m in spammer.log if m["t"] == p.ERROR]
        assert refused and {m["code"] for m in refused} == {"rate_limited"}
        mark = ann.mark()
        await ann.chat("still talking")  # another address is not limited
        await ann.expect(p.CHAT_LINE, since=mark, where=lambda m: m["text"] == "still talking")
        for seat in (ann, spammer):
            await seat.close()


# --- games that only grow the journal --------------------------------------------------


async def scramble_table(port: int) -> tuple[Seat, Seat, str]:
    """Two people at a Scramble table, the game running."""
    ann = await Seat.open(port, "Ann", source=VICTIM)
    await ann.create_room("scramble")
    code = str((await ann.expect(p.JOINED))["code"])
    bob = await Seat.open(port, "Bob", source=BYSTANDER)
    await bob.join_room(code)
    await bob.expect(p.JOINED)
    await bob.set_ready()
    await ann.expect(p.ROOM, where=lambda room: room["seats"][-1]["ready"])
    await ann.start_game()
    await ann.until(lambda: bool(hand(ann)))
    return ann, bob, code


def hand(seat: Seat) -> list[int]:
    """The cards ``seat`` may place now, from its newest view."""
    frame = seat.view
    legal = [] if frame is None else frame["view"]["legal"]
    return next((list(entry["cards"]) for entry in legal if entry["type"] == "place"), [])


def place(card: int, x: int, ref: int) -> dict[str, Any]:
    return build.play({"type": "place", "card": card, "x": x, "y": 0}, ref=ref)


async def test_a_move_that_changes_nothing_is_refused_and_not_journaled(tmp_path: Path) -> None:
    host = HostProcess(tmp_path / "data")
    try:
        await host.ready()
        ann, bob, code = await scramble_table(host.port)
        card = hand(ann)[0]
        await ann.send(place(card, 0, ref=1))
        await ann.until(lambda: ann.version > 0)
        version = ann.version
        assert len(read_rooms(tmp_path / "data", code)[0].commands) == 1
        await ann.send(place(card, 0, ref=2))  # the same card to the same slot
        refused = await ann.expect(p.ERROR)
        assert refused["code"] == "no_change" and refused["ref"] == 2
        await quiet([ann, bob])
        assert ann.version == version
        assert len(read_rooms(tmp_path / "data", code)[0].commands) == 1
        for seat in (ann, bob):
            await seat.close()
    finally:
        host.stop()


async def test_a_game_that_only_moves_a_card_back_and_forth_stops_at_its_ceiling(
    tmp_path: Path,
) -> None:
    host = HostProcess(tmp_path / "data", extra=("--max-game-commands", "30"))
    try:
        await host.ready()
        ann, bob, code = await scramble_table(host.port)
        card = hand(ann)[0]
        for move in range(40):
            await ann.send(place(card, move % 2, ref=move))
        refusal = await ann.expect(p.ERROR, where=lambda m: m["code"] == "game_too_long")
        limit = "This game reached the host's limit (30 moves or 4 MiB of journal) and stopped"
        assert refusal["message"].startswith(limit)
        for seat in (ann, bob):
            await seat.expect(p.NOTICE, where=lambda m: m["text"].startswith(limit))
            await seat.expect(p.ROOM, where=lambda room: room["status"] == p.OVER)
        await quiet([ann, bob])
        assert len(read_rooms(tmp_path / "data", code)[0].commands) == 30
        mark = ann.mark()
        await ann.start_game()  # the owner can deal a new game
        await ann.expect(p.ROOM, since=mark, where=lambda room: room["status"] == p.PLAYING)
        assert read_rooms(tmp_path / "data", code)[0].commands == []
        for seat in (ann, bob):
            await seat.close()
    finally:
        host.stop()
