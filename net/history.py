"""The party's memory: every game a host ran, kept for replays and the night's standings.

The journal keeps only what a restart needs (a room's current game), so when
a game starts the host also notes it here, and when it ends the host copies
its seed, deck, rules, commands, players and results here in one
transaction. The history is a SQLite file of its own (``history.sqlite3``
beside the journal) so tools can read it while the host runs
(:func:`read_history`), and it survives restarts of the host.

A game is ``playing`` until it is ``over``; one whose room closed before the
end is ``abandoned`` and is neither replayed nor counted. Ending a game is
idempotent: a host restarted after a crash that came between a game's last
command and its copy here copies it on restore (:meth:`History.game_over`
does nothing for a game already over).

Writing never takes the host down: a failed write is logged and the host
plays on (the game is then missing from the history).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from partyhost.engine.core import SeatResult
from partyhost.net import historyrows as rows
from partyhost.net.historyrows import (
    ABANDONED,
    OVER,
    PLAYING,
    ArchivedGame,
    GameEntry,
    Player,
    night_of,
    pack,
)
from partyhost.net.journal import CommandRecord
from partyhost.net.names import name_key
from partyhost.net.standings import Standing, standings

log = logging.getLogger(__name__)

HISTORY_FILE = "history.sqlite3"
LIST_LIMIT = 200
"""Games a listing holds at most (the newest)."""


class HistoryUnreadable(OSError):
    """The data folder has no history, or it cannot be read; the message says which."""


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


class HistoryView:
    """Queries on a history database (the host's own or one opened read-only)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def games(self, limit: int = LIST_LIMIT, night: str | None = None) -> list[GameEntry]:
        """Finished and running games, newest first."""
        return rows.list_games(self._db, limit, night)

    def entry(self, game_id: int) -> GameEntry | None:
        return rows.find_game(self._db, game_id)

    def archived(self, game_id: int) -> ArchivedGame | None:
        return rows.load_game(self._db, game_id)

    def game_of_room(self, room: str, seed: int) -> int | None:
        """The number of a room's game, found by the seed it was dealt with."""
        return rows.game_of_room(self._db, room, seed)

    def nights(self) -> list[str]:
        """Every night with a finished game, oldest first."""
        return rows.nights(self._db)

    def standings(self, night: str) -> list[Standing]:
        """That night's table, best first."""
        return standings(rows.night_results(self._db, night))

    def close(self) -> None:
        self._db.close()


class History(HistoryView):
    """The host's history: written from the event loop, each write one short transaction."""

    def __init__(self, data_dir: Path | None) -> None:
        target = ":memory:" if data_dir is None else str(data_dir / HISTORY_FILE)
        self._target = target
        if data_dir is not None:
            _private_file(data_dir / HISTORY_FILE)
        db = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            # Folding the WAL in (an fsync) would stall the event loop every few dozen games:
            # the host does it in a thread (checkpoint).
            db.execute("PRAGMA wal_autocheckpoint=0")
            db.executescript(rows.SCHEMA)
            db.execute(f"PRAGMA user_version={rows.SCHEMA_VERSION}")
        except sqlite3.Error as error:
            db.close()
            raise HistoryUnreadable(
                f"cannot use the game history {target} ({error}): move it aside (its past"
                " games and standings are lost) or start with a fresh --data folder"
            ) from None
        super().__init__(db)

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
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        super().close()

    @contextlib.contextmanager
    def _transaction(self, what: str) -> Iterator[sqlite3.Cursor]:
        cursor = self._db.cursor()
        try:
            cursor.execute("BEGIN")
            yield cursor
            cursor.execute("COMMIT")
        except sqlite3.Error:
            log.exception("the game history could not record %s", what)
            if self._db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    cursor.execute("ROLLBACK")

    def _deck(self, cursor: sqlite3.Cursor, deck_data: Any) -> str:
        """Store the deck once (many games share one); returns its key."""
        packed = pack(deck_data)
        digest = hashlib.sha256(packed).hexdigest()
        cursor.execute("INSERT OR IGNORE INTO decks VALUES (?, ?)", (digest, packed))
        return digest

    def _insert(self, cursor: sqlite3.Cursor, start: GameStart, status: str) -> None:
        cursor.execute(
            "INSERT OR IGNORE INTO games (room, seed, game, deck_name, deck_hash, rules,"
            " start_seats, status, started, players) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (
                start.room,
                start.seed,
                start.game,
                start.deck_name,
                self._deck(cursor, start.deck_data),
                pack(start.rules),
                pack(start.start_seats),
                status,
                start.started,
                pack([player.describe() for player in start.players]),
            ),
        )

    def game_started(self, start: GameStart) -> None:
        """Note a game that has just begun (it shows as running until it is over)."""
        with self._transaction(f"the start of room {start.room}'s game") as cursor:
            self._insert(cursor, start, PLAYING)

    def game_over(
        self,
        start: GameStart,
        commands: Sequence[CommandRecord],
        results: Sequence[SeatResult],
        players: Sequence[Player],
        ended: float,
    ) -> int | None:
        """Keep a finished game and its results; returns its number (None if the write failed).

        ``players`` are everyone who sat in the game by its end (late joiners
        too). A game already kept as over is left as it is.
        """
        kept: int | None = None
        find = "SELECT id, status FROM games WHERE room = ? AND seed = ?"
        with self._transaction(f"room {start.room}'s finished game") as cursor:
            found = cursor.execute(find, (start.room, start.seed)).fetchone()
            if found is None:  # its start was never noted (a crash): numbered now
                self._insert(cursor, start, PLAYING)
                found = cursor.execute(find, (start.room, start.seed)).fetchone()
            game_id, status = found
            if status == OVER:
                kept = game_id
                return kept
            cursor.execute(
                "UPDATE games SET status = ?, ended = ?, night = ?, players = ?, commands = ?"
                " WHERE id = ?",
                (
                    OVER,
                    ended,
                    night_of(ended),
                    pack([player.describe() for player in players]),
                    pack([[c.seat, c.command, c.now] for c in commands]),
                    game_id,
                ),
            )
            by_seat = {player.seat: player for player in players}
            for result in results:
                player = by_seat.get(result.seat) or Player(
                    result.seat, f"seat {result.seat}", False
                )
                cursor.execute(
                    "INSERT OR REPLACE INTO results VALUES (?,?,?,?,?,?,?,?)",
                    (
                        game_id,
                        result.seat,
                        player.name,
                        name_key(player.name),
                        int(player.bot),
                        int(result.won),
                        result.points,
                        result.money,
                    ),
                )
            kept = game_id
        return kept

    def game_abandoned(self, room: str, seed: int, when: float) -> None:
        """The room closed while its game ran: it will never be replayed or counted."""
        with self._transaction(f"room {room}'s abandoned game") as cursor:
            cursor.execute(
                "UPDATE games SET status = ?, ended = ? WHERE room = ? AND seed = ? AND status = ?",
                (ABANDONED, when, room, seed, PLAYING),
            )


def _private_file(path: Path) -> None:
    """The history holds players' names: the file (and so SQLite's side files) is 0600."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    os.chmod(path, 0o600)  # one left by an older host


def read_history(data_dir: Path) -> HistoryView:
    """A host's history opened read-only (no lock: the host may be running)."""
    path = data_dir / HISTORY_FILE
    if not path.is_file():
        raise HistoryUnreadable(f"no games are kept in {data_dir} (no {HISTORY_FILE} there)")
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
        db.execute("SELECT count(*) FROM games").fetchone()
    except sqlite3.Error as error:
        raise HistoryUnreadable(f"cannot read the game history {path}: {error}") from None
    return HistoryView(db)
