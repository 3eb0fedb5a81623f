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

Every write is queued and the queue is committed as one transaction: commands
at the end of the event loop's turn (a ``call_soon``), room settings at once,
and in any case by :meth:`Journal.commit`, which every connection calls
before it writes anything. So the commit still comes before any view of the
command goes out, but a busy host pays one commit per loop turn.

A write that fails (a full disk) loses nothing: the queue is kept, retried
now and then, and :attr:`Journal.failing` tells the host to refuse new
commands until a commit succeeds again. The data folder and its files are
private to the host's user (0700 and 0600): they hold password hashes.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from partyhost.net.journalrows import (
    SCHEMA,
    SET_ASIDE_SCHEMA,
    CommandRecord,
    MemberRecord,
    RoomRecord,
    StoredRoom,
    add_missing_columns,
    member_rows,
    pack,
    read_room,
    room_codes,
    room_row,
    set_aside_statements,
)

__all__ = [
    "CommandRecord",
    "Journal",
    "JournalLocked",
    "JournalUnusable",
    "MemberRecord",
    "RoomRecord",
    "StoredRoom",
    "read_journal",
]

log = logging.getLogger(__name__)

DB_FILE = "host.sqlite3"
INSERT_COMMAND = "INSERT INTO commands VALUES (?,?,?,?,?)"
LOCK_FILE = "host.lock"
SIDE_FILES = ("-wal", "-shm")
RETRY_SECONDS = 0.5
"""While writes fail, a commit is tried at most this often (every connection asks)."""
REMIND_SECONDS = 60.0
"""While writes fail, the log says so again this often, not on every try."""

Statement = tuple[str, tuple[Any, ...]]


class JournalUnusable(OSError):
    """The data folder's journal cannot be opened or read; the message says what to do."""


class JournalLocked(JournalUnusable):
    """Another host already uses this data folder."""


def unusable(path: str, error: sqlite3.Error) -> JournalUnusable:
    """One line naming the file, what is wrong and what to do about it."""
    if type(error) is sqlite3.DatabaseError:  # not a database, or a damaged one
        return JournalUnusable(
            f"the journal {path} is damaged ({error}): move it aside and start again"
            " (its rooms are lost), or start with a fresh --data folder"
        )
    return JournalUnusable(
        f"cannot use the journal {path} ({error}): check the folder's free space and"
        " permissions, or start with a fresh --data folder"
    )


def _make_private(folder: Path) -> None:
    """The folder 0700 and the journal's files 0600, whether new or left by an older host."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(folder, 0o700)
    database = folder / DB_FILE
    for path in (database, *(folder / f"{DB_FILE}{side}" for side in SIDE_FILES)):
        with contextlib.suppress(FileNotFoundError):
            os.chmod(path, 0o600)
    # SQLite gives the -wal and -shm files it creates the database file's mode.
    os.close(os.open(database, os.O_WRONLY | os.O_CREAT, 0o600))


class Journal:
    """One SQLite database per host; writes commit before returning, commands by the turn's end."""

    def __init__(self, data_dir: Path | None) -> None:
        self._lock_fd: int | None = None
        self._pending: list[Statement] = []
        self._commit_planned: asyncio.AbstractEventLoop | None = None
        """The loop whose next turn commits (a loop that closed first does not count)."""
        self.failure: str | None = None
        """Why the last commit failed; None while writing works."""
        self._failing_since = 0.0
        self._next_try = 0.0
        self._reminded = 0.0
        if data_dir is None:
            target = ":memory:"
        else:
            _make_private(data_dir)
            self._lock(data_dir / LOCK_FILE)
            target = str(data_dir / DB_FILE)
        self._target = target
        self._db = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            # Checkpoints (which fsync) run in a thread via checkpoint(), not inside a commit
            # on the event loop: they were the journal's only multi-millisecond pauses.
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._db.executescript(SCHEMA + SET_ASIDE_SCHEMA)
            add_missing_columns(self._db)
        except sqlite3.Error as error:
            self._db.close()
            self._unlock()
            raise unusable(target, error) from None

    @property
    def path(self) -> str:
        return self._target

    def _lock(self, path: Path) -> None:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        os.fchmod(fd, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise JournalLocked(f"another partyhost host is using {path.parent}") from None
        self._lock_fd = fd

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

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
        if not self.commit(force=True):
            log.error(
                "closing with %d change(s) the journal %s could not save",
                len(self._pending),
                self._target,
            )
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()
        self._unlock()

    # --- writing -----------------------------------------------------------------

    @property
    def failing(self) -> bool:
        """True while the journal cannot write: the host takes no new commands then."""
        return self.failure is not None

    @property
    def uncommitted(self) -> int:
        """Writes queued but not committed yet."""
        return len(self._pending)

    def save(self, room: RoomRecord, members: list[MemberRecord]) -> None:
        """Store a room's settings and members (replacing what was there)."""
        self._write([room_row(room), *member_rows(room.code, members)])

    def start_game(self, room: RoomRecord, members: list[MemberRecord]) -> None:
        """A new game replaces the previous game's commands, atomically."""
        self._write(
            [
                ("DELETE FROM commands WHERE code=?", (room.code,)),
                room_row(room),
                *member_rows(room.code, members),
            ]
        )

    def delete_room(self, code: str) -> None:
        self._write([("DELETE FROM rooms WHERE code=?", (code,))])

    def set_aside(self, code: str, reason: str) -> None:
        """Move a room that cannot be rebuilt out of the way, keeping its rows for a look."""
        log.warning(
            "room %s cannot be restored (%s); it is set aside (tables set_aside_*) in %s",
            code,
            reason,
            self._target,
        )
        self._write(set_aside_statements(code, reason, time.time()))

    def _write(self, statements: list[Statement]) -> None:
        """Queue ``statements`` after the writes already queued and try to commit them all."""
        self._pending.extend(statements)
        self.commit()

    def append(self, code: str, index: int, record: CommandRecord) -> None:
        """Journal one accepted command (or tick).

        In an event loop it is committed with the others of this loop turn,
        before any frame goes out (see :meth:`commit`); else on return.
        """
        command = None if record.command is None else pack(record.command)
        self._pending.append((INSERT_COMMAND, (code, index, record.seat, command, record.now)))
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            self.commit()
        elif loop is not self._commit_planned:
            self._commit_planned = loop
            loop.call_soon(self.commit)

    def commit(self, force: bool = False) -> bool:
        """Commit every queued write in one transaction; False if that failed.

        Cheap when there is nothing to commit; connections call it before
        every write so no view goes out ahead of its command. A failed commit
        keeps its writes for the next try; while failing, tries are spaced by
        :data:`RETRY_SECONDS` unless ``force``.
        """
        self._commit_planned = None
        if not self._pending:
            return True
        now = time.monotonic()
        if self.failure is not None and now < self._next_try and not force:
            return False
        statements, self._pending = self._pending, []
        try:
            self._run(statements)
        except BaseException as error:
            self._pending[:0] = statements
            if not isinstance(error, sqlite3.Error):
                raise
            self._failed(error, now)
            return False
        if self.failure is not None:
            log.warning(
                "the journal %s writes again after %.0f s; %d waiting change(s) saved",
                self._target,
                now - self._failing_since,
                len(statements),
            )
            self.failure = None
        return True

    def _run(self, statements: list[Statement]) -> None:
        cursor = self._db.cursor()
        cursor.execute("BEGIN")
        try:
            commands: list[tuple[Any, ...]] = []
            for sql, params in statements:
                if sql is INSERT_COMMAND:
                    commands.append(params)
                    continue
                if commands:
                    cursor.executemany(INSERT_COMMAND, commands)
                    commands = []
                cursor.execute(sql, params)
            if commands:
                cursor.executemany(INSERT_COMMAND, commands)
            cursor.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    cursor.execute("ROLLBACK")
            raise

    def _failed(self, error: sqlite3.Error, now: float) -> None:
        """Remember the failure; log it when it starts and then once a while, not per try."""
        self._next_try = now + RETRY_SECONDS
        if self.failure is None:
            self.failure = str(error)
            self._failing_since = self._reminded = now
            log.error(
                "the journal %s cannot be written (%s): the host refuses commands until it"
                " can; %d change(s) wait in memory",
                self._target,
                error,
                len(self._pending),
            )
        elif now - self._reminded >= REMIND_SECONDS:
            self._reminded = now
            log.error(
                "the journal %s still cannot be written after %.0f s (%s); %d change(s) wait",
                self._target,
                now - self._failing_since,
                error,
                len(self._pending),
            )

    # --- reading -----------------------------------------------------------------

    def load(self) -> list[StoredRoom]:
        """Every stored room with its members and commands, oldest room first.

        A room whose rows cannot be read is set aside; the others still load.
        """
        self.commit(force=True)
        try:
            codes = room_codes(self._db)
        except sqlite3.Error as error:
            raise unusable(self._target, error) from None
        rooms: list[StoredRoom] = []
        for code in codes:
            try:
                stored = read_room(self._db, code)
            except Exception as error:  # a damaged row, whatever it raises
                self.set_aside(code, f"its rows cannot be read: {type(error).__name__}: {error}")
                continue
            if stored is not None:
                rooms.append(stored)
        return rooms


def read_journal(data_dir: Path, code: str | None = None) -> list[StoredRoom]:
    """Read another host's journal without disturbing it (read-only, no lock).

    For tools that audit a running or killed host, such as the chaos bench:
    they see exactly what a restarted host would replay. ``code`` reads one room.
    """
    uri = f"{(data_dir / DB_FILE).resolve().as_uri()}?mode=ro"
    db = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        codes = room_codes(db) if code is None else [code]
        return [stored for each in codes if (stored := read_room(db, each)) is not None]
    finally:
        db.close()
