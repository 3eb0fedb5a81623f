"""The journal's tables and records: what is stored for a room and how it is read back.

Reading is done room by room, so a room whose rows cannot be decoded (a
damaged blob, a value of the wrong type) fails alone: the journal sets it
aside and every other room is still rebuilt.
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
    "code",
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
COMMAND_COLUMNS = ("code", "idx", "seat", "command", "now")

SET_ASIDE_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS set_aside_rooms (
    set_aside REAL NOT NULL, reason TEXT NOT NULL, {", ".join(ROOM_COLUMNS)}
);
CREATE TABLE IF NOT EXISTS set_aside_members (set_aside REAL NOT NULL, {", ".join(MEMBER_COLUMNS)});
CREATE TABLE IF NOT EXISTS set_aside_commands (
    set_aside REAL NOT NULL, {", ".join(COMMAND_COLUMNS)}
);
"""
"""Rooms that could not be rebuilt, kept as they were (untyped: nothing is decoded)."""

_ROOM_ADDED = (("clock_offset", "REAL"), ("paused_at", "REAL"), ("paused_by", "TEXT"))
_MEMBER_ADDED = (
    ("bot_level", "TEXT"),
    ("disconnected_at", "REAL"),
    ("grace_ends", "REAL"),
    ("away", "INTEGER"),
    ("engine_away", "INTEGER"),
    ("stand_in", "INTEGER"),
    ("newcomer", "INTEGER"),
)
ADDED_COLUMNS: dict[str, tuple[tuple[str, str], ...]] = {
    "rooms": _ROOM_ADDED,
    "members": _MEMBER_ADDED,
    "set_aside_rooms": _ROOM_ADDED,
    "set_aside_members": _MEMBER_ADDED,
}
"""Columns added since the first journal format, by table: an older journal gets them."""


def add_missing_columns(db: sqlite3.Connection) -> None:
    """Bring a journal written by an older host up to date (added columns are nullable)."""
    for table, added in ADDED_COLUMNS.items():
        present = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        for column, kind in added:
            if column not in present:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


def set_aside_statements(code: str, reason: str, when: float) -> list[tuple[str, tuple[Any, ...]]]:
    """Copy a room's rows into the set-aside tables, then drop it from the live ones."""
    copies = []
    for table, columns, extra in (
        ("rooms", ROOM_COLUMNS, ("?", "?")),
        ("members", MEMBER_COLUMNS, ("?",)),
        ("commands", COMMAND_COLUMNS, ("?",)),
    ):
        names = ", ".join(columns)
        head = "set_aside, reason" if table == "rooms" else "set_aside"
        params: tuple[Any, ...] = (when, reason, code) if table == "rooms" else (when, code)
        copies.append(
            (
                f"INSERT INTO set_aside_{table} ({head}, {names})"
                f" SELECT {', '.join(extra)}, {names} FROM {table} WHERE code=?",
                params,
            )
        )
    return [*copies, ("DELETE FROM rooms WHERE code=?", (code,))]


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


COMMAND_ROW_BYTES = 32
"""A command row's bytes besides the packed command (room code, index, seat, time, keys)."""


def journaled_bytes(record: CommandRecord) -> int:
    """About how many bytes ``record`` takes in the journal: its packed command and its row."""
    return COMMAND_ROW_BYTES + (0 if record.command is None else len(pack(record.command)))


def room_row(room: RoomRecord) -> tuple[str, tuple[Any, ...]]:
    """An upsert of the room's settings (replacing would cascade-delete its commands)."""
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
    """Statements replacing the room's members with ``members``."""
    rows: list[tuple[str, tuple[Any, ...]]] = [("DELETE FROM members WHERE code=?", (code,))]
    insert = (
        f"INSERT INTO members ({', '.join(MEMBER_COLUMNS)})"
        f" VALUES ({', '.join('?' * len(MEMBER_COLUMNS))})"
    )
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


def room_codes(db: sqlite3.Connection) -> list[str]:
    """Every stored room's code, oldest room first."""
    return [str(row[0]) for row in db.execute("SELECT code FROM rooms ORDER BY created")]


def read_room(db: sqlite3.Connection, code: str) -> StoredRoom | None:
    """One room with its members and commands; raises whatever a damaged row raises."""
    row = db.execute(
        f"SELECT {', '.join(ROOM_COLUMNS)} FROM rooms WHERE code=?", (code,)
    ).fetchone()
    if row is None:
        return None
    stored = StoredRoom(
        RoomRecord(
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
    )
    for row in db.execute(
        f"SELECT {', '.join(MEMBER_COLUMNS[1:])} FROM members WHERE code=? ORDER BY member",
        (code,),
    ):
        stored.members.append(
            MemberRecord(
                row[0],
                row[1],
                row[2],
                row[3],
                bool(row[4]),
                row[5],
                bool(row[6]),
                bool(row[7]),
                row[8],
                disconnected_at=row[9],
                grace_ends=row[10],
                away=bool(row[11]),
                engine_away=bool(row[12]),
                stand_in=bool(row[13]),
                newcomer=bool(row[14]),
            )
        )
    for row in db.execute(
        "SELECT seat, command, now FROM commands WHERE code=? ORDER BY idx", (code,)
    ):
        command = unpack(row[1])
        if not isinstance(command, dict | None) or not isinstance(row[2], int | float):
            raise ValueError(f"a command row holds {command!r} at {row[2]!r}")
        stored.commands.append(CommandRecord(row[0], command, row[2]))
    record = stored.room
    if not isinstance(record.deck_data, dict) or not isinstance(record.options, dict):
        raise ValueError("the room's deck or options are not a map")
    return stored
