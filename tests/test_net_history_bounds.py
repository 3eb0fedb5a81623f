"""The game history stays bounded when a guest starts and drops games all night.

Each attack runs against a real host on loopback, and the database is read
beside it: games abandoned at once leave nothing, the same uploads in any
order are stored once, past ``--max-history-mib`` the oldest finished games
go, and a full disk (SQLite's page limit on the host's connection) stops
only new games until there is space again.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Awaitable, Sequence
from pathlib import Path
from typing import Any

from nethelpers import HostProcess, Seat, counting, deck_text, play_out, running_host, step, table
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from partyhost.net.store.database import DB_FILE
from partyhost.net.store.records import KEEP_AFTER_COMMANDS
from test_net_journal_faults import created_once_space_is_back

ALPHA = deck_text(30).replace("secret-word", "alpha-word").replace("Counting words", "Alpha")
BETA = deck_text(30).replace("secret-word", "beta-word").replace("Counting words", "Beta")
FILES = {"alpha": ALPHA, "beta": BETA}
PLENTY_OF_UPLOADS = (
    *("--uploads-per-second", "100", "--upload-burst", "100"),
    *("--uploads-per-address-per-second", "100", "--upload-address-burst", "100"),
)


def sent(texts: dict[str, str], order: Sequence[str]) -> list[dict[str, str]]:
    return [{"name": f"{name}.yaml", "text": texts[name]} for name in order]


async def started(seats: Sequence[Seat], deck_files: list[dict[str, str]], target: int = 15) -> str:
    """A new room of ``seats`` (the first owns it) playing the uploads; its code."""
    owner, guest = seats
    mark = owner.mark()
    await owner.create_room("counting", options={"target": target}, deck_files=deck_files)
    code = str((await owner.expect(p.JOINED, since=mark))["code"])
    mark = guest.mark()
    await guest.join_room(code)
    await guest.expect(p.JOINED, since=mark)
    await guest.set_ready()
    await owner.expect(p.ROOM, where=lambda r: len(r["seats"]) == 2 and r["seats"][1]["ready"])
    mark = owner.mark()
    await owner.start_game()
    await owner.expect(p.VIEW, since=mark)
    await guest.until(lambda: guest.view is not None and guest.room is not None)
    return code


async def left(seats: Sequence[Seat]) -> None:
    """Everyone leaves the room (it closes) and is back in the lobby."""
    for seat in seats:
        mark = seat.mark()
        await seat.leave_room()
        await seat.expect(p.LEFT, since=mark)
    for seat in seats:
        seat.log.clear()


async def finished(seats: Sequence[Seat], seed: int) -> None:
    await play_out(seats, counting(), Rng(seed))
    for seat in seats:
        await seat.until(lambda s=seat: s.room is not None and s.room["status"] == p.OVER)


def counted(data: Path, *tables: str) -> dict[str, int]:
    with contextlib.closing(sqlite3.connect(data / DB_FILE)) as db:
        return {
            table: db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in tables
        }


async def test_games_dropped_at_once_leave_nothing_and_uploads_in_any_order_are_stored_once(
    tmp_path: Path,
) -> None:
    host = HostProcess(tmp_path)
    port = await host.ready()
    try:
        seats = [await Seat.open(port, "Ann"), await Seat.open(port, "Bob")]
        for attempt in range(8):  # the attack: start a game, drop it, again in another order
            order = ("alpha", "beta") if attempt % 2 else ("beta", "alpha")
            await started(seats, sent(FILES, order), target=500)
            assert await step(seats, counting(), Rng(attempt))
            await left(seats)
        assert counted(tmp_path, "games", "decks") == {"games": 0, "decks": 0}

        await started(seats, sent(FILES, ("alpha", "beta")), target=500)
        rng = Rng(99)
        for _ in range(KEEP_AFTER_COMMANDS):  # played for a while, then left: kept
            assert await step(seats, counting(), rng)
        await left(seats)
        for seed, order in enumerate((("beta", "alpha"), ("alpha",), ("alpha", "beta"))):
            await started(seats, sent(FILES, order))
            await finished(seats, seed)
            await left(seats)
        mark = seats[0].mark()
        await seats[0].list_past_games()
        listed = (await seats[0].expect(p.PAST_GAMES, since=mark))["games"]
        for game in listed:  # each replays with its decks, shared or not
            mark = seats[0].mark()
            await seats[0].get_replay(game["id"], first=0, count=1)
            assert (await seats[0].expect(p.REPLAY, since=mark))["total"] > 1
        for seat in seats:
            await seat.close()
    finally:
        err = host.stop()
    assert "Traceback" not in err, err
    assert [game["deck"] for game in listed] == [
        "alpha + beta",
        "alpha",
        "beta + alpha",
        "alpha + beta",  # the one played for a while: its players walking out ended it
    ]
    with contextlib.closing(sqlite3.connect(tmp_path / DB_FILE)) as db:
        statuses = sorted(row[0] for row in db.execute("SELECT status FROM games"))
        decks = db.execute("SELECT COUNT(*), SUM(length(data)) FROM decks").fetchone()
        parts = db.execute("SELECT COUNT(*) FROM game_decks").fetchone()[0]
    assert statuses == ["over"] * 4
    assert decks[0] == 2  # alpha and beta, once each, whatever the order they were sent in
    assert decks[1] < 2 * len(ALPHA)
    assert parts == 2 + 2 + 1 + 2


async def test_past_the_history_cap_the_oldest_finished_games_go_with_their_decks(
    tmp_path: Path,
) -> None:
    cap = 0.25  # MiB: an empty database and about six games of these decks
    host = HostProcess(
        tmp_path, extra=("--max-history-mib", str(cap), *PLENTY_OF_UPLOADS, "--log", "INFO")
    )
    port = await host.ready()
    games = 14
    try:
        seats = [await Seat.open(port, "Ann"), await Seat.open(port, "Bob")]
        for number in range(games):
            text = deck_text(400).replace("secret-word", f"game{number}-word")
            await started(seats, [{"name": f"night{number}.yaml", "text": text}])
            await finished(seats, number)
            await left(seats)
        running = await started(seats, sent(FILES, ("alpha",)), target=500)
        mark = seats[0].mark()
        await seats[0].list_past_games()
        listed = (await seats[0].expect(p.PAST_GAMES, since=mark))["games"]
        for seat in seats:
            await seat.close()
    finally:
        err = host.stop()
    assert "Traceback" not in err, err
    assert "oldest finished game(s)" in err and "under 0.25 MiB" in err
    with contextlib.closing(sqlite3.connect(tmp_path / DB_FILE)) as db:
        kept = [row[0] for row in db.execute("SELECT deck_name FROM games ORDER BY started")]
        decks = db.execute("SELECT COUNT(*) FROM decks").fetchone()[0]
        page = db.execute("PRAGMA page_size").fetchone()[0]
        used = page * (
            db.execute("PRAGMA page_count").fetchone()[0]
            - db.execute("PRAGMA freelist_count").fetchone()[0]
        )
        reserve = db.execute("SELECT COALESCE(SUM(length(filler)), 0) FROM reserve").fetchone()[0]
        room_game = db.execute("SELECT game_id FROM rooms WHERE code = ?", (running,)).fetchone()
    assert 2 <= len(kept) - 1 < games  # some were pruned, the newest stayed
    assert kept == [*(f"night{n}" for n in range(games - len(kept) + 1, games)), "alpha"]
    assert room_game is not None  # the running room's game is never pruned
    assert decks == len(kept)  # each pruned game's deck went with it
    assert used - reserve <= cap * 2**20 + 64 * 1024  # (the running game's rows came after)
    past = [game["deck"] for game in listed if game["status"] == "over"]
    assert past == list(reversed(kept[:-1]))


async def refused(seat: Seat, ask: Awaitable[None]) -> dict[str, Any]:
    mark = seat.mark()
    await ask
    return await seat.expect(p.ERROR, since=mark)


async def test_a_full_disk_keeps_the_running_games_refuses_new_ones_and_recovers(
    tmp_path: Path,
) -> None:
    quick = {"messages_per_second": 10_000.0, "message_burst": 10_000}  # moves in a hurry
    async with running_host(data_dir=tmp_path, **quick) as host:
        journal = host.journal
        assert journal is not None
        seats, _ = await table(host.port, ["Ann", "Bob"], {"target": 10_000})
        token = seats[0].last(p.JOINED)["token"]  # type: ignore[index]
        waiting, _ = await table(host.port, ["Cy", "Di"], start=False)
        # The disk fills up: SQLite's page limit on the host's own connection stands in for it.
        pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
        journal._db.execute(f"PRAGMA max_page_count = {pages}")
        game, rng = counting(), Rng(4)
        for _ in range(2000):
            if journal.short_of_space:
                break
            assert await step(seats, game, rng)
        assert journal.short_of_space and not journal.failing
        full_at = seats[0].version
        for _ in range(30):  # the running game goes on, every move saved before it is shown
            assert await step(seats, game, rng)
        assert seats[0].version >= full_at + 30

        eve = await Seat.open(host.port, "Eve")
        for seat, ask in (
            (eve, eve.create_room("counting")),
            (waiting[0], waiting[0].start_game()),
        ):
            error = await refused(seat, ask)
            assert error["code"] == "journal_unavailable"
            assert "disk is full" in error["message"] and "running go on" in error["message"]
        mark = waiting[1].mark()
        await waiting[1].chat("is the host still there?")  # the rest of the host answers
        await waiting[1].expect(p.CHAT_LINE, since=mark)

        journal._db.execute(f"PRAGMA max_page_count = {pages * 100}")  # space is back
        await created_once_space_is_back(eve)
        mark = waiting[0].mark()
        await waiting[0].start_game()
        await waiting[0].expect(p.VIEW, since=mark)
        seen = seats[0].version
        for seat in (*seats, *waiting, eve):
            await seat.close()
    async with running_host(data_dir=tmp_path) as again:  # nothing was kept only in memory
        ann = await Seat.open(again.port, "Ann", token=token)
        assert ann.conn.welcome["resumed"] is True
        await ann.until(lambda: ann.version == seen)
        await ann.close()
