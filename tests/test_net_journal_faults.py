"""The journal under damage and a full disk, and its files kept private, on real processes."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import msgpack
import pytest
from doorhelpers import partyhost, serve_args
from nethelpers import LOOPBACK, HostProcess, Seat, counting, step, table
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p


def _env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, PARTYHOST_CONFIG_DIR=str(tmp_path / "config"))


def test_a_journal_that_is_not_a_database_is_named_in_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    journal = data / "host.sqlite3"
    journal.write_bytes(b"certainly not SQLite " * 200)
    bare = subprocess.run(
        [
            sys.executable,
            "-m",
            "partyhost.net",
            "--host",
            LOOPBACK,
            "--port",
            "0",
            "--data",
            str(data),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(tmp_path),
        check=False,
        encoding="utf-8",
    )
    served = partyhost(*serve_args(data), env=_env(tmp_path))
    for result in (bare, served):
        assert result.returncode == 1, result
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        assert "Traceback" not in result.stderr
        assert str(journal) in lines[0]
        assert "move it aside" in lines[0] and "fresh --data" in lines[0]


async def _room(port: int, owner: str, rng: Rng, steps: int) -> tuple[list[Seat], str]:
    seats, code = await table(port, [owner, f"{owner}'s friend"])
    for _ in range(steps):
        assert await step(seats, counting(), rng)
    return seats, code


async def test_one_damaged_room_is_set_aside_and_every_other_room_comes_back(
    tmp_path: Path,
) -> None:
    first = HostProcess(tmp_path)
    port = await first.ready()
    rooms: dict[str, tuple[str, str, int]] = {}
    try:
        for owner in ("Ann", "Bea", "Cy"):
            seats, code = await _room(port, owner, Rng(len(owner)), 4)
            joined = seats[0].last(p.JOINED)
            assert joined is not None
            rooms[owner] = (code, joined["token"], seats[0].version)
            for seat in seats:
                await seat.close()
    finally:
        assert "Traceback" not in first.stop()
    good, unreadable, unplayable = (rooms[name][0] for name in ("Ann", "Bea", "Cy"))
    with contextlib.closing(sqlite3.connect(tmp_path / "host.sqlite3")) as db, db:
        game = "(SELECT game_id FROM rooms WHERE code=?)"
        stored = db.execute(
            f"SELECT COUNT(*) FROM commands WHERE game_id={game}", (unreadable,)
        ).fetchone()[0]
        last = f"SELECT MAX(idx) FROM commands WHERE game_id={game}"
        # A blob that is not msgpack at all, and a command no game would take.
        db.execute(
            f"UPDATE commands SET command=x'c1c1' WHERE game_id={game} AND idx=({last})",
            (unreadable, unreadable),
        )
        db.execute(
            f"UPDATE commands SET command=? WHERE game_id={game} AND idx=({last})",
            (msgpack.packb({"type": "no such move"}), unplayable, unplayable),
        )

    second = HostProcess(tmp_path)
    port = await second.ready()
    try:
        ann = await Seat.open(port, "Ann", token=rooms["Ann"][1])
        assert ann.conn.welcome["resumed"] is True
        await ann.until(lambda: ann.version == rooms["Ann"][2])
        await ann.list_rooms()
        listed = await ann.expect(p.ROOMS)
        assert [room["code"] for room in listed["rooms"]] == [good]
        await ann.close()
        for name in ("Bea", "Cy"):
            gone = await Seat.open(port, name, token=rooms[name][1])
            assert gone.conn.welcome["resumed"] is False
            assert (await gone.expect(p.ERROR))["code"] == "token_unknown"
            await gone.close()
    finally:
        err = second.stop()
    assert "Traceback" not in err, err
    for code in (unreadable, unplayable):
        assert any(f"room {code} cannot be restored" in line for line in err.splitlines()), err
    with contextlib.closing(sqlite3.connect(tmp_path / "host.sqlite3")) as db:
        live = {row[0] for row in db.execute("SELECT code FROM rooms")}
        aside = {row[0] for row in db.execute("SELECT code FROM set_aside_rooms")}
        game = "(SELECT game_id FROM set_aside_rooms WHERE code=?)"
        kept = db.execute(
            f"SELECT COUNT(*) FROM commands WHERE game_id={game}", (unreadable,)
        ).fetchone()[0]
        statuses = {
            row[0]
            for row in db.execute(
                f"SELECT status FROM games WHERE id IN ({game}, {game})", (unreadable, unplayable)
            )
        }
    assert live == {good}
    assert aside == {unreadable, unplayable}
    assert kept == stored >= 4  # the game's commands are kept for a look, damaged one included
    assert statuses == {"abandoned"}  # and neither game is ever replayed


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def _check_private_files(data: Path) -> None:
    host = HostProcess(data)
    port = await host.ready()
    try:
        seat = await Seat.open(port, "Ann")
        await seat.create_room("counting", password="kazoo")
        await seat.expect(p.JOINED)
        files = [
            "host.sqlite3",
            "host.sqlite3-wal",
            "host.sqlite3-shm",
            "host.lock",
            "host.reserve",
        ]
        assert {name: oct(_mode(data / name)) for name in files} == dict.fromkeys(files, "0o600")
        assert oct(_mode(data)) == "0o700"
        await seat.close()
    finally:
        host.stop()


async def test_the_data_folder_and_journal_files_are_private(tmp_path: Path) -> None:
    old_umask = os.umask(0o022)  # what most systems use: new files readable by everyone
    try:
        data = tmp_path / "data"
        await _check_private_files(data)
        # A folder and files left readable (by an older host, or by hand) are closed on start.
        for path in [data, *data.iterdir()]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        await _check_private_files(data)
    finally:
        os.umask(old_umask)


# --- a full disk -----------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MiB tmpfs: the journal really runs out of space on it (needs root to mount)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
        encoding="utf-8",
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {made.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(disk: Path) -> Path:
    """Take every free byte of ``disk`` with one file; returns it."""
    filler = disk / "filler"
    chunk = b"\0" * 65536
    with filler.open("wb") as handle:
        while True:
            try:
                handle.write(chunk)
                handle.flush()
            except OSError as error:
                assert error.errno == errno.ENOSPC
                break
    with contextlib.suppress(OSError), filler.open("ab") as handle:  # the last partial page
        while True:
            handle.write(b"\0")
            handle.flush()
    return filler


RESERVE = ("--disk-reserve-mib", "0.02")
"""About 200 moves of reserve: the 4 MiB disk holds it, and it runs out in seconds."""


async def created_once_space_is_back(seat: Seat, timeout: float = 15.0) -> str:
    """Ask for a room until the host takes new games again; its code."""
    async with asyncio.timeout(timeout):
        while True:
            mark = seat.mark()
            await seat.create_room("counting")
            await seat.until(
                lambda m0=mark: any(m["t"] in (p.JOINED, p.ERROR) for m in seat.log[m0:])
            )
            answer = next(m for m in seat.log[mark:] if m["t"] in (p.JOINED, p.ERROR))
            if answer["t"] == p.JOINED:
                return str(answer["code"])
            assert answer["code"] == "journal_unavailable", answer
            assert "disk is full" in answer["message"], answer
            await asyncio.sleep(0.2)


async def _play_until_refused(seats: list[Seat]) -> dict[str, object]:
    """Play (bot moves) until the host refuses a move for want of a journal."""
    game, rng = counting(), Rng(3)
    async with asyncio.timeout(120):
        for _ in range(5000):
            for seat in seats:
                view = seat.view
                command = None if view is None else game.bot_command(view["view"], rng, 0)
                if command is None:
                    continue
                mark = seat.mark()
                version = seat.version
                await seat.play(command)
                with contextlib.suppress(TimeoutError):  # accepted, its view held back
                    await seat.until(
                        lambda s=seat, m=mark, v=version: (
                            s.version > v or any(x["t"] == p.ERROR for x in s.log[m:])
                        ),
                        timeout=2,
                    )
                errors = [x for x in seat.log[mark:] if x["t"] == p.ERROR]
                if errors and errors[0]["code"] == "journal_unavailable":
                    return errors[0]
                break
            else:
                await asyncio.sleep(0.05)
    raise AssertionError("the disk never filled up")


async def test_a_full_disk_refuses_moves_keeps_heartbeats_and_recovers_losing_nothing(
    small_disk: Path,
) -> None:
    data = small_disk / "data"
    first = HostProcess(data, extra=RESERVE)
    port = await first.ready()
    second: HostProcess | None = None
    seats: list[Seat] = []
    try:
        seats, _ = await table(port, ["Ann", "Bob"], {"target": 10_000})
        token = seats[0].last(p.JOINED)["token"]  # type: ignore[index]
        filler = _fill(small_disk)
        filled_at = max(seat.version for seat in seats)
        refusal = await _play_until_refused(seats)  # once the reserve is used up too
        assert "cannot save" in str(refusal["message"])
        assert "disk is full" in str(refusal["message"])
        held_at = max(seat.version for seat in seats)
        assert held_at > filled_at  # the reserve kept the game going for a while

        # Heartbeats go on: silent for 3 s (1 s x 3), a client would be dropped by now.
        await asyncio.sleep(5)
        for seat in seats:
            assert not seat.done
            mark = seat.mark()
            await seat.chat("still there?")
            error = await seat.expect(p.ERROR, since=mark)
            assert error["code"] == "journal_unavailable"
        assert max(seat.version for seat in seats) == held_at  # nothing went out unsaved

        filler.unlink()  # space is back: the host catches up by itself
        await seats[0].until(lambda: seats[0].version > held_at, timeout=15)
        assert await step(seats, counting(), Rng(9), timeout=15)  # and takes moves again
        await asyncio.sleep(0.3)
        seen = max(seat.version for seat in seats)
        cy = await Seat.open(port, "Cy")  # and, with its reserve back, starts new games
        await created_once_space_is_back(cy)
        await cy.close()

        first.kill()  # nothing kept only in memory: the journal has every move seen
        second = HostProcess(data)
        port = await second.ready()
        back = await Seat.open(port, "Ann", token=token)
        assert back.conn.welcome["resumed"] is True
        await back.until(lambda: back.view is not None)
        assert back.version == seen
        await back.close()
    finally:
        for seat in seats:
            await seat.close()
        err = first.stop()
        if second is not None:
            second.stop()
    failing = [line for line in err.splitlines() if "cannot be written" in line]
    assert len(failing) == 1, err  # said once, not once per try
    assert "writes again" in err
    assert "Traceback" not in err


async def _round_trip(seat: Seat, n: int) -> float:
    """Seconds from a ``ping`` to its ``pong`` (asserts it comes within 10 s)."""
    mark = seat.mark()
    sent = time.monotonic()
    await seat.ping(n)
    await seat.until(
        lambda: any(m["t"] == p.PONG and m.get("n") == n for m in seat.log[mark:]), timeout=10
    )
    return time.monotonic() - sent


async def test_a_held_write_lock_costs_a_bounded_wait_and_the_host_keeps_answering(
    tmp_path: Path,
) -> None:
    """Another process holds the database's write lock: pings still get their pong at once,
    moves are refused with a clear message meanwhile, and nothing is lost once it lets go."""
    data = tmp_path / "data"
    host = HostProcess(data)
    port = await host.ready()
    seats: list[Seat] = []
    locker = sqlite3.connect(data / "host.sqlite3", timeout=0, isolation_level=None)
    try:
        seats, _ = await table(port, ["Ann", "Bob"], {"target": 10_000})
        game, rng = counting(), Rng(5)
        assert await step(seats, game, rng)
        before = max(seat.version for seat in seats)
        locker.execute("BEGIN IMMEDIATE")  # the write lock, held as a backup tool would
        for seat in seats:  # a move: the commit meets the lock
            view = seat.view
            command = None if view is None else game.bot_command(view["view"], rng, 0)
            if command is not None:
                mark = seat.mark()
                await seat.play(command)
                with contextlib.suppress(TimeoutError):
                    await seat.until(
                        lambda s=seat, m=mark: any(x["t"] == p.ERROR for x in s.log[m:]),
                        timeout=2,
                    )
                break
        trips = [await _round_trip(seats[1], n) for n in range(1, 16)]
        assert max(trips) < 2.0, trips  # never a silent host (SQLite alone would wait 5 s)
        mark = seats[0].mark()
        await seats[0].chat("anyone?")
        refusal = await seats[0].expect(p.ERROR, since=mark)
        assert refusal["code"] == "journal_unavailable", refusal
        assert "busy" in str(refusal["message"]), refusal
        assert max(seat.version for seat in seats) == before  # nothing went out unsaved

        locker.execute("ROLLBACK")  # the lock goes: the held move is saved and shown
        await seats[0].until(lambda: seats[0].version > before, timeout=10)
        assert await step(seats, game, rng, timeout=10)
    finally:
        locker.close()
        for seat in seats:
            await seat.close()
        err = host.stop()
    assert "Traceback" not in err, err
