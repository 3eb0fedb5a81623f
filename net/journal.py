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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    deck_name TEXT NOT NULL,
    deck_data BLOB NOT NULL,
    options BLOB NOT NULL,
    password_hash TEXT,
    bot_takeover INTEGER NOT NULL,
    owner INTEGER,
    status TEXT NOT NULL,
    seed INTEGER,
    start_seats BLOB,
    rules BLOB,
    next_member INTEGER NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS members (
    code TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
    member INTEGER NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    token_hash TEXT,
    bot INTEGER NOT NULL,
    bot_seed INTEGER NOT NULL,
    ready INTEGER NOT NULL,
    left_room INTEGER NOT NULL,
    bot_level TEXT,
    PRIMARY KEY (code, member)
);
CREATE TABLE IF NOT EXISTS commands (
    code TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    seat INTEGER,
    command BLOB,
    now REAL NOT NULL,
    PRIMARY KEY (code, idx)
);
"""

_ROOM_COLUMNS = (
    "code",
    "game",
    "deck_name",
    "deck_data",
    "options",
    "password_hash",
    "bot_takeover",
    "owner",
    "status",
    "seed",
    "start_seats",
    "rules",
    "next_member",
    "created",
)
DB_FILE = "host.sqlite3"
INSERT_COMMAND = "INSERT INTO commands VALUES (?,?,?,?,?)"
COMMAND_ROW_BYTES = 32
"""A command row's bytes besides the packed command (room code, index, seat, time, keys)."""
LOCK_FILE = "host.lock"


def _pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def journaled_bytes(record: CommandRecord) -> int:
    """About how many bytes ``record`` takes in the journal: its packed command and its row."""
    return COMMAND_ROW_BYTES + (0 if record.command is None else len(_pack(record.command)))


def _unpack(blob: bytes | None) -> Any:
    return None if blob is None else msgpack.unpackb(blob, raw=False, strict_map_key=False)


class JournalLocked(Exception):
    """Another host already uses this data folder."""


@dataclass
class RoomRecord:
    code: str
    game: str
    deck_name: str
    deck_data: dict[str, Any]
    options: dict[str, Any]
    password_hash: str | None
    bot_takeover: bool
    owner: int | None
    status: str
    next_member: int
    created: float
    seed: int | None = None
    start_seats: list[int] | None = None
    rules: dict[str, Any] | None = None


@dataclass
class MemberRecord:
    member: int
    seat: int | None
    name: str
    token_hash: str | None
    bot: bool
    bot_seed: int
    ready: bool
    left: bool
    bot_level: str | None = None
    """A bot's level (``None``: a person, or a journal older than bot levels)."""


@dataclass
class CommandRecord:
    """One accepted command; ``command is None`` marks a timer tick."""

    seat: int | None
    command: dict[str, Any] | None
    now: float


@dataclass
class StoredRoom:
    room: RoomRecord
    members: list[MemberRecord] = field(default_factory=list)
    commands: list[CommandRecord] = field(default_factory=list)


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
        self._add_missing_columns()

    def _add_missing_columns(self) -> None:
        """Bring a journal written by an older host up to date (new columns are nullable)."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(members)")}
        if "bot_level" not in columns:
            self._db.execute("ALTER TABLE members ADD COLUMN bot_level TEXT")

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

    @staticmethod
    def _room_row(room: RoomRecord) -> tuple[str, tuple[Any, ...]]:
        # An upsert, not INSERT OR REPLACE: replacing would cascade-delete commands.
        updates = ", ".join(f"{column}=excluded.{column}" for column in _ROOM_COLUMNS[1:])
        return (
            f"INSERT INTO rooms ({', '.join(_ROOM_COLUMNS)})"
            f" VALUES ({', '.join('?' * len(_ROOM_COLUMNS))})"
            f" ON CONFLICT(code) DO UPDATE SET {updates}",
            (
                room.code,
                room.game,
                room.deck_name,
                _pack(room.deck_data),
                _pack(room.options),
                room.password_hash,
                int(room.bot_takeover),
                room.owner,
                room.status,
                room.seed,
                None if room.start_seats is None else _pack(room.start_seats),
                None if room.rules is None else _pack(room.rules),
                room.next_member,
                room.created,
            ),
        )

    @staticmethod
    def _member_rows(code: str, members: list[MemberRecord]) -> list[tuple[str, tuple[Any, ...]]]:
        rows: list[tuple[str, tuple[Any, ...]]] = [("DELETE FROM members WHERE code=?", (code,))]
        for m in members:
            rows.append(
                (
                    "INSERT INTO members VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (
                        code,
                        m.member,
                        m.seat,
                        m.name,
                        m.token_hash,
                        int(m.bot),
                        m.bot_seed,
                        int(m.ready),
                        int(m.left),
                        m.bot_level,
                    ),
                )
            )
        return rows

    def save(self, room: RoomRecord, members: list[MemberRecord]) -> None:
        """Store a room's settings and members (replacing what was there)."""
        self._transaction([self._room_row(room), *self._member_rows(room.code, members)])

    def start_game(self, room: RoomRecord, members: list[MemberRecord]) -> None:
        """A new game replaces the previous game's commands, atomically."""
        self._transaction(
            [
                ("DELETE FROM commands WHERE code=?", (room.code,)),
                self._room_row(room),
                *self._member_rows(room.code, members),
            ]
        )

    def append(self, code: str, index: int, record: CommandRecord) -> None:
        """Journal one accepted command (or tick).

        In an event loop it is committed with the others of this loop turn,
        before any frame goes out (see :meth:`commit`); else on return.
        """
        self._uncommitted.append(
            (
                code,
                index,
                record.seat,
                None if record.command is None else _pack(record.command),
                record.now,
            )
        )
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
        return _read_rooms(self._db)


def read_journal(data_dir: Path, code: str | None = None) -> list[StoredRoom]:
    """Read another host's journal without disturbing it (read-only, no lock).

    For tools that audit a running or killed host, such as the chaos bench:
    they see exactly what a restarted host would replay. ``code`` reads one room.
    """
    uri = f"{(data_dir / DB_FILE).resolve().as_uri()}?mode=ro"
    db = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        return _read_rooms(db, code)
    finally:
        db.close()


def _read_rooms(db: sqlite3.Connection, code: str | None = None) -> list[StoredRoom]:
    where, params = ("WHERE code=?", (code,)) if code is not None else ("", ())
    rooms: dict[str, StoredRoom] = {}
    for row in db.execute(f"SELECT * FROM rooms {where} ORDER BY created", params):
        record = RoomRecord(
            code=row[0],
            game=row[1],
            deck_name=row[2],
            deck_data=_unpack(row[3]),
            options=_unpack(row[4]),
            password_hash=row[5],
            bot_takeover=bool(row[6]),
            owner=row[7],
            status=row[8],
            seed=row[9],
            start_seats=_unpack(row[10]),
            rules=_unpack(row[11]),
            next_member=row[12],
            created=row[13],
        )
        rooms[record.code] = StoredRoom(record)
    for row in db.execute(
        "SELECT code, member, seat, name, token_hash, bot, bot_seed, ready, left_room,"
        f" bot_level FROM members {where} ORDER BY code, member",
        params,
    ):
        if row[0] in rooms:
            rooms[row[0]].members.append(
                MemberRecord(
                    row[1],
                    row[2],
                    row[3],
                    row[4],
                    bool(row[5]),
                    row[6],
                    bool(row[7]),
                    bool(row[8]),
                    row[9],
                )
            )
    for row in db.execute(
        f"SELECT code, seat, command, now FROM commands {where} ORDER BY code, idx", params
    ):
        if row[0] in rooms:
            rooms[row[0]].commands.append(CommandRecord(row[1], _unpack(row[2]), row[3]))
    return list(rooms.values())
