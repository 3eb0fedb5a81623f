"""The host's SQLite journal: enough to rebuild every room after a crash.

Rooms, their members (with token hashes, never tokens), the deck *data* (so a
restart never depends on the deck file again), options, each game's seed and
setup, and every accepted command in order with the host time it was applied
at. A room is rebuilt by calling the game's ``setup`` and replaying the
commands; the commit of a command happens before any view of its result is
sent, so whatever a player saw survives a crash of the host process.

WAL mode with ``synchronous=NORMAL``: a commit survives the process being
killed (SIGKILL), and costs well under a millisecond, so the room task calls
it directly instead of paying a thread hop per command.

Commands are committed in groups: :meth:`Journal.append` queues the row and
the queue is committed as one transaction at the end of the event loop's turn
(a ``call_soon``), and in any case by :meth:`Journal.commit`, which every
connection calls before it writes anything. So the commit still comes before
any view of the command goes out, but a busy host pays one commit per loop
turn instead of one per command.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import sqlite3
from pathlib import Path
from typing import Any

from partyhost.net.journalrows import (
    INSERT_COMMAND,
    SCHEMA,
    CommandRecord,
    MemberRecord,
    RoomRecord,
    StoredRoom,
    add_missing_columns,
    command_row,
    member_rows,
    read_rooms,
    room_row,
)

__all__ = [
    "CommandRecord",
    "Journal",
    "JournalLocked",
    "MemberRecord",
    "RoomRecord",
    "StoredRoom",
    "read_journal",
]

log = logging.getLogger(__name__)

DB_FILE = "host.sqlite3"
LOCK_FILE = "host.lock"


class JournalLocked(Exception):
    """Another host already uses this data folder."""


class Journal:
    """One SQLite database per host; writes commit before returning, commands by the turn's end."""

    def __init__(self, data_dir: Path | None) -> None:
        self._lock_fd: int | None = None
        self._uncommitted: list[tuple[Any, ...]] = []
        self._commit_planned: asyncio.AbstractEventLoop | None = None
        """The loop whose next turn commits (a loop that closed first does not count)."""
        if data_dir is None:
            target = ":memory:"
        else:
            data_dir.mkdir(parents=True, exist_ok=True)
            self._lock(data_dir / LOCK_FILE)
            target = str(data_dir / DB_FILE)
        self._target = target
        self._db = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        # Checkpoints (which fsync) run in a thread via checkpoint(), not inside a commit
        # on the event loop: they were the journal's only multi-millisecond pauses.
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self._db.executescript(SCHEMA)
        add_missing_columns(self._db)

    def _lock(self, path: Path) -> None:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise JournalLocked(f"another partyhost host is using {path.parent}") from None
        self._lock_fd = fd

    def checkpoint(self) -> None:
        """Copy the WAL into the database (slow: fsync). Call it from a worker thread."""
        if self._target == ":memory:":
            return
        side = sqlite3.connect(self._target, isolation_level=None)
        try:
            side.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            side.close()

    def close(self) -> None:
        self.commit()
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _transaction(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Run ``statements`` as one transaction, after the commands not yet committed."""
        rows, self._uncommitted = self._uncommitted, []
        cursor = self._db.cursor()
        cursor.execute("BEGIN")
        try:
            if rows:
                cursor.executemany(INSERT_COMMAND, rows)
            for sql, params in statements:
                cursor.execute(sql, params)
            cursor.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    cursor.execute("ROLLBACK")
            self._uncommitted[:0] = rows
            raise

    def save(self, room: RoomRecord, members: list[MemberRecord]) -> None:
        """Store a room's settings and members (replacing what was there)."""
        self._transaction([room_row(room), *member_rows(room.code, members)])

    def start_game(self, room: RoomRecord, members: list[MemberRecord]) -> None:
        """A new game replaces the previous game's commands, atomically."""
        self._transaction(
            [
                ("DELETE FROM commands WHERE code=?", (room.code,)),
                room_row(room),
                *member_rows(room.code, members),
            ]
        )

    def append(self, code: str, index: int, record: CommandRecord) -> None:
        """Journal one accepted command (or tick).

        In an event loop it is committed with the others of this loop turn,
        before any frame goes out (see :meth:`commit`); else on return.
        """
        self._uncommitted.append(command_row(code, index, record))
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None and loop is self._commit_planned:
            return
        if loop is None:  # no loop turn to wait for: commit now, failing like any write
            try:
                self._transaction([])
            except BaseException:
                self._uncommitted.pop()
                raise
            return
        self._commit_planned = loop
        loop.call_soon(self.commit)

    @property
    def uncommitted(self) -> int:
        """Commands appended but not committed yet."""
        return len(self._uncommitted)

    def commit(self) -> bool:
        """Commit the appended commands in one transaction; False if that failed.

        Cheap when there is nothing to commit; connections call it before
        every write so no view goes out ahead of its command. A failed commit
        is logged and its commands are kept for the next try.
        """
        self._commit_planned = None
        if not self._uncommitted:
            return True
        try:
            self._transaction([])
        except sqlite3.Error:
            log.exception("the journal could not commit %d command(s)", len(self._uncommitted))
            return False
        return True

    def delete_room(self, code: str) -> None:
        self._transaction([("DELETE FROM rooms WHERE code=?", (code,))])

    def load(self) -> list[StoredRoom]:
        """Every stored room with its members and commands, oldest room first."""
        self.commit()
        return read_rooms(self._db)


def read_journal(data_dir: Path, code: str | None = None) -> list[StoredRoom]:
    """Read another host's journal without disturbing it (read-only, no lock).

    For tools that audit a running or killed host, such as the chaos bench:
    they see exactly what a restarted host would replay. ``code`` reads one room.
    """
    uri = f"{(data_dir / DB_FILE).resolve().as_uri()}?mode=ro"
    db = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        return read_rooms(db, code)
    finally:
        db.close()
