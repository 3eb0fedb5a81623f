"""Bringing a data folder's database up to the format this host writes.

Each format (``PRAGMA user_version``) is brought to the next in one
transaction: 0, the two-file layout (a journal and ``history.sqlite3``),
becomes the one database; 1 to 2 stores each deck once; 3, 4 and 5 add
nullable columns (a result's hold, replay keys, ban lists). The old history
file goes only once the upgrade is checkpointed to disk.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from partyhost.net.store.records import (
    DELETE_UNUSED_DECKS,
    SCHEMA,
    SCHEMA_VERSION,
    SET_ASIDE_SCHEMA,
    CommandRecord,
    GameStart,
    Player,
    command_row,
    content_hash,
    deck_statements,
    game_rows,
    is_combined,
    unpack,
)

LEGACY_HISTORY = "history.sqlite3"
SIDE_FILES = ("-wal", "-shm")

_ROOM_ADDED = (
    "clock_offset REAL, paused_at REAL, paused_by TEXT, game_id {}, held_at REAL, hold_until REAL,"
    " hold_waiting BLOB, banned_names BLOB, banned_addresses BLOB"
)
_MEMBER_ADDED = (
    "bot_level TEXT, disconnected_at REAL, grace_ends REAL, away INTEGER, engine_away INTEGER,"
    " stand_in INTEGER, newcomer INTEGER"
)
JOURNAL_ADDED_COLUMNS = {
    "rooms": _ROOM_ADDED.format("INTEGER REFERENCES games(id)"),
    "members": _MEMBER_ADDED,
    "set_aside_rooms": _ROOM_ADDED.format("INTEGER"),
    "set_aside_members": _MEMBER_ADDED,
    "games": "password_hash TEXT, player_keys BLOB",
}
"""The column definitions an older database may lack, by table (all nullable)."""


class HistoryUnreadable(OSError):
    """The old layout's history file cannot be read, so the folder is not upgraded."""


def bring_up_to_date(db: sqlite3.Connection, version: int, folder: Path | None) -> None:
    """Create or upgrade the schema of ``db`` (format ``version``) and retire the old history;
    before foreign keys are switched on, as SQLite advises for changes of schema."""
    legacy = None if folder is None else folder / LEGACY_HISTORY
    if legacy is not None and not legacy.is_file():
        legacy = None
    if version == SCHEMA_VERSION:
        if legacy is not None:  # merged by an upgrade that stopped before removing it
            _retire(legacy)
        return
    if legacy is not None:
        _attach(db, legacy)
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            journal = version == 0 and _has_table(db, "main", "commands")
            if journal:  # keyed by room: its rows move to their games below
                db.execute("ALTER TABLE commands RENAME TO journal_commands")
            for statement in (*SCHEMA, *SET_ASIDE_SCHEMA):
                db.execute(statement)
            _add_missing_columns(db)
            if version == 0 and legacy is not None:
                _move_history_in(db)
            if journal:
                _link_rooms_to_games(db)
                db.execute("DROP TABLE journal_commands")
            if version < 2:
                _store_each_deck_once(db)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise
    finally:
        if legacy is not None:
            db.execute("DETACH DATABASE legacy")
    if legacy is not None:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # on disk before the old file goes
        _retire(legacy)


def _attach(db: sqlite3.Connection, legacy: Path) -> None:
    """Open the old history as ``legacy``, naming it (not the database) if it is damaged."""
    try:
        db.execute("ATTACH DATABASE ? AS legacy", (str(legacy),))
        db.execute("SELECT count(*) FROM legacy.sqlite_master").fetchone()
    except sqlite3.DatabaseError as error:
        with contextlib.suppress(sqlite3.Error):
            db.execute("DETACH DATABASE legacy")
        raise HistoryUnreadable(
            f"the game history {legacy} left by an older partyhost cannot be read ({error}):"
            " move it aside (its past games and standings are lost) and start again"
        ) from None


def _has_table(db: sqlite3.Connection, schema: str, table: str) -> bool:
    found = db.execute(
        f"SELECT 1 FROM {schema}.sqlite_master WHERE type = 'table' AND name = ?", (table,)
    ).fetchone()
    return found is not None


def _add_missing_columns(db: sqlite3.Connection) -> None:
    for table, added in JOURNAL_ADDED_COLUMNS.items():
        if not _has_table(db, "main", table):
            continue
        present = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        for definition in added.split(", "):
            if definition.split()[0] not in present:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {definition}")


def _move_history_in(db: sqlite3.Connection) -> None:
    """The old history's games, decks and results, each game's command blob as rows."""
    if not _has_table(db, "legacy", "games"):
        return
    db.execute("INSERT OR IGNORE INTO decks SELECT hash, data FROM legacy.decks")
    columns = (
        "id, room, seed, game, deck_name, deck_hash, rules, start_seats, status, started,"
        " ended, night, players"
    )
    db.execute(f"INSERT OR IGNORE INTO games ({columns}) SELECT {columns} FROM legacy.games")
    db.execute("INSERT OR IGNORE INTO results SELECT * FROM legacy.results")
    kept = db.execute("SELECT id, commands FROM legacy.games WHERE commands IS NOT NULL")
    for game_id, blob in kept.fetchall():
        rows = [
            command_row(game_id, index, CommandRecord(seat, command, now))
            for index, (seat, command, now) in enumerate(unpack(blob) or [])
        ]
        db.executemany("INSERT OR IGNORE INTO commands VALUES (?,?,?,?,?)", rows)


def _link_rooms_to_games(db: sqlite3.Connection) -> None:
    """Each room's current game found (or noted, if the old history missed it) with its commands."""
    rooms = db.execute(
        "SELECT code, game, deck_name, deck_data, seed, start_seats, rules, created FROM rooms"
        " WHERE seed IS NOT NULL AND start_seats IS NOT NULL"
    ).fetchall()
    next_id = db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM games").fetchone()[0]
    for code, game, deck_name, deck_data, seed, start_seats, rules, created in rooms:
        found = db.execute("SELECT id FROM games WHERE room = ? AND seed = ?", (code, seed))
        row = found.fetchone()
        if row is None:
            game_id, next_id = next_id, next_id + 1
            seats = list(unpack(start_seats))
            sat = db.execute(
                "SELECT seat, name, bot FROM members WHERE code = ? AND seat IS NOT NULL",
                (code,),
            )
            players = [Player(s, n, bool(b)) for s, n, b in sat.fetchall() if s in seats]
            first = db.execute(
                "SELECT MIN(now) FROM journal_commands WHERE code = ?", (code,)
            ).fetchone()[0]
            started = first if first is not None else created
            deck, game_rules = unpack(deck_data), unpack(rules) or {}
            players.sort(key=lambda player: player.seat)
            start = GameStart(
                code, seed, game, deck_name, deck, game_rules, seats, started, players
            )
            for sql, params in game_rows(game_id, start):
                db.execute(sql, params)
        else:
            game_id = row[0]
        db.execute("UPDATE rooms SET game_id = ? WHERE code = ?", (game_id, code))
        db.execute(
            "INSERT OR IGNORE INTO commands SELECT ?, idx, seat, command, now"
            " FROM journal_commands WHERE code = ?",
            (game_id, code),
        )


def _store_each_deck_once(db: sqlite3.Connection) -> None:
    """Format 1 to 2: every combination row split into its decks, each keyed by its content."""
    for old_hash, blob in db.execute("SELECT hash, data FROM decks").fetchall():
        form = unpack(blob)
        if not is_combined(form):
            new_hash = content_hash(form)
            if new_hash != old_hash:
                db.execute("INSERT OR IGNORE INTO decks VALUES (?, ?)", (new_hash, blob))
                moved = (new_hash, old_hash)
                db.execute("UPDATE games SET deck_hash = ? WHERE deck_hash = ?", moved)
            continue
        games = db.execute("SELECT id FROM games WHERE deck_hash = ?", (old_hash,)).fetchall()
        for (game_id,) in games:
            first, decks, listed = deck_statements(game_id, form)
            for sql, params in (*decks, *listed):
                db.execute(sql, params)
            db.execute("UPDATE games SET deck_hash = ? WHERE id = ?", (first, game_id))
    db.execute(DELETE_UNUSED_DECKS)


def _retire(legacy: Path) -> None:
    """Remove the merged history file and whatever SQLite left beside it."""
    for path in (legacy, *(legacy.with_name(legacy.name + side) for side in SIDE_FILES)):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
