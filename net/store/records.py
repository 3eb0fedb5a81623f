"""The host's database: its tables, its records, and the queries the host and tools run.

Rooms are read one at a time, so a damaged room fails alone and is set aside.
Each deck's data is one row, keyed by a hash of its canonical form, so the same
cards sent under another name or in another order are one row; a game of
several or uploaded decks lists its parts in ``game_decks``.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import msgpack
from partyhost.decks.combine import combine_decks
from partyhost.engine.core import Game, SeatResult
from partyhost.net.names import name_key
from partyhost.net.store.space import RESERVE_SCHEMA
from partyhost.net.store.standings import ResultRow, Standing, standings

Statement = tuple[str, tuple[Any, ...]]


def pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def unpack(blob: bytes | None) -> Any:
    return None if blob is None else msgpack.unpackb(blob, raw=False, strict_map_key=False)


DELETE_UNUSED_DECKS = (
    "DELETE FROM decks WHERE NOT EXISTS (SELECT 1 FROM games WHERE deck_hash = hash)"
    " AND NOT EXISTS (SELECT 1 FROM game_decks WHERE deck_hash = hash)"
)
"""(Both lookups use an index: ``games_by_deck`` and ``game_decks_by_deck``.)"""


def _canonical(value: Any) -> Any:
    """``value`` with every map's keys in sorted order (lists keep theirs: they are the cards)."""
    if isinstance(value, dict):
        return {key: _canonical(value[key]) for key in sorted(value, key=repr)}
    if isinstance(value, list | tuple):
        return [_canonical(item) for item in value]
    return value


def content_hash(data: Any) -> str:
    """The hash of one deck's content, whatever order its maps' keys came in."""
    return hashlib.sha256(pack(_canonical(data))).hexdigest()


def is_combined(form: Any) -> bool:
    """Whether a game's deck form lists parts (``{"decks": [...]}``) rather than being one deck."""
    return isinstance(form, dict) and "game" not in form and isinstance(form.get("decks"), list)


def deck_statements(game_id: int, form: Any) -> tuple[str, list[Statement], list[Statement]]:
    """The hash a new game's ``deck_hash`` holds, the ``decks`` rows to write before the
    game's row, and the ``game_decks`` rows to write after it (both point at the game and
    its decks)."""
    combined = is_combined(form)
    parts = form["decks"] if combined else [{"data": form}]
    hashes = [content_hash(part["data"]) for part in parts]
    decks: list[Statement] = [
        ("INSERT OR IGNORE INTO decks VALUES (?, ?)", (digest, pack(part["data"])))
        for digest, part in zip(hashes, parts, strict=True)
    ]
    listed: list[Statement] = []
    if combined:
        insert = "INSERT INTO game_decks VALUES (?,?,?,?,?,?)"
        listed = [
            (insert, (game_id, index, str(p["name"]), str(p["title"]), str(p["source"]), digest))
            for index, (p, digest) in enumerate(zip(parts, hashes, strict=True))
        ]
    return hashes[0], decks, listed


def deck_form(db: sqlite3.Connection, game_id: int, deck_hash: str) -> Any:
    """A stored game's deck in the form it was played with (for a replay)."""
    parts = db.execute(
        "SELECT name, title, source, data FROM game_decks JOIN decks ON hash = deck_hash"
        " WHERE game_id = ? ORDER BY position",
        (game_id,),
    ).fetchall()
    if not parts:
        row = db.execute("SELECT data FROM decks WHERE hash = ?", (deck_hash,)).fetchone()
        return None if row is None else unpack(row[0])
    return {
        "decks": [
            {"name": name, "title": title, "source": source, "data": unpack(data)}
            for name, title, source, data in parts
        ]
    }


def playable_deck(game: Game, form: Any) -> Any:
    """The game's deck object of a stored deck form, built as its room built it: one deck
    as it is, several combined in their order."""
    if not is_combined(form):
        return game.build_deck(form)
    parts = form["decks"]
    if len(parts) == 1:
        return game.build_deck(parts[0]["data"])
    names = [str(part["name"]) for part in parts]
    return combine_decks(game, names, [part["data"] for part in parts])[1]


SCHEMA_VERSION = 5
"""The format this host writes, kept in ``PRAGMA user_version`` (older ones: :mod:`.migration`)."""

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS decks (
    hash TEXT PRIMARY KEY,
    data BLOB NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    room TEXT NOT NULL,
    seed INTEGER NOT NULL,
    game TEXT NOT NULL,
    deck_name TEXT NOT NULL,
    deck_hash TEXT NOT NULL REFERENCES decks(hash),
    rules BLOB NOT NULL,
    start_seats BLOB NOT NULL,
    status TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL,
    night TEXT,
    players BLOB NOT NULL,
    password_hash TEXT,
    player_keys BLOB,
    UNIQUE (room, seed)
)""",
    """CREATE TABLE IF NOT EXISTS commands (
    game_id INTEGER NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    seat INTEGER,
    command BLOB,
    now REAL NOT NULL,
    PRIMARY KEY (game_id, idx)
)""",
    """CREATE TABLE IF NOT EXISTS results (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    bot INTEGER NOT NULL,
    won INTEGER NOT NULL,
    points INTEGER,
    money INTEGER,
    PRIMARY KEY (game_id, seat)
)""",
    "CREATE INDEX IF NOT EXISTS games_by_night ON games (night, ended)",
    """CREATE TABLE IF NOT EXISTS game_decks (
    game_id INTEGER NOT NULL REFERENCES games(id),
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    title TEXT NOT NULL,
    source TEXT NOT NULL,
    deck_hash TEXT NOT NULL REFERENCES decks(hash),
    PRIMARY KEY (game_id, position)
)""",
    "CREATE INDEX IF NOT EXISTS games_by_deck ON games (deck_hash)",
    "CREATE INDEX IF NOT EXISTS game_decks_by_deck ON game_decks (deck_hash)",
    RESERVE_SCHEMA,
    """CREATE TABLE IF NOT EXISTS rooms (
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
    paused_by TEXT,
    game_id INTEGER REFERENCES games(id),
    held_at REAL,
    hold_until REAL,
    hold_waiting BLOB,
    banned_names BLOB,
    banned_addresses BLOB
)""",
    """CREATE TABLE IF NOT EXISTS members (
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
)""",
)

PLAYING = "playing"
OVER = "over"
ABANDONED = "abandoned"
"""A game whose room closed (or started another) before it ended, after it was played for a
while: never replayed, never in the standings."""
DISCARDED = "discarded"
"""A game abandoned soon after it started, for the moment its rows are deleted."""
DROPPED = "dropped"
"""A game that ended because its players left soon after it started: not in the history,
and deleted with its rows as soon as its room moves on (a new game, or the room closes)."""

KEEP_AFTER_COMMANDS = 20
"""Seats' commands (bots' too; ticks and the host's own commands do not count) after which
an abandoned game is kept in the history..."""
KEEP_AFTER_SECONDS = 300.0
"""...or seconds it ran; one abandoned earlier leaves nothing behind."""

NIGHT_TURNS_AT = 6
"""Local hour at which one night's standings end and the next's begin (a 2 a.m. game is
still the evening before)."""

GAME_ID_RANGE = 2**53
"""Game numbers are drawn at random below this (so a JSON client reads them exactly):
nobody finds another party's games by counting."""


def new_game_id(db: sqlite3.Connection, taken: set[int] | frozenset[int] = frozenset()) -> int:
    """A random game number no kept game (nor ``taken``) has."""
    while True:
        game_id = 1 + secrets.randbelow(GAME_ID_RANGE - 1)
        if game_id in taken:
            continue
        if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            return game_id


def night_of(timestamp: float) -> str:
    """The night a moment belongs to, as its evening's date (``YYYY-MM-DD``, local time)."""
    moment = time.localtime(timestamp - NIGHT_TURNS_AT * 3600)
    return time.strftime("%Y-%m-%d", moment)


# --- rooms ----------------------------------------------------------------------


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
    held_at: float | None = None
    """The game's clock while the table reads a round's result (None: no result held)."""
    hold_until: float | None = None
    """When that hold ends by itself (host clock)."""
    hold_waiting: list[int] | None = None
    """The seats that have not read the result yet."""
    banned_names: list[str] | None = None
    """The look-alike keys of the names kicked from the room (None: nobody, or a record
    older than ban lists)."""
    banned_addresses: list[str] | None = None
    """The addresses those kicked players connected from."""


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
    """A bot's level (``None``: a person, or a record older than bot levels)."""
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
    game_id: int | None = None
    """The number of the room's current game (None: no game has started)."""


COMMAND_ROW_BYTES = 32
"""A command row's bytes besides the packed command (game number, index, seat, time, keys)."""

INSERT_COMMAND = "INSERT INTO commands VALUES (?,?,?,?,?)"


def journaled_bytes(record: CommandRecord) -> int:
    """About how many bytes ``record`` takes in the store: its packed command and its row."""
    return COMMAND_ROW_BYTES + (0 if record.command is None else len(pack(record.command)))


def command_row(game_id: int, index: int, record: CommandRecord) -> tuple[Any, ...]:
    command = None if record.command is None else pack(record.command)
    return (game_id, index, record.seat, command, record.now)


ROOM_COLUMNS = (*(column.name for column in fields(RoomRecord)), "game_id")
ROOM_BLOBS = frozenset(
    f.name for f in fields(RoomRecord) if str(f.type).startswith(("dict", "list"))
)
"""Room fields kept packed (msgpack): its maps and lists."""
MEMBER_COLUMNS = (
    "code",
    *(f.name if f.name != "left" else "left_room" for f in fields(MemberRecord)),
)
MEMBER_FLAGS = frozenset(f.name for f in fields(MemberRecord) if f.type == "bool")
"""Member fields stored as 0/1 (or NULL, in rows older than the field)."""

SET_ASIDE_SCHEMA = (
    f"""CREATE TABLE IF NOT EXISTS set_aside_rooms (
    set_aside REAL NOT NULL, reason TEXT NOT NULL, {", ".join(ROOM_COLUMNS)}
)""",
    "CREATE TABLE IF NOT EXISTS set_aside_members"
    f" (set_aside REAL NOT NULL, {', '.join(MEMBER_COLUMNS)})",
)
"""Rooms that could not be rebuilt, kept as they were (untyped: nothing is decoded); their
game's commands stay under the game, which is marked abandoned."""


def insert(table: str, columns: Sequence[str], values: Iterable[Any], then: str = "") -> Statement:
    """An insert of ``values`` into ``columns``, ``then`` the clauses after it."""
    marks = ", ".join("?" * len(columns))
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}){then}", tuple(values)


def room_row(room: RoomRecord, game_id: int | None) -> Statement:
    """An upsert of the room's settings (replacing would cascade-delete its members)."""
    values = [getattr(room, f.name) for f in fields(RoomRecord)]
    packed = [
        pack(value) if name in ROOM_BLOBS and value is not None else value
        for name, value in zip(ROOM_COLUMNS, values, strict=False)
    ]
    updates = ", ".join(f"{column}=excluded.{column}" for column in ROOM_COLUMNS[1:])
    upsert = f" ON CONFLICT(code) DO UPDATE SET {updates}"
    return insert("rooms", ROOM_COLUMNS, (*packed, game_id), upsert)


def member_rows(code: str, members: list[MemberRecord]) -> list[Statement]:
    """Statements replacing the room's members with ``members``."""
    names = [f.name for f in fields(MemberRecord)]
    return [
        ("DELETE FROM members WHERE code=?", (code,)),
        *(
            insert("members", MEMBER_COLUMNS, [code, *(getattr(m, n) for n in names)])
            for m in members
        ),
    ]


def set_aside_statements(code: str, reason: str, when: float) -> list[Statement]:
    """Copy a room's rows into the set-aside tables, its game abandoned, then drop the room."""
    rooms, members = ", ".join(ROOM_COLUMNS), ", ".join(MEMBER_COLUMNS)
    return [
        (
            "UPDATE games SET status = ?, ended = ?"
            " WHERE id = (SELECT game_id FROM rooms WHERE code = ?) AND status = ?",
            (ABANDONED, when, code, PLAYING),
        ),
        (
            f"INSERT INTO set_aside_rooms (set_aside, reason, {rooms})"
            f" SELECT ?, ?, {rooms} FROM rooms WHERE code=?",
            (when, reason, code),
        ),
        (
            f"INSERT INTO set_aside_members (set_aside, {members})"
            f" SELECT ?, {members} FROM members WHERE code=?",
            (when, code),
        ),
        ("DELETE FROM rooms WHERE code=?", (code,)),
    ]


def room_codes(db: sqlite3.Connection) -> list[str]:
    """Every stored room's code, oldest room first."""
    return [str(row[0]) for row in db.execute("SELECT code FROM rooms ORDER BY created")]


def read_room(db: sqlite3.Connection, code: str) -> StoredRoom | None:
    """One room with its members and its game's commands; raises whatever a damaged row raises."""
    row = db.execute(
        f"SELECT {', '.join(ROOM_COLUMNS)} FROM rooms WHERE code=?", (code,)
    ).fetchone()
    if row is None:
        return None
    values = dict(zip(ROOM_COLUMNS, row, strict=True))
    game_id = values.pop("game_id")
    values.update({name: unpack(values[name]) for name in ROOM_BLOBS})
    values["bot_takeover"] = bool(values["bot_takeover"])
    values["clock_offset"] = values["clock_offset"] or 0.0
    stored = StoredRoom(RoomRecord(**values), game_id=game_id)
    for member in db.execute(
        f"SELECT {', '.join(MEMBER_COLUMNS[1:])} FROM members WHERE code=? ORDER BY member",
        (code,),
    ):
        named = zip((f.name for f in fields(MemberRecord)), member, strict=True)
        flagged: dict[str, Any] = {
            name: bool(value) if name in MEMBER_FLAGS else value for name, value in named
        }
        stored.members.append(MemberRecord(**flagged))
    if game_id is not None:
        stored.commands = game_commands(db, game_id)
    record = stored.room
    if not isinstance(record.deck_data, dict) or not isinstance(record.options, dict):
        raise ValueError("the room's deck or options are not a map")
    return stored


def game_commands(db: sqlite3.Connection, game_id: int) -> list[CommandRecord]:
    """A game's accepted commands in order; raises ValueError on a damaged row."""
    commands = []
    for seat, blob, now in db.execute(
        "SELECT seat, command, now FROM commands WHERE game_id=? ORDER BY idx", (game_id,)
    ):
        command = unpack(blob)
        if not isinstance(command, dict | None) or not isinstance(now, int | float):
            raise ValueError(f"a command row holds {command!r} at {now!r}")
        commands.append(CommandRecord(seat, command, now))
    return commands


# --- games ----------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """Who sat where in a game (a person's name as they typed it, or a bot's)."""

    seat: int
    name: str
    bot: bool


@dataclass
class GameStart:
    """A game as it begins: enough to find it again and, once over, to replay it."""

    room: str
    seed: int
    game: str
    deck_name: str
    deck_data: Any
    rules: dict[str, Any]
    start_seats: list[int]
    started: float
    players: list[Player]
    password_hash: str | None = None
    """The room's password when the game started: its replay is for its players or for
    whoever knows it."""
    player_keys: list[str] = field(default_factory=list)
    """The seat tokens' hashes of the people who played it (who may replay it)."""


def game_rows(game_id: int, start: GameStart) -> list[Statement]:
    """A new game, running, with each of its decks stored once (many games share one)."""
    deck_hash, decks, listed = deck_statements(game_id, start.deck_data)
    row = asdict(start)
    del row["deck_data"]
    row = {
        name: pack(value) if isinstance(value, list | dict) else value
        for name, value in row.items()
    }
    row.update(id=game_id, deck_hash=deck_hash, status=PLAYING)
    return [*decks, insert("games", list(row), row.values()), *listed]


INSERT_RESULT = (
    "INSERT OR IGNORE INTO results SELECT ?,?,?,?,?,?,?,?"
    " WHERE EXISTS (SELECT 1 FROM games WHERE id = ? AND status = ?)"
)
"""A finished game's result for one seat, unless the game is no longer kept as over."""


def game_over_rows(
    game_id: int,
    results: Sequence[SeatResult],
    players: Sequence[Player],
    ended: float,
    walked_out: bool = False,
) -> list[Statement]:
    """Mark a running game over with its players and results (a game already over stays);
    one its players walked out of soon after it began is :data:`DROPPED` instead."""
    played = pack([asdict(player) for player in players])
    statements: list[Statement] = [
        *([_discard_if_brief(game_id, ended, DROPPED)] if walked_out else []),
        (
            "UPDATE games SET status = ?, ended = ?, night = ?, players = ?"
            " WHERE id = ? AND status = ?",
            (OVER, ended, night_of(ended), played, game_id, PLAYING),
        ),
    ]
    by_seat = {player.seat: player for player in players}
    for result in results:
        player = by_seat.get(result.seat) or Player(result.seat, f"seat {result.seat}", False)
        who = (game_id, result.seat, player.name, name_key(player.name), int(player.bot))
        outcome = (int(result.won), result.points, result.money)
        statements.append((INSERT_RESULT, (*who, *outcome, game_id, OVER)))
    return statements


def abandon_rows(game_id: int, when: float) -> list[Statement]:
    """A game still running is cut short: never replayed, so its commands go; one cut short
    soon after it began (:data:`KEEP_AFTER_COMMANDS`) goes entirely, with any deck only it
    used. No room may point at the game any more."""
    return [
        _discard_if_brief(game_id, when, DISCARDED),
        (
            "UPDATE games SET status = ?, ended = ? WHERE id = ? AND status = ?",
            (ABANDONED, when, game_id, PLAYING),
        ),
        (
            "DELETE FROM commands"
            " WHERE game_id = ? AND (SELECT status FROM games WHERE id = ?) IN (?, ?)",
            (game_id, game_id, ABANDONED, DISCARDED),
        ),
        *delete_game_rows(
            "SELECT id FROM games WHERE id = ? AND status IN (?, ?)", (game_id, DISCARDED, DROPPED)
        ),
    ]


def _discard_if_brief(game_id: int, when: float, status: str) -> Statement:
    """The running game gets ``status`` if it was played only briefly (and no longer runs)."""
    return (
        "UPDATE games SET status = ?, ended = ? WHERE id = ? AND status = ? AND ? - started < ?"
        " AND (SELECT COUNT(*) FROM commands WHERE game_id = ? AND seat >= 0) < ?",
        (status, when, game_id, PLAYING, when, KEEP_AFTER_SECONDS, game_id, KEEP_AFTER_COMMANDS),
    )


def delete_game_rows(chosen: str, params: tuple[Any, ...]) -> list[Statement]:
    """Everything of the games the query ``chosen`` selects, then the decks no game uses."""
    return [
        *(
            (f"DELETE FROM {table} WHERE game_id IN ({chosen})", params)
            for table in ("commands", "results", "game_decks")
        ),
        (f"DELETE FROM games WHERE id IN ({chosen})", params),
        (DELETE_UNUSED_DECKS, ()),
    ]


@dataclass(frozen=True)
class Outcome:
    """One seat's result of a finished game, as the store keeps it."""

    seat: int
    name: str
    bot: bool
    won: bool
    points: int | None
    money: int | None


@dataclass
class GameEntry:
    """A game as the list of past games shows it."""

    id: int
    room: str
    game: str
    deck_name: str
    status: str
    started: float
    ended: float | None
    night: str | None
    players: list[Player]
    outcomes: list[Outcome] = field(default_factory=list)
    locked: bool = False
    """Played in a password room: replayed only for its players or with the password."""

    def describe(self) -> dict[str, Any]:
        """The entry on the wire (``past_games`` and ``replay``): its fields, with the deck's
        name as ``deck`` and the outcomes as ``results``."""
        described = asdict(self)
        described["deck"] = described.pop("deck_name")
        described["results"] = described.pop("outcomes")
        return described


@dataclass
class ArchivedGame:
    """Everything needed to play a finished game again on a fresh engine."""

    entry: GameEntry
    deck_data: Any
    rules: dict[str, Any]
    start_seats: list[int]
    seed: int
    commands: list[CommandRecord]


_ENTRY_COLUMNS = (
    "id, room, game, deck_name, status, started, ended, night, players, password_hash IS NOT NULL"
)


def _entry(row: Sequence[Any]) -> GameEntry:
    game_id, room, game, deck_name, status, started, ended, night, players, locked = row
    seated = [Player(p["seat"], p["name"], p["bot"]) for p in unpack(players) or []]
    return GameEntry(
        game_id, room, game, deck_name, status, started, ended, night, seated, locked=bool(locked)
    )


LIST_LIMIT = 200
"""Games a listing holds at most (the newest)."""


class StoreReader:
    """Queries on the database (the host's own connection, or one opened read-only)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def close(self) -> None:
        self._db.close()

    def rooms(self, code: str | None = None) -> list[StoredRoom]:
        """The stored rooms (or room ``code``) as a restarted host would rebuild them."""
        codes = room_codes(self._db) if code is None else [code]
        return [stored for each in codes if (stored := read_room(self._db, each)) is not None]

    def games(
        self, limit: int = LIST_LIMIT, night: str | None = None, running: bool = True
    ) -> list[GameEntry]:
        """Kept games, newest first, abandoned and dropped ones left out (the host's guests get
        ``running=False``: only the host's owner sees running games)."""
        where, params = "status IN (?, ?)", [PLAYING, OVER]
        if not running:
            where, params = "status = ?", [OVER]
        if night is not None:
            where += " AND night = ?"
            params.append(night)
        rows = self._db.execute(
            f"SELECT {_ENTRY_COLUMNS} FROM games WHERE {where}"
            " ORDER BY COALESCE(ended, started) DESC, id DESC LIMIT ?",
            (*params, limit),
        )
        return self._with_outcomes([_entry(row) for row in rows])

    def entry(self, game_id: int) -> GameEntry | None:
        query = f"SELECT {_ENTRY_COLUMNS} FROM games WHERE id = ?"
        row = self._db.execute(query, (game_id,)).fetchone()
        return None if row is None else self._with_outcomes([_entry(row)])[0]

    def _with_outcomes(self, entries: list[GameEntry]) -> list[GameEntry]:
        by_id = {entry.id: entry for entry in entries}
        marks = ",".join("?" * len(by_id))
        for row in self._db.execute(
            "SELECT game_id, seat, name, bot, won, points, money FROM results"
            f" WHERE game_id IN ({marks}) ORDER BY game_id, seat",
            tuple(by_id),
        ):
            by_id[row[0]].outcomes.append(
                Outcome(row[1], row[2], bool(row[3]), bool(row[4]), row[5], row[6])
            )
        return entries

    def replay_keys(self, game_id: int) -> tuple[str | None, list[str]]:
        """Game ``game_id``'s room password hash (None: anyone may replay it) and the hashes
        of its players' seat tokens."""
        row = self._db.execute(
            "SELECT password_hash, player_keys FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            return None, []
        return row[0], [str(key) for key in unpack(row[1]) or []]

    def game_of_room(self, room: str, seed: int) -> int | None:
        """The number of the game room ``room`` played with ``seed``, if it is kept."""
        query = "SELECT id FROM games WHERE room = ? AND seed = ?"
        row = self._db.execute(query, (room, seed)).fetchone()
        return None if row is None else int(row[0])

    def archived(self, game_id: int) -> ArchivedGame | None:
        """A game with its deck, seed and commands (``None``: no such game)."""
        entry = self.entry(game_id)
        if entry is None:
            return None
        row = self._db.execute(
            "SELECT deck_hash, rules, start_seats, seed FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        return ArchivedGame(
            entry=entry,
            deck_data=deck_form(self._db, game_id, row[0]),
            rules=unpack(row[1]),
            start_seats=list(unpack(row[2])),
            seed=row[3],
            commands=game_commands(self._db, game_id),
        )

    def nights(self) -> list[str]:
        """Every night with a finished game, oldest first."""
        rows = self._db.execute(
            "SELECT DISTINCT night FROM games WHERE status = ? AND night IS NOT NULL"
            " ORDER BY night",
            (OVER,),
        )
        return [row[0] for row in rows]

    def standings(self, night: str) -> list[Standing]:
        """That night's table, best first."""
        rows = self._db.execute(
            "SELECT games.game, name, name_key, bot, won, points, money FROM results"
            " JOIN games ON games.id = results.game_id"
            " WHERE games.night = ? AND games.status = ? ORDER BY games.ended, games.id, seat",
            (night, OVER),
        )
        return standings(
            ResultRow(row[0], row[1], row[2], bool(row[3]), bool(row[4]), row[5], row[6])
            for row in rows
        )
