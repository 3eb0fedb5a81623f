"""Playing through the host: views, bots, timers, reconnects, heartbeats, slow clients."""

from __future__ import annotations

import asyncio
import socket
import struct
import time
from typing import Any

import msgpack
import pytest
from nethelpers import (
    LOOPBACK,
    Seat,
    counting,
    play_out,
    play_until_over,
    running_host,
    seat_number,
    step,
    swap_game,
    table,
)
from partyhost.engine.core import Event
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from partyhost.net.clients.client import ReconnectingClient, ReconnectPolicy, build


async def test_every_seat_gets_its_own_view_and_only_its_own_private_events() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann", "Bob"])
        ann, bob = seats
        mark_a, mark_b = ann.mark(), bob.mark()
        assert await step(seats, counting(), Rng(1))
        seen_a = await ann.expect(p.VIEW, since=mark_a)
        seen_b = await bob.expect(p.VIEW, since=mark_b)
        assert seen_a["version"] == seen_b["version"] == 1
        drew_a = next(e for e in seen_a["events"] if e["kind"] == "drew")
        drew_b = next(e for e in seen_b["events"] if e["kind"] == "drew")
        assert "word" in drew_a and "word" not in drew_b
        assert [c["word"] for c in seen_a["view"]["hand"]][-1] == drew_a["word"]
        assert "secret" not in str(seen_b["events"]).replace("secret-word", "")


async def test_in_host_bots_play_a_whole_game_with_a_human() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann"], start=False)
        ann = seats[0]
        for _ in range(3):
            await ann.add_bot()
        await ann.expect(p.ROOM, where=lambda r: len(r["seats"]) == 4)
        await ann.start_game()
        await play_until_over(ann, 3, timeout=10)
        assert ann.view is not None and ann.view["view"]["over"]


async def test_a_player_who_drops_returns_with_the_token_to_the_same_hand() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann", "Bob", "Cy"])
        game, rng = counting(), Rng(5)
        for _ in range(4):
            await step(seats, game, rng)
        bob = seats[1]
        token = bob.conn.token
        assert token is not None
        before = bob.view
        assert before is not None
        await bob.close()
        room = await seats[0].expect(
            p.ROOM,
            since=seats[0].mark() - 1,
            where=lambda r: not _seat(r, 1).get("connected", True),
        )
        assert room["seats"][1]["away"] is False
        back = await Seat.open(host.port, "Someone Else", token=token)
        assert back.conn.welcome["resumed"] is True
        joined = await back.expect(p.JOINED)
        assert (joined["seat"], joined["token"]) == (1, token)
        view = await back.expect(p.VIEW)
        assert view["view"] == before["view"]
        room = await back.expect(p.ROOM)
        assert room["seats"][1]["name"] == "Bob" and room["seats"][1]["connected"]
        rest = [seats[0], back, seats[2]]
        await play_out(rest, game, rng)


async def test_a_second_connection_with_the_same_token_replaces_the_first() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann", "Bob"])
        token = seats[1].conn.token
        twin = await Seat.open(host.port, "Bob", token=token)
        await twin.expect(p.VIEW)
        assert (await seats[1].expect(p.LEFT))["reason"] == "replaced"


async def test_an_unknown_token_is_welcomed_to_the_lobby_with_an_error() -> None:
    async with running_host() as host:
        seat = await Seat.open(host.port, "Ann", token="not-a-real-token")
        assert seat.conn.welcome["resumed"] is False
        assert (await seat.expect(p.ERROR))["code"] == "token_unknown"


async def test_past_the_grace_period_a_bot_stands_in_until_the_player_returns() -> None:
    async with running_host(grace_seconds=0.2) as host:
        seats, _ = await table(host.port, ["Ann", "Bob"])
        ann, bob = seats
        token = bob.conn.token
        await bob.close()
        room = await ann.expect(p.ROOM, where=lambda r: _seat(r, 1).get("away", False))
        assert room["seats"][1]["stand_in"] is True
        game, rng = counting(), Rng(7)
        start = ann.version
        for _ in range(3):  # Ann plays; the stand-in answers every time
            await ann.until(lambda: ann.view["view"]["turn"] == 0)  # type: ignore[index]
            await step([ann], game, rng)
        assert ann.version >= start + 5
        back = await Seat.open(host.port, "Bob", token=token)
        room = await back.expect(p.ROOM)
        assert not room["seats"][1]["away"] and room["seats"][1]["connected"]
        version = back.version
        await asyncio.sleep(0.1)
        assert back.version == version or back.view["view"]["turn"] == 0  # type: ignore[index]


async def test_without_bot_takeover_the_engine_is_told_seat_away_and_seat_back() -> None:
    async with running_host(grace_seconds=0.2) as host:
        ann = await Seat.open(host.port, "Ann")
        await ann.create_room("counting", bot_takeover=False)
        code = (await ann.expect(p.JOINED))["code"]
        others = []
        for name in ("Bob", "Cy"):
            seat = await Seat.open(host.port, name)
            await seat.join_room(code)
            await seat.set_ready()
            others.append(seat)
        await ann.expect(
            p.ROOM, where=lambda r: len(r["seats"]) == 3 and all(s["ready"] for s in r["seats"][1:])
        )
        await ann.start_game()
        await ann.expect(p.VIEW)
        token = others[0].conn.token
        await others[0].close()
        await ann.until(lambda: ann.view["view"]["away"] == [1])  # type: ignore[index]
        assert (await ann.expect(p.ROOM, where=lambda r: _seat(r, 1).get("away", False)))["seats"][
            1
        ]["stand_in"] is False
        back = await Seat.open(host.port, "Bob", token=token)
        await back.until(lambda: back.view is not None and back.view["view"]["away"] == [])


async def test_the_host_calls_tick_at_the_games_deadline() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann", "Bob"], options={"turn_timer": 1})
        ann, bob = seats
        await step(seats, counting(), Rng(1))  # the timer starts with the second turn
        version = bob.version
        assert bob.view is not None and bob.view["view"]["deadline"] is not None
        started = time.monotonic()
        await ann.until(lambda: ann.version > version, timeout=4)
        assert 0.5 < time.monotonic() - started < 3
        assert any(e["kind"] == "played" and e["seat"] == 1 for e in ann.view["events"])  # type: ignore[index]


async def test_a_silent_client_is_dropped_after_missed_heartbeats() -> None:
    async with running_host(heartbeat_interval=0.1, heartbeat_misses=3) as host:
        with socket.create_connection((LOOPBACK, host.port), timeout=2) as raw:
            body = msgpack.packb(build.hello(p.PROTOCOL_VERSION, "Zzz"))
            raw.sendall(struct.pack(">I", len(body)) + body)
            started = time.monotonic()
            await _until_closed(raw, timeout=3)
            assert time.monotonic() - started < 2
            assert not host.connections


async def test_a_client_that_answers_pings_stays() -> None:
    async with running_host(heartbeat_interval=0.1, heartbeat_misses=3) as host:
        seat = await Seat.open(host.port, "Awake")
        await asyncio.sleep(0.6)
        assert not seat.done and len(host.connections) == 1
        assert not [m for m in seat.log if m["t"] == p.PING]  # answered inside the client


async def test_a_client_that_never_says_hello_is_dropped() -> None:
    async with running_host(heartbeat_interval=0.1, hello_timeout=0.3) as host:
        with socket.create_connection((LOOPBACK, host.port), timeout=2) as raw:
            await _until_closed(raw, timeout=3)


def _raw_client(port: int, messages: list[dict[str, object]]) -> socket.socket:
    """A client that says its piece and then never reads again (tiny receive buffer)."""
    sleepy = socket.socket()
    sleepy.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sleepy.connect((LOOPBACK, port))
    for message in messages:
        body = msgpack.packb(message)
        sleepy.sendall(struct.pack(">I", len(body)) + body)
    return sleepy


async def test_a_spectator_that_never_reads_is_dropped_at_the_byte_limit_without_slowing_play() -> (
    None
):
    limits = {
        "max_unsent_bytes": 64 * 1024,
        "socket_send_buffer": 16 * 1024,
        "heartbeat_interval": 60.0,
    }
    async with running_host(**limits) as host:
        seats, code = await table(
            host.port, ["Ann"], start=False, options={"target": 300, "pad": 8000}
        )
        ann = seats[0]
        await ann.add_bot()
        sleepy = _raw_client(
            host.port,
            [
                build.hello(1, "Sleepy"),
                build.join_room(code, spectate=True),
            ],
        )
        await ann.expect(p.ROOM, where=lambda r: r["spectators"] == 1 and len(r["seats"]) == 2)
        await ann.start_game()
        elapsed = await play_until_over(ann, 9)
        assert ann.room is not None and ann.room["spectators"] == 0
        assert len(host.connections) == 1  # dropped by the byte limit, not a heartbeat
        assert ann.version > 100 and elapsed < 10
        sleepy.close()


async def test_a_seated_player_who_stops_reading_is_dropped_and_a_bot_stands_in() -> None:
    limits = {"grace_seconds": 0.2, "heartbeat_interval": 0.2, "max_unsent_bytes": 64 * 1024}
    async with running_host(**limits) as host:
        seats, code = await table(host.port, ["Ann"], start=False, options={"target": 60})
        ann = seats[0]
        sleepy = _raw_client(
            host.port,
            [
                build.hello(1, "Sleepy"),
                build.join_room(code),
                build.set_ready(),
            ],
        )
        await ann.expect(p.ROOM, where=lambda r: _seat(r, 1).get("ready", False))
        await ann.start_game()
        elapsed = await play_until_over(ann, 10)
        assert ann.room is not None
        sleeper = _seat(ann.room, 1)
        assert not sleeper["connected"] and sleeper["away"]
        notices = [m["text"] for m in ann.log if m["t"] == p.NOTICE]
        assert "Sleepy is away; a bot plays for them until they return." in notices
        assert elapsed < 5
        sleepy.close()


async def test_reconnecting_client_reports_loss_and_comes_back_to_its_seat() -> None:
    async with running_host() as host:
        _, code = await table(host.port, ["Ann"], start=False)
        client = await ReconnectingClient.open(
            LOOPBACK, host.port, "Bob", policy=ReconnectPolicy(first_delay=0.05, attempts=5)
        )
        bob = Seat(client)
        await client.join_room(code)
        await bob.expect(p.JOINED)
        assert client.connection is not None
        client.connection._writer.transport.abort()
        restored = await bob.expect("connection", where=lambda m: m["state"] == "restored")
        assert restored["resumed"] is True
        states = [m["state"] for m in bob.log if m["t"] == "connection"]
        assert states[0] == "lost" and states[1] == "reconnecting"
        mark = bob.mark()
        await client.set_ready(True)
        room = await bob.expect(p.ROOM, since=mark, where=lambda r: r["seats"][1]["ready"])
        assert room["you"] == 1 and seat_number(bob) == 1
        await bob.close()


async def test_reconnecting_client_gives_up_within_its_bounds() -> None:
    async with running_host() as host:
        client = await ReconnectingClient.open(
            LOOPBACK,
            host.port,
            "Bob",
            policy=ReconnectPolicy(
                first_delay=0.02, max_delay=0.05, attempts=3, connect_timeout=0.5
            ),
        )
        bob = Seat(client)
    started = time.monotonic()
    await bob.until(lambda: bob.done, timeout=5)
    states = [m["state"] for m in bob.log if m["t"] == "connection"]
    assert states == ["lost", "reconnecting", "reconnecting", "reconnecting", "failed"]
    assert time.monotonic() - started < 3


async def _until_closed(raw: socket.socket, timeout: float) -> None:
    raw.setblocking(False)
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(timeout):
        while True:
            try:
                chunk = await loop.sock_recv(raw, 65536)
            except ConnectionResetError:
                return
            if not chunk:
                return


def _seat(room: dict[str, Any], seat: int) -> dict[str, Any]:
    """The room message's entry for ``seat`` (empty if not seated yet)."""
    seats = room["seats"]
    assert isinstance(seats, list)
    return next((s for s in seats if s["seat"] == seat), {})


async def test_a_past_deadline_that_ticks_to_nothing_does_not_spin_the_room(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ticks: list[float] = []

    def deadline(state: object) -> float:
        return 1.0  # always in the past

    def tick(state: object, now: float) -> list[Event]:
        ticks.append(now)
        return []

    counting()
    game = swap_game(monkeypatch, "counting", deadline=deadline, tick=tick)
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann", "Bob"])
        await asyncio.sleep(0.2)
        assert len(ticks) == 1
        await step(seats, game, Rng(1))  # a new version may tick once more
        await asyncio.sleep(0.1)
        assert len(ticks) == 2


async def test_bots_only_play_while_someone_is_connected() -> None:
    async with running_host(grace_seconds=0.05) as host:
        seats, code = await table(host.port, ["Ann"], start=False)
        ann = seats[0]
        await ann.add_bot()
        await ann.expect(p.ROOM, where=lambda r: len(r["seats"]) == 2)
        await ann.start_game()
        await ann.expect(p.VIEW)
        await ann.close()  # Ann's seat goes away and a stand-in could play it...
        assert host.lobby is not None
        room = host.lobby.rooms[code]
        await asyncio.sleep(0.3)
        assert room.members[0].away and room.table is not None
        assert room.table.version == 0  # ...but nobody is watching, so nobody plays
        watcher = await Seat.open(host.port, "Watcher")
        await watcher.join_room(code, spectate=True)
        await watcher.expect(p.ROOM, where=lambda r: r["status"] == p.OVER)


async def test_an_unwatched_room_sleeps_instead_of_spinning() -> None:
    async with running_host(grace_seconds=60, bot_delay=(0.2, 0.2)) as host:
        seats, code = await table(host.port, ["Ann"], start=False)
        ann = seats[0]
        await ann.add_bot()
        await ann.expect(p.ROOM, where=lambda r: len(r["seats"]) == 2)
        await ann.start_game()
        await ann.expect(p.VIEW)
        await step([ann], counting(), Rng(1))  # the bot starts "thinking"...
        await ann.close()  # ...and nobody is left to play for
        await asyncio.sleep(0.3)
        assert host.lobby is not None
        room = host.lobby.rooms[code]
        started = time.process_time()
        await asyncio.sleep(0.3)
        assert time.process_time() - started < 0.1  # the room task waits on its queue
        task = host.lobby.task_of(room)
        assert task is not None and not task.done()
