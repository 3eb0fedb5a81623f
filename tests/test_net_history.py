"""The party's memory over the wire: past games, their replays and the night's standings.

Played with the test game ("counting", hidden hands of secret words) on a
real host: a finished game is listed and replayed step by step with every
hand shown; a running game's replay is refused and leaks nothing; standings
add up by name and survive a restart, and so does a game that ended just
before the host went down.
"""

from __future__ import annotations

import asyncio
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest
from nethelpers import Seat, counting, host_config, play_out, running_host, step, table
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from partyhost.net.clients.client import build
from partyhost.net.hosting.host import Host
from partyhost.net.store.database import DB_FILE, Store, StoreUnusable, read_store
from partyhost.net.store.records import KEEP_AFTER_COMMANDS, ResultRow
from partyhost.net.store.standings import standings


async def past_games(seat: Seat) -> list[dict[str, Any]]:
    mark = seat.mark()
    await seat.list_past_games()
    games: list[dict[str, Any]] = (await seat.expect(p.PAST_GAMES, since=mark))["games"]
    return games


async def whole_replay(seat: Seat, game_id: int, count: int = 3) -> list[dict[str, Any]]:
    """Every step of a replay, asked for page by page as a client would."""
    steps: list[dict[str, Any]] = []
    while True:
        mark = seat.mark()
        await seat.get_replay(game_id, first=len(steps), count=count)
        page = await seat.expect(p.REPLAY, since=mark)
        assert page["first"] == len(steps)
        steps += page["steps"]
        if len(steps) == page["total"]:
            return steps


async def eventually(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.02)


async def refusal(seat: Seat, message: dict[str, Any]) -> dict[str, Any]:
    mark = seat.mark()
    await seat.send(message)
    return await seat.expect(p.ERROR, since=mark)


async def finished_game(port: int, names: list[str], seed: int) -> list[Seat]:
    seats, _ = await table(port, names, options={"target": 15})
    await play_out(seats, counting(), Rng(seed))
    for seat in seats:
        await seat.until(lambda s=seat: s.room is not None and s.room["status"] == p.OVER)
    return seats


def own_words(seat: Seat) -> list[str]:
    view = seat.view
    assert view is not None
    return [card["word"] for card in view["view"]["hand"]]


async def test_a_finished_game_is_replayed_step_by_step_with_every_hand_shown() -> None:
    async with running_host() as host:
        seats = await finished_game(host.port, ["Ann", "Bob", "Cy"], seed=4)
        (game,) = await past_games(seats[1])
        assert (game["game"], game["status"], game["game_name"]) == ("counting", "over", "Counting")
        assert [(pl["seat"], pl["name"]) for pl in game["players"]] == [
            (0, "Ann"),
            (1, "Bob"),
            (2, "Cy"),
        ]
        winner = seats[0].view["view"]["winner"]  # type: ignore[index]
        assert [r["seat"] for r in game["results"] if r["won"]] == [winner]

        steps = await whole_replay(seats[2], game["id"])
        final = seats[0].version
        assert [s["step"] for s in steps] == list(range(len(steps)))
        assert [s["version"] for s in steps] == list(range(final + 1))
        assert steps[0]["kind"] == "setup" and steps[0]["events"] == []
        assert {s["kind"] for s in steps[1:]} <= {"move", "system", "timer"}
        last = steps[-1]["view"]
        assert last["over"] and last["you"] is None and last["legal"] == []
        for seat in seats:  # every hand, as its owner last saw it, in one view
            assert last["hands"][str(seat_of(seat))] == own_words(seat)
        played = [e for s in steps for e in s["events"] if e["kind"] == "played"]
        assert len(played) == sum(1 for s in steps if s["kind"] == "move")


def seat_of(seat: Seat) -> int:
    joined = seat.last(p.JOINED)
    assert joined is not None
    return int(joined["seat"])


async def test_a_running_game_is_never_listed_and_its_replay_is_refused() -> None:
    async with running_host() as host:
        seats, code = await table(host.port, ["Ann", "Bob"], options={"target": 500})
        game, rng = counting(), Rng(2)
        for _ in range(4):
            assert await step(seats, game, rng)
        assert await past_games(seats[0]) == [], "a running game is nobody else's business"
        (stored,) = host.journal.rooms(code)  # its number, as only the host knows it
        running = stored.game_id
        assert running is not None

        mark = seats[1].mark()
        error = await refusal(seats[1], build.get_replay(running))
        assert error["code"] == "game_running"
        assert "still being played" in error["message"] and code in error["message"]
        received = msgpack.packb([frame for frame in seats[1].log[mark:]])
        for word in own_words(seats[0]):  # Ann's hand never reaches Bob
            assert word.encode() not in received


async def test_replays_come_in_pages_and_bad_requests_get_clear_errors() -> None:
    async with running_host() as host:
        seats = await finished_game(host.port, ["Ann", "Bob"], seed=9)
        ann = seats[0]
        (game,) = await past_games(ann)
        mark = ann.mark()
        await ann.get_replay(game["id"], first=1, count=2)
        page = await ann.expect(p.REPLAY, since=mark)
        assert [s["step"] for s in page["steps"]] == [1, 2]
        assert page["info"]["steps"] == page["total"] > 3
        assert page["info"]["rounds"][0] == 0

        beyond = build.get_replay(game["id"], first=page["total"])
        assert (await refusal(ann, beyond))["code"] == "no_such_step"
        assert (await refusal(ann, build.get_replay(999)))["code"] == "no_such_game"
        bad_night = build.get_standings("last friday")
        assert (await refusal(ann, bad_night))["code"] == "bad_night"


async def test_a_game_cut_short_by_its_room_closing_is_never_replayed() -> None:
    async with running_host(idle_room_seconds=0.2) as host:
        seats, code = await table(host.port, ["Ann", "Bob"], options={"target": 500})
        rng = Rng(5)
        for _ in range(KEEP_AFTER_COMMANDS):  # played for a while: kept as abandoned
            assert await step(seats, counting(), rng)
        (stored,) = host.journal.rooms(code)
        game = {"id": stored.game_id}
        for seat in seats:  # everyone goes home mid-game: the idle room closes
            await seat.close()
        lobby = host.lobby
        assert lobby is not None
        await eventually(lambda: not lobby.rooms)
        ann = await Seat.open(host.port, "Ann")
        assert await past_games(ann) == []
        error = await refusal(ann, build.get_replay(game["id"]))
        assert error["code"] == "game_unfinished" and "never finished" in error["message"]


async def test_tonights_standings_add_up_every_game_and_survive_a_restart(tmp_path: Path) -> None:
    async with running_host(data_dir=tmp_path) as first:
        await finished_game(first.port, ["Ann", "Bob"], seed=1)
        seats = await finished_game(first.port, ["ann", "Cy"], seed=2)
        mark = seats[0].mark()
        await seats[0].get_standings()
        before = await seats[0].expect(p.STANDINGS, since=mark)
        for seat in seats:
            await seat.close()
    rows = {row["name"]: row for row in before["rows"]}
    assert set(rows) == {"ann", "Bob", "Cy"}, "Ann and ann are one player, shown as last named"
    assert rows["ann"]["played"] == 2 and rows["ann"]["games"][0]["game"] == "counting"
    assert sum(row["won"] for row in before["rows"]) == 2
    assert before["night"] == before["tonight"] and before["nights"] == [before["night"]]

    async with running_host(data_dir=tmp_path) as second:
        ann = await Seat.open(second.port, "Ann")
        await ann.get_standings()
        after = await ann.expect(p.STANDINGS)
        assert after["rows"] == before["rows"]
        assert len(await past_games(ann)) == 2, "both games kept across the restart"


async def test_a_game_that_ended_just_before_a_crash_is_kept_on_restore(tmp_path: Path) -> None:
    async with running_host(data_dir=tmp_path) as first:
        seats = await finished_game(first.port, ["Ann", "Bob"], seed=3)
        final = seats[0].version
        for seat in seats:
            await seat.close()
    with sqlite3.connect(tmp_path / DB_FILE) as db:  # as if the host died before marking it over
        db.execute("DELETE FROM results")
        db.execute("UPDATE games SET status = 'playing', ended = NULL, night = NULL")
    async with running_host(data_dir=tmp_path) as second:
        ann = await Seat.open(second.port, "Ann")
        (game,) = await past_games(ann)
        assert game["status"] == "over" and len(game["results"]) == 2
        steps = await whole_replay(ann, game["id"], count=50)
        assert steps[-1]["version"] == final
    history = read_store(tmp_path)  # tools read it without the host
    try:
        assert [entry.id for entry in history.games()] == [game["id"]]
    finally:
        history.close()


def result(name: str, won: bool, points: int | None = None, bot: bool = False) -> ResultRow:
    return ResultRow("counting", name, name.casefold(), bot, won, points, None)


def test_standings_join_names_like_seats_keep_bots_apart_and_rank_by_wins_then_points() -> None:
    rows = standings(
        [
            result("Ann", True, 10),
            result("Bob", False, 30),
            result("ANN", False, 5),
            result("Bob", True, 0),
            result("Bob", False, 1, bot=True),
            result("Cy", True, 3),
        ]
    )
    assert [(r.name, r.bot, r.games_played, r.games_won, r.points) for r in rows] == [
        ("Bob", False, 2, 1, 30),
        ("ANN", False, 2, 1, 15),
        ("Cy", False, 1, 1, 3),
        ("Bob", True, 1, 0, 1),
    ]


async def test_a_damaged_database_stops_the_host_with_one_line_and_frees_the_folder(
    tmp_path: Path,
) -> None:
    (tmp_path / DB_FILE).write_bytes(b"this is no database" * 100)
    host = Host(host_config(data_dir=tmp_path))
    with pytest.raises(StoreUnusable) as caught:
        await host.start()
    message = str(caught.value)
    assert DB_FILE in message and "\n" not in message and "fresh --data" in message
    (tmp_path / DB_FILE).unlink()
    Store(tmp_path).close()  # the folder's lock was given back


def test_the_database_file_is_private(tmp_path: Path) -> None:
    Store(tmp_path).close()
    assert stat.S_IMODE((tmp_path / DB_FILE).stat().st_mode) == 0o600
