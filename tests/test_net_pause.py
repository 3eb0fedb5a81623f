"""After a round the table stops so everyone can read its result, as the room chose.

A T-Shirt room: Ann judges round 1 against three in-host bots that think for
no time at all, so any move they make while the table is stopped would come
at once; the room message's ``pause`` says who has not read the result yet.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from nethelpers import HostProcess, Seat, running_host
from partyhost.net import protocol as p
from partyhost.net.hosting.host import Host
from partyhost.net.rooms.room import Room


async def ann_judges(host: Host, round_results: str, **timers: int) -> tuple[Seat, Room]:
    """Ann's room with three bots, started; returns once round 1 waits for her pick."""
    ann = await Seat.open(host.port, "Ann")
    options = {"first_judge": 0, "round_results": round_results, **timers}
    await ann.create_room("tshirt", options=options)
    code = (await ann.expect(p.JOINED))["code"]
    for _ in range(3):
        await ann.add_bot("hard")
    await ann.expect(p.ROOM, where=lambda room: len(room["seats"]) == 4)
    await ann.start_game()
    await ann.until(lambda: bool(legal(ann, "pick")))
    assert host.lobby is not None
    return ann, host.lobby.rooms[code]


def legal(seat: Seat, kind: str) -> list[dict[str, Any]]:
    view = (seat.view or {}).get("view") or {}
    return [c for c in view.get("legal", []) if c.get("type") == kind]


def pause(seat: Seat) -> dict[str, Any] | None:
    room = seat.room or {}
    found = room.get("pause")
    return found if isinstance(found, dict) else None


async def pick(ann: Seat) -> None:
    """Ann picks a slogan; the round ends."""
    mark = ann.mark()
    await ann.play(legal(ann, "pick")[0])
    await ann.expect(p.ROOM, since=mark, where=lambda room: room.get("pause") is not None)


async def test_the_bots_wait_until_everyone_has_read_the_result() -> None:
    async with running_host() as host:
        ann, room = await ann_judges(host, "until all press a key")
        await pick(ann)
        shown = pause(ann)
        assert shown is not None and shown["waiting"] == [0]
        assert 25 <= shown["until"] - time.time() <= 30
        assert room.bots.next_due() is None  # held, though they think for no time
        version = ann.version
        assert room.table is not None and room.table.state.version == version
        await ann.seen()
        await ann.until(lambda: pause(ann) is None)
        await ann.until(lambda: ann.version > version)  # the bots play round 2 now
        await ann.close()


async def test_a_pause_of_some_seconds_ends_by_itself() -> None:
    async with running_host() as host:
        ann, room = await ann_judges(host, "5 seconds")
        await pick(ann)
        shown = pause(ann)
        assert shown is not None and 3 <= shown["until"] - time.time() <= 5
        room.run_timers(shown["until"] + 0.01)
        await ann.until(lambda: pause(ann) is None)
        assert room.bots.next_due() is not None
        await ann.close()


async def test_no_pause_when_the_room_says_so() -> None:
    async with running_host() as host:
        ann, _ = await ann_judges(host, "no pause")
        version = ann.version
        mark = ann.mark()
        await ann.play(legal(ann, "pick")[0])
        await ann.until(lambda: round_two_submitted(ann))  # the bots go on unasked
        assert ann.version > version
        assert all(m.get("pause") is None for m in ann.log[mark:] if m["t"] == p.ROOM)
        await ann.close()


def round_two_submitted(seat: Seat) -> bool:
    view = (seat.view or {}).get("view") or {}
    return view.get("round") == 2 and bool(view.get("submitted"))


async def test_seen_outside_a_pause_changes_nothing() -> None:
    async with running_host() as host:
        ann, _ = await ann_judges(host, "until all press a key")
        mark = ann.mark()
        await ann.seen()
        await ann.ping(1)
        await ann.expect(p.PONG, since=mark)
        assert [m["t"] for m in ann.log[mark:]] == [p.PONG]
        await ann.close()


async def test_the_game_clock_stands_still_while_the_result_is_read() -> None:
    async with running_host() as host:
        ann, room = await ann_judges(host, "until all press a key", submit_timer=15)
        await pick(ann)
        shown = pause(ann)
        assert shown is not None and room.table is not None
        deadline = room.table.deadline()
        assert deadline is not None and deadline - shown["at"] >= 14  # round 2's slogan timer
        version = room.table.state.version
        room.run_timers(shown["until"] - 1)  # past the timer, within the pause: it stood still
        assert room.table.state.version == version and pause(ann) is not None
        await ann.seen()
        await ann.until(lambda: pause(ann) is None and ann.version > version)  # bots play on
        assert room.table.deadline() == deadline
        frame = ann.view or {}
        assert frame["view"]["deadline"] - frame["now"] > 13  # the clock ran on from where it stood
        await ann.close()


async def test_a_reader_who_drops_is_not_waited_for() -> None:
    async with running_host() as host:
        ann, room = await ann_judges(host, "until all press a key")
        bea = await Seat.open(host.port, "Bea")  # watching: she reads nothing
        await bea.join_room(room.code, spectate=True)
        await bea.expect(p.ROOM)
        await pick(ann)
        await bea.until(lambda: pause(bea) is not None)
        await ann.close()  # her laptop's lid shuts instead of a key
        await bea.until(lambda: pause(bea) is None)  # the table goes on without her key
        await bea.close()


async def test_a_held_result_and_its_stopped_clock_survive_a_host_restart(
    tmp_path: Path,
) -> None:
    """A host killed while the table reads a result holds the game's clock where it stood
    once restarted: round 2's timer has lost nothing to the reading or to the restart."""
    data = tmp_path / "data"
    first = HostProcess(data)
    second: HostProcess | None = None
    try:
        ann = await Seat.open(await first.ready(), "Ann")
        options = {"first_judge": 0, "round_results": "until all press a key", "submit_timer": 15}
        await ann.create_room("tshirt", options=options)
        joined = await ann.expect(p.JOINED)
        for _ in range(3):
            await ann.add_bot("hard")
        await ann.expect(p.ROOM, where=lambda room: len(room["seats"]) == 4)
        await ann.start_game()
        await ann.until(lambda: bool(legal(ann, "pick")))
        await pick(ann)
        shown = pause(ann)
        assert shown is not None
        await ann.until(lambda: ann.view is not None and ann.view["view"].get("deadline"))
        frame = ann.view or {}
        left_before = frame["view"]["deadline"] - frame["now"]
        assert left_before >= 14  # round 2's slogan timer, its clock held
        await asyncio.sleep(2.5)  # reading the result
        first.kill()
        await ann.close()
        second = HostProcess(data)
        back = await Seat.open(await second.ready(), "Ann", token=joined["token"])
        await back.until(lambda: back.view is not None and pause(back) is not None)
        held = pause(back)
        assert held is not None and held["waiting"] == [0]
        assert held["at"] == shown["at"]  # the clock stands where the hold stopped it
        frame = back.view or {}
        assert abs((frame["view"]["deadline"] - frame["now"]) - left_before) < 0.5
        version = back.version
        await back.seen()
        await back.until(lambda: pause(back) is None and back.version > version)  # bots go on
        frame = back.view or {}
        assert frame["view"]["deadline"] - frame["now"] > left_before - 1.5
        await back.close()
    finally:
        err = first.stop()
        if second is not None:
            err += second.stop()
    assert "Traceback" not in err, err
