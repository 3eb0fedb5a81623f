"""What the game history keeps, as records, and the queries both its writer and readers run.

The history is its own SQLite file beside the journal (:mod:`.history`
writes it, :func:`.history.read_history` reads it without a lock). The
journal forgets a room's game when the next one starts and the room when it
closes; the history keeps every game for replays and the night's standings.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgpack
from partyhost.net.journal import CommandRecord

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS decks (
    hash TEXT PRIMARY KEY,
    data BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
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
    commands BLOB,
    UNIQUE (room, seed)
);
CREATE TABLE IF NOT EXISTS results (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    bot INTEGER NOT NULL,
    won INTEGER NOT NULL,
    points INTEGER,
    money INTEGER,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS games_by_night ON games (night, ended);
"""

PLAYING = "playing"
OVER = "over"
ABANDONED = "abandoned"
"""A game whose room closed before it ended: never replayed, never in the standings."""

NIGHT_TURNS_AT = 6
"""Local hour at which one night's standings end and the next's begin (a 2 a.m. game is
still the evening before)."""


def night_of(timestamp: float) -> str:
    """The night a moment belongs to, as its evening's date (``YYYY-MM-DD``, local time)."""
    moment = time.localtime(timestamp - NIGHT_TURNS_AT * 3600)
    return time.strftime("%Y-%m-%d", moment)


def pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def unpack(blob: bytes | None) -> Any:
    return None if blob is None else msgpack.unpackb(blob, raw=False, strict_map_key=False)


@dataclass(frozen=True)
class Player:
    """Who sat where in a game (a person's name as they typed it, or a bot's)."""

    seat: int
    name: str
    bot: bool

    def describe(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "bot": self.bot}


@dataclass(frozen=True)
class Outcome:
    """One seat's result of a finished game, as the history keeps it."""

    seat: int
    name: str
    bot: bool
    won: bool
    points: int | None
    money: int | None

    def describe(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "bot": self.bot,
            "won": self.won,
            "points": self.points,
            "money": self.money,
        }


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

    def describe(self) -> dict[str, Any]:
        """The entry on the wire (``past_games`` and ``replay``)."""
        return {
            "id": self.id,
            "room": self.room,
            "game": self.game,
            "deck": self.deck_name,
            "status": self.status,
            "started": self.started,
            "ended": self.ended,
            "night": self.night,
            "players": [player.describe() for player in self.players],
            "results": [outcome.describe() for outcome in self.outcomes],
        }


@dataclass
class ArchivedGame:
    """Everything needed to play a finished game again on a fresh engine."""

    entry: GameEntry
    deck_data: Any
    rules: dict[str, Any]
    start_seats: list[int]
    seed: int
    commands: list[CommandRecord]


_ENTRY_COLUMNS = "id, room, game, deck_name, status, started, ended, night, players"


def _entry(row: Sequence[Any]) -> GameEntry:
    return GameEntry(
        id=row[0],
        room=row[1],
        game=row[2],
        deck_name=row[3],
        status=row[4],
        started=row[5],
        ended=row[6],
        night=row[7],
        players=[Player(p["seat"], p["name"], p["bot"]) for p in unpack(row[8]) or []],
    )


def _add_outcomes(db: sqlite3.Connection, entries: list[GameEntry]) -> list[GameEntry]:
    by_id = {entry.id: entry for entry in entries}
    if not by_id:
        return entries
    marks = ",".join("?" * len(by_id))
    for row in db.execute(
        "SELECT game_id, seat, name, bot, won, points, money FROM results"
        f" WHERE game_id IN ({marks}) ORDER BY game_id, seat",
        tuple(by_id),
    ):
        by_id[row[0]].outcomes.append(
            Outcome(row[1], row[2], bool(row[3]), bool(row[4]), row[5], row[6])
        )
    return entries


def list_games(db: sqlite3.Connection, limit: int, night: str | None = None) -> list[GameEntry]:
    """Past and running games, newest first (abandoned ones are left out)."""
    where, params = "status != ?", [ABANDONED]
    if night is not None:
        where += " AND night = ?"
        params.append(night)
    rows = db.execute(
        f"SELECT {_ENTRY_COLUMNS} FROM games WHERE {where}"
        " ORDER BY COALESCE(ended, started) DESC, id DESC LIMIT ?",
        (*params, limit),
    )
    return _add_outcomes(db, [_entry(row) for row in rows])


def find_game(db: sqlite3.Connection, game_id: int) -> GameEntry | None:
    row = db.execute(f"SELECT {_ENTRY_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
    return None if row is None else _add_outcomes(db, [_entry(row)])[0]


def game_of_room(db: sqlite3.Connection, room: str, seed: int) -> int | None:
    """The number of the game room ``room`` played with ``seed``, if it is kept."""
    row = db.execute("SELECT id FROM games WHERE room = ? AND seed = ?", (room, seed)).fetchone()
    return None if row is None else int(row[0])


def load_game(db: sqlite3.Connection, game_id: int) -> ArchivedGame | None:
    """A game with its deck, seed and commands (``None``: no such game)."""
    entry = find_game(db, game_id)
    if entry is None:
        return None
    row = db.execute(
        "SELECT decks.data, rules, start_seats, seed, commands FROM games"
        " JOIN decks ON decks.hash = games.deck_hash WHERE games.id = ?",
        (game_id,),
    ).fetchone()
    commands = [CommandRecord(seat, command, now) for seat, command, now in unpack(row[4]) or []]
    return ArchivedGame(
        entry=entry,
        deck_data=unpack(row[0]),
        rules=unpack(row[1]),
        start_seats=list(unpack(row[2])),
        seed=row[3],
        commands=commands,
    )


def nights(db: sqlite3.Connection) -> list[str]:
    """Every night with a finished game, oldest first."""
    rows = db.execute(
        "SELECT DISTINCT night FROM games WHERE status = ? AND night IS NOT NULL ORDER BY night",
        (OVER,),
    )
    return [row[0] for row in rows]


@dataclass(frozen=True)
class ResultRow:
    """One seat's result in one finished game, in the order the games ended."""

    game: str
    name: str
    name_key: str
    bot: bool
    won: bool
    points: int | None
    money: int | None


def night_results(db: sqlite3.Connection, night: str) -> list[ResultRow]:
    rows = db.execute(
        "SELECT games.game, name, name_key, bot, won, points, money FROM results"
        " JOIN games ON games.id = results.game_id"
        " WHERE games.night = ? AND games.status = ? ORDER BY games.ended, games.id, seat",
        (night, OVER),
    )
    return [
        ResultRow(row[0], row[1], row[2], bool(row[3]), bool(row[4]), row[5], row[6])
        for row in rows
    ]
