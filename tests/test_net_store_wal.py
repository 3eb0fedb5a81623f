"""The store never folds its WAL on the event loop: the host does it in a thread."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from partyhost.engine.core import SeatResult
from partyhost.net.store.database import DB_FILE, Store
from partyhost.net.store.records import CommandRecord, GameStart, Player
from playedgames import keep_game

WAL_AUTOCHECKPOINT_BYTES = 1000 * 4096
"""Where SQLite would otherwise fold the WAL in, inside the committing call."""


def test_games_kept_grow_the_wal_until_the_host_checkpoints_it(tmp_path: Path) -> None:
    store = Store(tmp_path)
    players = [Player(seat, f"p{seat}", False) for seat in range(4)]
    wal = tmp_path / f"{DB_FILE}-wal"
    for number in range(120):
        start = GameStart(
            room=f"R{number:03d}",
            seed=number,
            game="tshirt",
            deck_name="deck",
            deck_data={"cards": ["x" * 100] * 300},
            rules={},
            start_seats=[0, 1, 2, 3],
            started=time.time(),
            players=players,
        )
        commands = [CommandRecord(0, {"type": "submit", "text": "y" * 200}, time.time())] * 300
        results = [SeatResult(seat, seat == 0, 1) for seat in range(4)]
        keep_game(store, start, commands, results, time.time())
    assert wal.stat().st_size > 2 * WAL_AUTOCHECKPOINT_BYTES  # never folded in by a write
    store.checkpoint()
    with sqlite3.connect(tmp_path / DB_FILE) as db:
        busy, frames, folded = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert busy == 0 and frames == folded  # everything was already in the database
    store.close()
