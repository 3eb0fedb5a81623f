"""Room for the running games when the disk fills up, and the history's size.

The :class:`Reserve` is a row of zeros in the database and a file of zeros
beside it: given up on a full disk so the running games can still write,
taken back when there is space again.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from pathlib import Path

RESERVE_SCHEMA = "CREATE TABLE IF NOT EXISTS reserve (id INTEGER PRIMARY KEY, filler BLOB NOT NULL)"
RESERVE_BYTES = 2 * 1024 * 1024
"""About 20,000 commands of room to go on with on a full disk."""
RESERVE_FILE = "host.reserve"
_CHUNK = 64 * 1024
MAX_PRUNE_BATCH = 64
"""Games deleted per transaction at most while the history is over its cap (one first,
then twice as many each time it is still over)."""


def is_disk_full(error: BaseException) -> bool:
    """Whether ``error`` says there is no space left (SQLite's SQLITE_FULL, or ENOSPC)."""
    if isinstance(error, sqlite3.Error):
        return getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
    return isinstance(error, OSError) and error.errno == errno.ENOSPC


class Reserve:
    """Space set aside for the running games: a database row and a file, taken and given up
    together."""

    def __init__(self, db: sqlite3.Connection, file: Path | None, size: int) -> None:
        self._db = db
        self.file = file
        self.size = size

    def in_database(self) -> int:
        """Bytes of the reserve's row (0: given up, or none wanted)."""
        row = self._db.execute("SELECT length(filler) FROM reserve").fetchone()
        return 0 if row is None else int(row[0])

    def _file_size(self) -> int:
        if self.file is None:
            return 0
        try:
            return self.file.stat().st_size
        except FileNotFoundError:
            return 0

    def whole(self) -> bool:
        """Whether the reserve is as big as wanted, in the database and (with a file) on disk."""
        on_disk = self._file_size() == self.size or self.file is None
        return self.in_database() == self.size and on_disk

    def held(self) -> bool:
        return self.in_database() > 0 or self._file_size() > 0

    def take(self) -> None:
        """Write the reserve; raises OSError or sqlite3.Error when there is no room for it."""
        if self.file is not None and self._file_size() != self.size:
            try:
                _write_zeros(self.file, self.size)
            except OSError:
                with contextlib.suppress(OSError):
                    self.file.unlink()
                raise
        self._db.execute("BEGIN")
        try:
            self._db.execute("DELETE FROM reserve")
            if self.size > 0:
                insert = "INSERT INTO reserve VALUES (1, zeroblob(?))"
                self._db.execute(insert, (self.size,))
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def release(self) -> int:
        """Give the reserve up (the file first: deleting the row needs room in the log); the
        bytes freed in the database."""
        if self.file is not None:
            with contextlib.suppress(FileNotFoundError):
                self.file.unlink()
        freed = self.in_database()
        self._db.execute("DELETE FROM reserve")
        return freed


def _write_zeros(path: Path, size: int) -> None:
    """``size`` bytes of zeros, really allocated (no sparse file: it would hold no space)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        chunk = bytes(_CHUNK)
        left = size
        while left > 0:
            left -= os.write(fd, chunk[: min(left, _CHUNK)])
        os.fsync(fd)
    finally:
        os.close(fd)


def used_bytes(db: sqlite3.Connection) -> int:
    """Bytes of the database's pages in use, the reserve included."""
    size = db.execute("PRAGMA page_size").fetchone()[0]
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    free = db.execute("PRAGMA freelist_count").fetchone()[0]
    return int(size) * (int(pages) - int(free))


def oldest_finished(finished: tuple[str, ...], count: int) -> tuple[str, tuple[str, ...]]:
    """A query (and its parameters) for the oldest ``count`` games no room points at whose
    status is in ``finished``."""
    marks = ",".join("?" * len(finished))
    return (
        f"SELECT id FROM games WHERE status IN ({marks})"
        " AND id NOT IN (SELECT game_id FROM rooms WHERE game_id IS NOT NULL)"
        " AND id NOT IN (SELECT game_id FROM set_aside_rooms WHERE game_id IS NOT NULL)"
        f" ORDER BY COALESCE(ended, started), id LIMIT {int(count)}",
        finished,
    )
