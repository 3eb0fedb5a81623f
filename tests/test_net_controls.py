"""The owner's controls during a game, over a real host, one rule per test.

Pause and resume (no moves, no timers, bots wait; everyone is told who
paused; a pause survives a host restart), a bot in an absent player's seat
right away, the player coming back to it, the room handed to another player,
and a kick in mid-game. Whatever touches the game itself runs in every game:
none of it knows a game's rules, the host stops the game's clock and its bots.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from nethelpers import Seat, counting, host_config, quiet, running_host, seat_number, table
from partyhost.engine.core import Game
from partyhost.engine.registry import all_games, get_game
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from partyhost.net.hosting.host import Host

Message = dict[str, Any]
GAME_IDS = sorted(game.id for game in all_games())


def entry(room: Message, seat: int) -> Message:
    return next((s for s in room["seats"] if s["seat"] == seat), {})


def presence_of(seat: int, presence: str) -> Any:
    return lambda room: entry(room, seat).get("presence") == presence


async def play_steps(
    seats: Sequence[Seat], game: Game, rng: Rng, steps: int, patience: float = 10.0
) -> int:
    """Up to ``steps`` bot moves from the seats' own views (at each view's game clock).

    Gives up after ``steps * 4`` tries once a move was made; before the first
    one it waits up to ``patience`` seconds (a real-time game's bot may take
    its time on a busy machine before anyone has a move again).
    """
    taken = tries = 0
    deadline = time.monotonic() + patience
    while taken < steps:
        if tries >= steps * 4 and (taken > 0 or time.monotonic() > deadline):
            break
        tries += 1
        moved = False
        for seat in seats:
            frame = seat.view
            if frame is None:
                continue
            command = game.bot_command(frame["view"], rng, frame["now"])
            if command is None:
                continue
            version = seat.version
            await seat.play(command)
            await seat.until(lambda s=seat, v=version: s.version > v or _refused(s))
            moved = seat.version > version
            break
        if moved:
            taken += 1
        else:
            await quiet(seats, 0.2)
    return taken


def _refused(seat: Seat) -> bool:
    last = seat.log[-1] if seat.log else {}
    return last.get("t") == p.ERROR


def any_legal(seat: Seat) -> Message | None:
    frame = seat.view
    legal = frame["view"].get("legal") if frame else None
    return legal[0] if legal else None


def legal_command(seat: Seat) -> Message:
    command = any_legal(seat)
    assert command is not None, "this seat has nothing to play"
    return command


async def start_table(port: int, game: Game) -> tuple[list[Seat], str]:
    """Ann (owner), Bob and, for a game of three or more, Cy; a bot when there is room."""
    names = ["Ann", "Bob", "Cy"][: max(2, game.min_players)]
    seats, code = await table(port, names, game=game.id, start=False, options=_quick(game))
    if game.max_players > len(names):
        await seats[0].add_bot()
        await seats[0].expect(p.ROOM, where=lambda r: len(r["seats"]) == len(names) + 1)
    mark = seats[0].mark()
    await seats[0].start_game()
    await seats[0].expect(p.VIEW, since=mark)
    for seat in seats:
        await seat.until(lambda s=seat: s.view is not None)
    return seats, code


def _quick(game: Game) -> dict[str, Any]:
    """No stop after a round: a held result waits up to 30 s for every person's key, and the
    moves these tests make do not read it (a claim ending Stealing Home's round, say)."""
    options: dict[str, Any] = {"target": 1500} if game.id == "tshirt" else {}
    if any(option.name == "round_results" for option in game.options):
        options["round_results"] = "no pause"
    return options


@dataclass
class GameUnderWay:
    """A table a few moves into a game: Ann owns it, Bob sits in seat 1."""

    port: int
    game: Game
    seats: list[Seat]
    code: str
    rng: Rng

    @property
    def ann(self) -> Seat:
        return self.seats[0]

    @property
    def bob(self) -> Seat:
        return self.seats[1]


@contextlib.asynccontextmanager
async def game_under_way(game_id: str) -> AsyncIterator[GameUnderWay]:
    game = get_game(game_id)
    # The races' bots think for seconds as a person does (9-16 s in Stealing Home); a tenth
    # of that keeps a table whose people are all waiting on its bot within play_steps' patience.
    async with running_host(grace_seconds=60, bot_pace=0.1) as host:
        seats, code = await start_table(host.port, game)
        rng = Rng(17)
        assert await play_steps(seats, game, rng, 3) >= 1
        await quiet(seats, 0.3)
        yield GameUnderWay(host.port, game, seats, code, rng)


async def pause_by_ann(table: GameUnderWay) -> list[int]:
    """Ann pauses; returns each seat's log mark from just before."""
    marks = [seat.mark() for seat in table.seats]
    await table.ann.pause_game()
    for seat, since in zip(table.seats, marks, strict=True):
        await seat.expect(p.ROOM, since=since, where=lambda r: r["paused"] is not None)
    return marks


async def stand_in_for_bob(table: GameUnderWay) -> None:
    """Bob's client dies and Ann has a bot take his seat at once."""
    ann = table.ann
    mark = ann.mark()
    table.bob.conn.abort()
    await ann.expect(p.ROOM, since=mark, where=presence_of(1, "disconnected"))
    mark = ann.mark()
    await ann.replace_with_bot(1)
    room = await ann.expect(p.ROOM, since=mark, where=presence_of(1, "away"))
    assert entry(room, 1)["stand_in"] is True


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_everyone_is_told_who_paused_the_game(game_id: str) -> None:
    async with game_under_way(game_id) as table:
        marks = await pause_by_ann(table)
        for seat, since in zip(table.seats, marks, strict=True):
            assert seat.room is not None and seat.room["paused"]["by"] == "Ann"
            notice = await seat.expect(p.NOTICE, since=since)
            assert notice["text"] == "Paused by Ann."


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_while_paused_no_move_is_taken_and_no_bot_or_timer_acts(game_id: str) -> None:
    async with game_under_way(game_id) as table:
        await pause_by_ann(table)
        versions = [seat.version for seat in table.seats]
        mover = next(s for s in table.seats if any_legal(s) is not None)
        mark = mover.mark()
        await mover.play(legal_command(mover))
        assert (await mover.expect(p.ERROR, since=mark))["code"] == "paused"
        await asyncio.sleep(0.5)  # a bot with no delay, a due timer: both would act by now
        assert [seat.version for seat in table.seats] == versions


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_a_resumed_game_goes_on_from_where_it_was_paused(game_id: str) -> None:
    async with game_under_way(game_id) as table:
        await pause_by_ann(table)
        versions = [seat.version for seat in table.seats]
        marks = [seat.mark() for seat in table.seats]
        await table.ann.resume_game()
        for seat, since in zip(table.seats, marks, strict=True):
            await seat.expect(p.ROOM, since=since, where=lambda r: r["paused"] is None)
            view = await seat.expect(p.VIEW, since=since)
            assert view["version"] == versions[0]  # nothing moved while paused
        await table.ann.expect(
            p.NOTICE, since=marks[0], where=lambda n: n["text"] == "Ann resumed the game."
        )
        assert await play_steps(table.seats, table.game, table.rng, 2) >= 1


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_the_owner_has_a_bot_play_a_disconnected_seat_without_waiting_out_its_grace(
    game_id: str,
) -> None:
    async with game_under_way(game_id) as table:
        await stand_in_for_bob(table)


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_a_player_back_by_name_takes_his_seat_back_from_the_bot(game_id: str) -> None:
    async with game_under_way(game_id) as table:
        await stand_in_for_bob(table)
        back = await Seat.open(table.port, "Bob")
        await back.join_room(table.code)
        await back.expect(p.RECLAIM_WAITING)
        ask = await table.ann.expect(p.RECLAIM_ASK)  # the owner confirms it is Bob
        await table.ann.reclaim_answer(ask["ask"], True)
        assert (await back.expect(p.JOINED))["seat"] == 1
        await back.expect(p.ROOM, where=presence_of(1, "connected"))
        assert back.view is not None


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_a_player_kicked_mid_game_is_out_and_his_seat_shows_gone(game_id: str) -> None:
    async with game_under_way(game_id) as table:
        ann, bob = table.ann, table.bob
        mark, bob_mark = ann.mark(), bob.mark()
        await ann.kick(1)
        assert (await bob.expect(p.LEFT, since=bob_mark))["reason"] == "kicked"
        room = await ann.expect(p.ROOM, since=mark, where=lambda r: entry(r, 1).get("left"))
        assert entry(room, 1)["presence"] == "gone" or room["status"] != p.PLAYING


async def test_only_the_owner_may_pause_the_game() -> None:
    async with running_host() as host:
        (ann, bob), _ = await table(host.port, ["Ann", "Bob"])
        mark = bob.mark()
        await bob.pause_game()
        assert (await bob.expect(p.ERROR, since=mark))["code"] == "not_owner"
        assert ann.room is not None and ann.room["paused"] is None


async def test_no_bot_stands_in_for_a_player_who_is_still_connected() -> None:
    async with running_host() as host:
        (ann, _), _ = await table(host.port, ["Ann", "Bob"])
        mark = ann.mark()
        await ann.replace_with_bot(1)
        assert (await ann.expect(p.ERROR, since=mark))["code"] == "player_connected"


async def test_after_a_handover_only_the_new_owner_may_pause() -> None:
    async with running_host() as host:
        (ann, bob), _ = await table(host.port, ["Ann", "Bob"])
        mark = ann.mark()
        await ann.give_ownership(1)
        await ann.expect(p.ROOM, since=mark, where=lambda r: r["owner"] == 1)
        mark = ann.mark()
        await ann.pause_game()
        assert (await ann.expect(p.ERROR, since=mark))["code"] == "not_owner"
        mark = bob.mark()
        await bob.pause_game()
        await bob.expect(p.ROOM, since=mark, where=lambda r: bool(r["paused"]))
        mark = bob.mark()
        await bob.resume_game()
        await bob.expect(p.ROOM, since=mark, where=lambda r: r["paused"] is None)


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_a_pause_survives_a_host_restart_in_every_game(game_id: str, tmp_path: Path) -> None:
    game = get_game(game_id)
    first = Host(host_config(data_dir=tmp_path, grace_seconds=60))
    await first.start()
    port = first.port
    opened: list[Seat] = []
    second: Host | None = None
    try:
        seats, code = await _reconnecting_table(port, game, opened)
        ann = seats[0]
        rng = Rng(29)
        assert await play_steps(seats, game, rng, 2) >= 1
        await quiet(seats, 0.3)
        mark = ann.mark()
        await ann.pause_game()
        paused = await ann.expect(p.ROOM, since=mark, where=lambda r: r["paused"] is not None)
        versions = [seat.version for seat in seats]
        marks = [seat.mark() for seat in seats]
        await first.close("restarting")

        second = Host(host_config(data_dir=tmp_path, grace_seconds=60, port=port))
        await second.start()
        for seat, since in zip(seats, marks, strict=True):
            await seat.expect(
                "connection", since=since, timeout=20, where=lambda m: m["state"] == "restored"
            )
            room = await seat.expect(p.ROOM, since=since)
            assert room["code"] == code and room["paused"] == paused["paused"]
            view = await seat.expect(p.VIEW, since=since)
            assert view["version"] == versions[0]
            assert view["now"] == paused["paused"]["at"]  # the game's clock stands still
        mover = next(s for s in seats if any_legal(s) is not None)
        mark = mover.mark()
        await mover.play(legal_command(mover))
        assert (await mover.expect(p.ERROR, since=mark))["code"] == "paused"
        await asyncio.sleep(0.5)
        assert [seat.version for seat in seats] == versions

        mark = ann.mark()
        await ann.resume_game()
        await ann.expect(p.ROOM, since=mark, where=lambda r: r["paused"] is None)
        assert await play_steps(seats, game, rng, 2) >= 1
    finally:
        for seat in opened:
            await seat.close()
        await first.close()
        if second is not None:
            await second.close()


async def _reconnecting_table(port: int, game: Game, opened: list[Seat]) -> tuple[list[Seat], str]:
    async def opener(port: int, name: str) -> Seat:
        seat = await Seat.reconnecting(port, name)
        opened.append(seat)
        return seat

    names = ["Ann", "Bob", "Cy"][: max(2, game.min_players)]
    return await table(port, names, game=game.id, options=_quick(game), opener=opener)


async def test_a_paused_timer_does_not_run_out_and_keeps_its_time_across_a_restart(
    tmp_path: Path,
) -> None:
    first = Host(host_config(data_dir=tmp_path))
    await first.start()
    port = first.port
    opened: list[Seat] = []
    second: Host | None = None
    try:
        seats, _ = await _reconnecting_table_of(port, opened)
        ann, bob = seats
        game, rng = counting(), Rng(2)
        await play_steps(seats, game, rng, 1)  # the turn timer runs from the second turn
        before = bob.view
        assert before is not None and before["view"]["deadline"] is not None
        left_before = before["view"]["deadline"] - before["now"]
        await ann.pause_game()
        paused = await ann.expect(p.ROOM, where=lambda r: r["paused"] is not None)
        await asyncio.sleep(1.5)  # past the deadline on the host's clock
        assert bob.version == before["version"]
        marks = [seat.mark() for seat in seats]
        await first.close("restarting")
        second = Host(host_config(data_dir=tmp_path, port=port))
        await second.start()
        for seat, since in zip(seats, marks, strict=True):
            await seat.expect(
                "connection", since=since, timeout=20, where=lambda m: m["state"] == "restored"
            )
        view = await bob.expect(p.VIEW, since=marks[1])
        left_paused = view["view"]["deadline"] - view["now"]
        assert view["now"] == paused["paused"]["at"]
        assert 0 < left_paused <= left_before
        await asyncio.sleep(1.0)
        assert bob.version == before["version"]
        mark = bob.mark()
        await ann.resume_game()
        resumed = await bob.expect(p.VIEW, since=mark)
        assert resumed["view"]["deadline"] - resumed["now"] <= left_paused
        started = time.monotonic()
        await bob.until(lambda: bob.version > before["version"], timeout=5)  # the tick came
        assert time.monotonic() - started >= left_paused - 0.3
    finally:
        for seat in opened:
            await seat.close()
        await first.close()
        if second is not None:
            await second.close()


async def _reconnecting_table_of(port: int, opened: list[Seat]) -> tuple[list[Seat], str]:
    async def opener(port: int, name: str) -> Seat:
        seat = await Seat.reconnecting(port, name)
        opened.append(seat)
        return seat

    return await table(port, ["Ann", "Bob"], options={"turn_timer": 1}, opener=opener)


async def test_a_game_not_yet_started_cannot_be_paused() -> None:
    async with running_host() as host:
        (ann, _), _ = await table(host.port, ["Ann", "Bob"], start=False)
        mark = ann.mark()
        await ann.pause_game()
        assert (await ann.expect(p.ERROR, since=mark))["code"] == "not_playing"


async def test_only_a_paused_game_can_be_resumed() -> None:
    async with running_host() as host:
        (ann, _), _ = await table(host.port, ["Ann", "Bob"])
        mark = ann.mark()
        await ann.resume_game()
        assert (await ann.expect(p.ERROR, since=mark))["code"] == "not_paused"


async def test_a_paused_game_cannot_be_paused_again() -> None:
    async with running_host() as host:
        (ann, _), _ = await table(host.port, ["Ann", "Bob"])
        mark = ann.mark()
        await ann.pause_game()
        await ann.expect(p.ROOM, since=mark, where=lambda r: r["paused"] is not None)
        mark = ann.mark()
        await ann.pause_game()
        assert (await ann.expect(p.ERROR, since=mark))["code"] == "paused"


async def test_the_room_goes_only_to_a_person_who_is_here() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann", "Bob", "Cy"])
        ann, bob, cy = seats
        mark = ann.mark()
        cy.conn.abort()
        await ann.expect(p.ROOM, since=mark, where=presence_of(2, "disconnected"))
        for seat, code in ((2, "not_connected"), (0, "bad_seat"), (9, "bad_seat")):
            mark = ann.mark()
            await ann.give_ownership(seat)
            assert (await ann.expect(p.ERROR, since=mark))["code"] == code
        mark = bob.mark()
        await ann.give_ownership(seat_number(bob))
        room = await bob.expect(p.ROOM, since=mark, where=lambda r: r["owner"] == 1)
        assert room["you"] == 1
