"""The host's one database: rooms to rebuild after a crash, and every game it ran.

Writes are queued and committed together (commands at the end of the loop's
turn, the rest at once), always before any view of them goes out. A full disk
first gives up the reserve (:mod:`.space`), so running games go on while new
ones are refused; a failed or lock-blocked commit keeps its queue and is
retried. docs/architecture.md tells the whole design.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import operator
import os
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path

from partyhost.engine.core import SeatResult
from partyhost.net.platform import lock_exclusively
from partyhost.net.store import records as rows
from partyhost.net.store import space
from partyhost.net.store.migration import SIDE_FILES, bring_up_to_date
from partyhost.net.store.records import (
    INSERT_COMMAND,
    SCHEMA_VERSION,
    CommandRecord,
    GameStart,
    MemberRecord,
    Player,
    RoomRecord,
    Statement,
    StoredRoom,
    StoreReader,
)

log = logging.getLogger(__name__)

DB_FILE = "host.sqlite3"
LOCK_FILE = "host.lock"
RETRY_SECONDS = 0.5
"""While writes fail, a commit is tried at most this often (every connection asks)."""
REMIND_SECONDS = 60.0
"""While writes fail, the log says so again this often, not on every try."""
RESERVE_RETRY_SECONDS = 2.0
"""While short of space, taking the reserve back is tried this often."""
BUSY_MILLISECONDS = 50
"""How long a commit waits for another process's write lock before it is retried later:
never SQLite's default of seconds with every player waiting."""


class StoreUnusable(OSError):
    """The data folder's database cannot be opened or read; the message says what to do."""


class StoreLocked(StoreUnusable):
    """Another host already uses this data folder."""


def unusable(path: str, error: sqlite3.Error) -> StoreUnusable:
    """One line naming the file, what is wrong and what to do about it."""
    if type(error) is sqlite3.DatabaseError:  # not a database, or a damaged one
        return StoreUnusable(
            f"the database {path} is damaged ({error}): move it aside and start again"
            " (its rooms and past games are lost), or start with a fresh --data folder"
        )
    return StoreUnusable(
        f"cannot use the database {path} ({error}): check the folder's free space and"
        " permissions, or start with a fresh --data folder"
    )


def is_locked(error: sqlite3.Error) -> bool:
    """Whether ``error`` means another connection holds the lock (it will pass)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in str(error)


def _make_private(folder: Path) -> None:
    """The folder 0700 and the database's files 0600, whether new or left by an older host."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(folder, 0o700)
    database = folder / DB_FILE
    sides = (folder / f"{DB_FILE}{side}" for side in SIDE_FILES)
    for path in (database, *sides, folder / space.RESERVE_FILE):
        with contextlib.suppress(FileNotFoundError):
            os.chmod(path, 0o600)
    # SQLite gives the -wal and -shm files it creates the database file's mode.
    os.close(os.open(database, os.O_WRONLY | os.O_CREAT, 0o600))


class Store(StoreReader):
    """The host's database; writes commit before returning, commands by the turn's end."""

    def __init__(
        self,
        data_dir: Path | None,
        history_cap: int | None = None,
        reserve_bytes: int = space.RESERVE_BYTES,
    ) -> None:
        """``reserve_bytes``: room kept for the running games when the disk fills up."""
        self.history_cap = history_cap
        """Bytes the database may use before the oldest finished games go (None: no cap)."""
        self.short_of_space = False
        """True from a full disk until the reserve is back: no new games meanwhile."""
        self._next_reserve_try = 0.0
        self._lock_fd: int | None = None
        self._pending: list[Statement] = []
        self._commit_planned: asyncio.AbstractEventLoop | None = None
        """The loop whose next turn commits (a loop that closed first does not count)."""
        self._games: dict[str, int] = {}
        """Each room's current game, by room code."""
        self.failure: str | None = None
        """Why the last commit failed; None while writing works."""
        self.busy = False
        """True while commits fail because another process holds the write lock."""
        self._failing_since = 0.0
        self._next_try = 0.0
        self._reminded = -REMIND_SECONDS
        if data_dir is None:
            target = ":memory:"
        else:
            _make_private(data_dir)
            lock = data_dir / LOCK_FILE
            self._lock_fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
            os.chmod(lock, 0o600)
            if not lock_exclusively(self._lock_fd):
                self._unlock()
                raise StoreLocked(f"another partyhost host is using {data_dir}")
            target = str(data_dir / DB_FILE)
        self._target = target
        db = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
        super().__init__(db)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            # Checkpoints (which fsync) run in a thread via checkpoint(), not inside a commit
            # on the event loop: they were the store's only multi-millisecond pauses.
            db.execute("PRAGMA wal_autocheckpoint=0")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreUnusable(
                    f"the database {target} was written by a newer partyhost (format"
                    f" {version}; this one reads up to {SCHEMA_VERSION}): upgrade partyhost"
                    " or start with a fresh --data folder"
                )
            bring_up_to_date(db, version, data_dir)
            db.execute("PRAGMA foreign_keys=ON")
            file = None if data_dir is None else data_dir / space.RESERVE_FILE
            self._reserve = space.Reserve(db, file, 0 if file is None else reserve_bytes)
            if not self._reserve.whole():
                self._take_reserve(time.monotonic())
            self.prune()
            # Opening may wait SQLite's default for a lock; from now on the loop may not.
            db.execute(f"PRAGMA busy_timeout={BUSY_MILLISECONDS}")
        except BaseException as error:
            db.close()
            self._unlock()
            if isinstance(error, sqlite3.Error):
                raise unusable(target, error) from None
            raise

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
                "closing with %d change(s) the database %s could not save",
                len(self._pending),
                self._target,
            )
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        super().close()
        self._unlock()

    # --- writing -----------------------------------------------------------------

    @property
    def failing(self) -> bool:
        """True while the store cannot write: the host takes no new commands then."""
        return self.failure is not None

    def save(self, room: RoomRecord, members: list[MemberRecord]) -> None:
        """Store a room's settings and members (replacing what was there)."""
        game_id = self._games.get(room.code)
        self._write([rows.room_row(room, game_id), *rows.member_rows(room.code, members)])

    def start_game(self, room: RoomRecord, members: list[MemberRecord], start: GameStart) -> None:
        """A new game becomes the room's, atomically; a previous one still running is abandoned."""
        previous = self._games.get(room.code)
        game_id = self._games[room.code] = rows.new_game_id(self._db, set(self._games.values()))
        self._write(
            [
                *rows.game_rows(game_id, start),
                rows.room_row(room, game_id),
                *rows.member_rows(room.code, members),
                *([] if previous is None else rows.abandon_rows(previous, start.started)),
            ]
        )
        self.prune()

    def game_over(
        self,
        code: str,
        results: Sequence[SeatResult],
        players: Sequence[Player],
        ended: float,
        walked_out: bool = False,
    ) -> None:
        """Mark room ``code``'s game over with everyone who sat in it by its end and their
        results (see :func:`~.records.game_over_rows`)."""
        game_id = self._games.get(code)
        if game_id is not None:
            self._write(rows.game_over_rows(game_id, results, players, ended, walked_out))
            self.prune()

    def forget(self, code: str, when: float) -> None:
        """The room closed: it goes, and its game, if still running, is never replayed."""
        game_id = self._games.pop(code, None)
        abandon = [] if game_id is None else rows.abandon_rows(game_id, when)
        self._write([("DELETE FROM rooms WHERE code=?", (code,)), *abandon])

    def set_aside(self, code: str, reason: str) -> None:
        """Move a room that cannot be rebuilt out of the way, keeping its rows for a look."""
        log.warning(
            "room %s cannot be restored (%s); it is set aside (tables set_aside_*) in %s",
            code,
            reason,
            self._target,
        )
        self._games.pop(code, None)
        self._write(rows.set_aside_statements(code, reason, time.time()))

    def _write(self, statements: list[Statement]) -> None:
        """Queue ``statements`` after the writes already queued and try to commit them all."""
        self._pending.extend(statements)
        self.commit()

    def append(self, code: str, index: int, record: CommandRecord) -> None:
        """Keep one accepted command (or tick) of room ``code``'s game, committed with the
        others of this loop turn (outside a loop: at once)."""
        row = rows.command_row(self._games[code], index, record)
        self._pending.append((INSERT_COMMAND, row))
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.commit()
            return
        if loop is not self._commit_planned:
            self._commit_planned = loop
            loop.call_soon(self.commit)

    def commit(self, force: bool = False) -> bool:
        """Commit every queued write in one transaction (before any frame goes out); False if
        that failed: the writes stay queued, retried at most every :data:`RETRY_SECONDS`
        unless ``force``."""
        self._commit_planned = None
        now = time.monotonic()
        if self.short_of_space and self.failure is None and now >= self._next_reserve_try:
            self._take_reserve(now)
        if not self._pending:
            return True
        if self.failure is not None and now < self._next_try and not force:
            return False
        statements, self._pending = self._pending, []
        try:
            self._run_making_room(statements, now)
        except BaseException as error:
            self._pending[:0] = statements
            if not isinstance(error, sqlite3.Error):
                raise
            self._failed(error, now)
            return False
        if self.failure is not None:
            log.warning(
                "the database %s writes again after %.0f s; %d waiting change(s) saved",
                self._target,
                now - self._failing_since,
                len(statements),
            )
            self.failure = None
            self.busy = False
        return True

    def _run_making_room(self, statements: list[Statement], now: float) -> None:
        """Run ``statements``; on a full disk give up the reserve and run them again."""
        try:
            self._run(statements)
        except sqlite3.Error as error:
            if not space.is_disk_full(error):
                raise
            self._short_of_space(now)
            if not self._reserve.held():
                raise
            held = self._reserve.release()
            log.warning(
                "the disk of %s is full: the host gave up its %g MiB reserve for the games"
                " that are running and starts no new games until there is space again",
                self._target,
                held / 2**20,
            )
            self._run(statements)

    def _short_of_space(self, now: float) -> None:
        self.short_of_space = True
        self._next_reserve_try = now + RESERVE_RETRY_SECONDS

    def _take_reserve(self, now: float) -> None:
        """Take the reserve (back); while there is no room for it, stay short of space."""
        try:
            self._reserve.take()
        except (sqlite3.Error, OSError) as error:
            if not space.is_disk_full(error):
                log.warning("cannot take the reserve in %s (will retry): %s", self._target, error)
            self._short_of_space(now)
            return
        if self.short_of_space:
            log.warning("the disk of %s has space again: new games are welcome", self._target)
        self.short_of_space = False

    def prune(self) -> int:
        """Delete the oldest finished games (and decks no game uses) while over the cap;
        how many went. Rooms' games, running or not, are never touched."""
        if self.history_cap is None or not self.commit(force=True):
            return 0
        pruned, count = 0, 1
        finished = (rows.OVER, rows.ABANDONED, rows.DROPPED)
        while space.used_bytes(self._db) - self._reserve.in_database() > self.history_cap:
            chosen, params = space.oldest_finished(finished, count)
            count = min(2 * count, space.MAX_PRUNE_BATCH)
            batch = len(self._db.execute(chosen, params).fetchall())
            if not batch:
                break
            try:
                self._run(rows.delete_game_rows(chosen, params))
            except sqlite3.Error as error:
                log.error("could not delete old games from %s: %s", self._target, error)
                break
            pruned += batch
        if pruned:
            log.info(
                "deleted the %d oldest finished game(s) of %s to keep it under %g MiB",
                pruned,
                self._target,
                self.history_cap / 2**20,
            )
        return pruned

    def _run(self, statements: list[Statement]) -> None:
        cursor = self._db.cursor()
        cursor.execute("BEGIN")
        try:
            # A run of one statement (a turn's commands, mostly) goes in one call.
            for sql, run in itertools.groupby(statements, key=operator.itemgetter(0)):
                cursor.executemany(sql, [params for _, params in run])
            cursor.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    cursor.execute("ROLLBACK")
            raise

    def _failed(self, error: sqlite3.Error, now: float) -> None:
        """Remember the failure; log it when it starts and then once a while, not per try."""
        self._next_try = now + RETRY_SECONDS
        self.busy = is_locked(error)
        starting = self.failure is None
        if starting:
            self.failure, self._failing_since = str(error), now
        if now - self._reminded < REMIND_SECONDS:
            return  # logged not long ago (a disk on the edge fails again soon after writing)
        self._reminded = now
        if starting:
            log.error(
                "the database %s cannot be written (%s): the host refuses commands until it"
                " can; %d change(s) wait in memory",
                self._target,
                error,
                len(self._pending),
            )
        else:
            log.error(
                "the database %s still cannot be written after %.0f s (%s); %d change(s) wait",
                self._target,
                now - self._failing_since,
                error,
                len(self._pending),
            )

    # --- reading -----------------------------------------------------------------

    def load(self) -> list[StoredRoom]:
        """Every stored room with its members and commands, oldest room first; a room whose
        rows cannot be read is set aside."""
        self.commit(force=True)
        try:
            codes = rows.room_codes(self._db)
        except sqlite3.Error as error:
            raise unusable(self._target, error) from None
        stored_rooms: list[StoredRoom] = []
        for code in codes:
            try:
                stored = rows.read_room(self._db, code)
            except Exception as error:  # a damaged row, whatever it raises
                self.set_aside(code, f"its rows cannot be read: {type(error).__name__}: {error}")
                continue
            if stored is not None:
                stored_rooms.append(stored)
                if stored.game_id is not None:
                    self._games[code] = stored.game_id
        return stored_rooms


def read_store(data_dir: Path) -> StoreReader:
    """A data folder's database opened read-only (no lock: the host may be running); an
    older host's folder is upgraded first (:class:`StoreLocked` while that host runs)."""
    path = data_dir / DB_FILE
    if not path.is_file():
        raise StoreUnusable(f"no games are kept in {data_dir} (no {DB_FILE} there)")
    for attempt in range(2):
        try:
            db = sqlite3.connect(
                f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None
            )
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as error:
            raise StoreUnusable(f"cannot read the database {path}: {error}") from None
        if version == SCHEMA_VERSION or attempt == 1:
            break
        db.close()
        Store(data_dir).close()  # an older host's folder: upgraded once, then read
    if version != SCHEMA_VERSION:
        db.close()
        raise StoreUnusable(
            f"the database {path} is in format {version}; this partyhost reads {SCHEMA_VERSION}"
        )
    return StoreReader(db)
