"""Deck data in the history: each distinct deck stored once, shared by every game that used it.

A deck's row is keyed by a hash of its canonical form, so the same cards sent
under another name or in another order are one row; a game of several or
uploaded decks lists its parts in ``game_decks``.
"""

from __future__ import annotations

import hashlib
import sqlite3
from typing import Any

import msgpack
from partyhost.decks.combine import combine_decks
from partyhost.engine.core import Game

Statement = tuple[str, tuple[Any, ...]]


def pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def unpack(blob: bytes | None) -> Any:
    return None if blob is None else msgpack.unpackb(blob, raw=False, strict_map_key=False)


GAME_DECKS_SCHEMA = """CREATE TABLE IF NOT EXISTS game_decks (
    game_id INTEGER NOT NULL REFERENCES games(id),
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    title TEXT NOT NULL,
    source TEXT NOT NULL,
    deck_hash TEXT NOT NULL REFERENCES decks(hash),
    PRIMARY KEY (game_id, position)
)"""

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
