"""What the journal stores and how it maps to SQLite rows: the records, the schema, reading.

Split from :mod:`partyhost.net.journal` (which handles the database: locking,
transactions, committing commands by the loop turn) so that adding a field
to a record is one place: its dataclass, its column, and the column lists
that write and read it.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

import msgpack

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
    created REAL NOT NULL,
    clock_offset REAL,
    paused_at REAL,
    paused_by TEXT
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
    disconnected_at REAL,
    grace_ends REAL,
    away INTEGER,
    engine_away INTEGER,
    stand_in INTEGER,
    newcomer INTEGER,
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

ADDED_COLUMNS: dict[str, tuple[tuple[str, str], ...]] = {
    "rooms": (("clock_offset", "REAL"), ("paused_at", "REAL"), ("paused_by", "TEXT")),
    "members": (
        ("bot_level", "TEXT"),
        ("disconnected_at", "REAL"),
        ("grace_ends", "REAL"),
        ("away", "INTEGER"),
        ("engine_away", "INTEGER"),
        ("stand_in", "INTEGER"),
        ("newcomer", "INTEGER"),
    ),
}
"""Columns added since the first journal format, by table: an older journal gets them."""

ROOM_COLUMNS = (
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
    "clock_offset",
    "paused_at",
    "paused_by",
)
MEMBER_COLUMNS = (
    "member",
    "seat",
    "name",
    "token_hash",
    "bot",
    "bot_seed",
    "ready",
    "left_room",
    "bot_level",
    "disconnected_at",
    "grace_ends",
    "away",
    "engine_away",
    "stand_in",
    "newcomer",
)
INSERT_COMMAND = "INSERT INTO commands VALUES (?,?,?,?,?)"


def pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def unpack(blob: bytes | None) -> Any:
    return None if blob is None else msgpack.unpackb(blob, raw=False, strict_map_key=False)


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
    clock_offset: float = 0.0
    """Seconds the game's clock is behind the host's: the time its games spent paused."""
    paused_at: float | None = None
    """The game's clock when it was paused (None: running)."""
    paused_by: str | None = None
    """Who paused it (a name, for "Paused by Ann")."""


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
    disconnected_at: float | None = None
    """When the player's connection went (host clock; None while connected)."""
    grace_ends: float | None = None
    """When the running grace period ends (host clock), so a restart gives no fresh one."""
    away: bool = False
    engine_away: bool = False
    """The game was told ``seat_away`` (so it must hear ``seat_back``)."""
    stand_in: bool = False
    """A bot plays this away person's seat."""
    newcomer: bool = False
    """Joined during the game and has not acted yet: a short grace if they drop."""


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


def add_missing_columns(db: sqlite3.Connection) -> None:
    """Bring a journal written by an older host up to date (added columns are nullable)."""
    for table, added in ADDED_COLUMNS.items():
        present = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        for column, kind in added:
            if column not in present:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


def room_row(room: RoomRecord) -> tuple[str, tuple[Any, ...]]:
    """The statement that stores ``room``."""
    # An upsert, not INSERT OR REPLACE: replacing would cascade-delete commands.
    updates = ", ".join(f"{column}=excluded.{column}" for column in ROOM_COLUMNS[1:])
    return (
        f"INSERT INTO rooms ({', '.join(ROOM_COLUMNS)})"
        f" VALUES ({', '.join('?' * len(ROOM_COLUMNS))})"
        f" ON CONFLICT(code) DO UPDATE SET {updates}",
        (
            room.code,
            room.game,
            room.deck_name,
            pack(room.deck_data),
            pack(room.options),
            room.password_hash,
            int(room.bot_takeover),
            room.owner,
            room.status,
            room.seed,
            None if room.start_seats is None else pack(room.start_seats),
            None if room.rules is None else pack(room.rules),
            room.next_member,
            room.created,
            room.clock_offset,
            room.paused_at,
            room.paused_by,
        ),
    )


def member_rows(code: str, members: list[MemberRecord]) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements that replace ``code``'s members with ``members``."""
    insert = (
        f"INSERT INTO members (code, {', '.join(MEMBER_COLUMNS)})"
        f" VALUES ({', '.join('?' * (len(MEMBER_COLUMNS) + 1))})"
    )
    rows: list[tuple[str, tuple[Any, ...]]] = [("DELETE FROM members WHERE code=?", (code,))]
    for m in members:
        rows.append(
            (
                insert,
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
                    m.disconnected_at,
                    m.grace_ends,
                    int(m.away),
                    int(m.engine_away),
                    int(m.stand_in),
                    int(m.newcomer),
                ),
            )
        )
    return rows


def command_row(code: str, index: int, record: CommandRecord) -> tuple[Any, ...]:
    """The values of one ``commands`` row (for :data:`INSERT_COMMAND`)."""
    command = None if record.command is None else pack(record.command)
    return (code, index, record.seat, command, record.now)


def read_rooms(db: sqlite3.Connection, code: str | None = None) -> list[StoredRoom]:
    """Every stored room (or only ``code``) with its members and commands, oldest room first."""
    where, params = ("WHERE code=?", (code,)) if code is not None else ("", ())
    rooms: dict[str, StoredRoom] = {}
    for row in db.execute(
        f"SELECT {', '.join(ROOM_COLUMNS)} FROM rooms {where} ORDER BY created", params
    ):
        record = RoomRecord(
            code=row[0],
            game=row[1],
            deck_name=row[2],
            deck_data=unpack(row[3]),
            options=unpack(row[4]),
            password_hash=row[5],
            bot_takeover=bool(row[6]),
            owner=row[7],
            status=row[8],
            seed=row[9],
            start_seats=unpack(row[10]),
            rules=unpack(row[11]),
            next_member=row[12],
            created=row[13],
            clock_offset=row[14] or 0.0,
            paused_at=row[15],
            paused_by=row[16],
        )
        rooms[record.code] = StoredRoom(record)
    for row in db.execute(
        f"SELECT code, {', '.join(MEMBER_COLUMNS)} FROM members {where} ORDER BY code, member",
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
                    disconnected_at=row[10],
                    grace_ends=row[11],
                    away=bool(row[12]),
                    engine_away=bool(row[13]),
                    stand_in=bool(row[14]),
                    newcomer=bool(row[15]),
                )
            )
    for row in db.execute(
        f"SELECT code, seat, command, now FROM commands {where} ORDER BY code, idx", params
    ):
        if row[0] in rooms:
            rooms[row[0]].commands.append(CommandRecord(row[1], unpack(row[2]), row[3]))
    return list(rooms.values())
