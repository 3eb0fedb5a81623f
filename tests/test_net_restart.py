"""The journal: a host that stops (or is killed) comes back with every room, exactly."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

import pytest
from nethelpers import (
    LOOPBACK,
    HostProcess,
    Seat,
    counting,
    host_config,
    play_out,
    quiet,
    running_host,
    step,
    table,
)
from partyhost.engine.core import Game
from partyhost.engine.registry import all_games, get_game
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from partyhost.net.clients.netbot import NetBot, run_network_bots
from partyhost.net.hosting.host import Host
from partyhost.net.store.database import Store, StoreLocked
from partyhost.net.store.records import CommandRecord, GameStart
from playedgames import keep_game


def integration_game() -> tuple[Game, dict[str, Any]]:
    """The T-Shirt Game when it is registered, else the test game."""
    if "tshirt" in {game.id for game in all_games()}:
        return get_game("tshirt"), {}
    return counting(), {"target": 40}


def restored(seat: Seat, since: int) -> Any:
    return seat.expect(
        "connection", since=since, timeout=20, where=lambda m: m["state"] == "restored"
    )


async def test_a_restarted_host_gives_everyone_their_seat_and_view_back(tmp_path: Path) -> None:
    first = Host(host_config(data_dir=tmp_path))
    await first.start()
    port = first.port
    seats, code = await table(port, ["Ann", "Bob", "Cy"], opener=Seat.reconnecting)
    game, rng = counting(), Rng(11)
    for _ in range(5):
        await step(seats, game, rng)
    before = [seat.view for seat in seats]
    marks = [seat.mark() for seat in seats]
    await first.close("restarting")
    second = Host(host_config(data_dir=tmp_path, port=port))
    await second.start()
    try:
        for seat, mark, old in zip(seats, marks, before, strict=True):
            await restored(seat, mark)
            view = await seat.expect(p.VIEW, since=mark)
            assert old is not None and view["view"] == old["view"]
            assert view["version"] == old["version"]
        room = seats[0].room
        assert room is not None and room["code"] == code and room["status"] == p.PLAYING
        await play_out(seats, game, rng)
        assert seats[0].view is not None and seats[0].view["view"]["over"]
    finally:
        for seat in seats:
            await seat.close()
        await second.close()


async def test_a_lobby_room_with_bots_and_ready_flags_survives_a_restart(tmp_path: Path) -> None:
    async with running_host(data_dir=tmp_path) as first:
        seats, code = await table(first.port, ["Ann", "Bob"], start=False, options={"target": 12})
        await seats[0].add_bot()
        await seats[0].expect(p.ROOM, where=lambda r: len(r["seats"]) == 3)
        tokens = [seat.conn.token for seat in seats]
        for seat in seats:
            await seat.close()
    async with running_host(data_dir=tmp_path) as second:
        ann = await Seat.open(second.port, "Ann", token=tokens[0])
        room = await ann.expect(p.ROOM)
        assert (room["code"], room["rules"]["target"], room["owner"]) == (code, 12, 0)
        assert [(s["name"], s["ready"], s["bot"]) for s in room["seats"]] == [
            ("Ann", False, False),
            ("Bob", True, False),
            ("Bot 1", True, True),
        ]


async def test_the_deck_data_lives_in_the_journal_not_the_file(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "mine.yaml").write_text(
        (host_config().deck_dirs[0] / "counting.yaml")
        .read_text(encoding="utf-8")
        .replace("secret", "mine"),
        encoding="utf-8",
    )
    async with running_host(data_dir=tmp_path / "data", deck_dirs=(decks,)) as first:
        ann = await Seat.open(first.port, "Ann")
        await ann.create_room("counting", deck="mine")
        token = (await ann.expect(p.JOINED))["token"]
        await ann.close()
    (decks / "mine.yaml").unlink()
    async with running_host(data_dir=tmp_path / "data", deck_dirs=(decks,)) as second:
        ann = await Seat.open(second.port, "Ann", token=token)
        assert (await ann.expect(p.ROOM))["deck"] == "mine"
        assert second.lobby is not None
        room = next(iter(second.lobby.rooms.values()))
        assert room.deck[0].word.startswith("mine-word")


def test_two_hosts_cannot_share_a_data_folder(tmp_path: Path) -> None:
    first = Store(tmp_path)
    with pytest.raises(StoreLocked):
        Store(tmp_path)
    first.close()
    Store(tmp_path).close()


async def test_a_host_killed_mid_game_resumes_and_the_game_finishes(tmp_path: Path) -> None:
    game, options = integration_game()
    first = HostProcess(tmp_path)
    port = await first.ready()
    second: HostProcess | None = None
    seats: list[Seat] = []
    try:
        seats, _ = await table(
            port,
            ["Ann", "Bob", "Cy", "Di"],
            options=options,
            game=game.id,
            opener=Seat.reconnecting,
        )
        rng = Rng(21)
        for _ in range(6):
            assert await step(seats, game, rng)
        await quiet(seats)
        before = [seat.view for seat in seats]
        marks = [seat.mark() for seat in seats]
        first.kill()
        second = HostProcess(tmp_path, port=port)
        await second.ready()
        for seat, mark, old in zip(seats, marks, before, strict=True):
            await restored(seat, mark)
            view = await seat.expect(p.VIEW, since=mark)
            assert old is not None and view["version"] == old["version"]
            assert view["view"] == old["view"]
        await play_out(seats, game, rng)
        assert seats[0].room is not None
        await seats[0].until(lambda: seats[0].room["status"] == p.OVER)  # type: ignore[index]
    finally:
        for seat in seats:
            await seat.close()
        first.stop()
        if second is not None:
            err = second.stop()
            assert "Traceback" not in err, err


async def test_network_bots_play_a_full_game_against_a_host_process(tmp_path: Path) -> None:
    game, options = integration_game()
    process = HostProcess(tmp_path)
    port = await process.ready()
    try:
        owner = NetBot(LOOPBACK, port, "Owner bot", delay=0.0, seed=1)
        owner_task = asyncio.create_task(
            owner.play(create={"game": game.id, "options": options}, start_with=4)
        )
        async with asyncio.timeout(10):
            while owner.code is None:
                await asyncio.sleep(0.02)
        async with asyncio.timeout(40):
            await asyncio.gather(run_network_bots(LOOPBACK, port, owner.code, 3, 0.0), owner_task)
        assert owner.room is not None and owner.room["status"] == p.OVER
        assert [s["bot"] for s in owner.room["seats"]] == [False] * 4  # network bots are people
        assert owner.view is not None and owner.view["version"] > 4
    finally:
        err = process.stop()
        assert "Traceback" not in err, err


async def test_sigterm_says_bye_keeps_the_rooms_and_exits_cleanly(tmp_path: Path) -> None:
    first = HostProcess(tmp_path)
    port = await first.ready()
    second: HostProcess | None = None
    try:
        ann = await Seat.open(port, "Ann")
        await ann.create_room("counting")
        joined = await ann.expect(p.JOINED)
        first.process.send_signal(signal.SIGTERM)
        bye = await ann.expect(p.BYE)
        assert "shutting down" in bye["reason"]
        assert await asyncio.to_thread(first.process.wait, 10) == 0
        assert first.process.stdout is not None
        assert "stopped" in first.process.stdout.read()
        second = HostProcess(tmp_path, port=port)
        await second.ready()
        back = await Seat.open(port, "Ann", token=joined["token"])
        assert back.conn.welcome["resumed"] is True
        assert (await back.expect(p.JOINED))["code"] == joined["code"]
        await back.close()
    finally:
        first.stop()
        if second is not None:
            second.stop()


async def test_a_port_in_use_fails_start_and_frees_the_data_folder(tmp_path: Path) -> None:
    async with running_host() as busy:
        blocked = Host(host_config(port=busy.port, data_dir=tmp_path))
        with pytest.raises(OSError):
            await blocked.start()
    Store(tmp_path).close()  # the lock was released


def test_the_store_checkpoints_off_the_loop_and_truncates_its_wal_on_close(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path)
    start = GameStart("ACDE", 1, "counting", "counting", {}, {}, [0], 0.0, [])
    keep_game(store, start, [CommandRecord(0, {"type": "play", "card": 0}, 1.0)] * 500)
    wal = tmp_path / "host.sqlite3-wal"
    grown = wal.stat().st_size
    store.checkpoint()
    store.close()
    assert grown > 0 and (not wal.exists() or wal.stat().st_size == 0)
    reopened = Store(tmp_path)
    assert len(reopened.load()[0].commands) == 500
    reopened.close()
