"""Which decks this host offers, and loading one by name for a new room.

The search path is :mod:`partyhost.decks.catalog`'s (shipped decks, then the
user's deck folder) plus the host's own ``deck_dirs``. The listing is read
once at start (it parses every file); a room's deck is loaded fresh when the
room is created and its *data* goes into the journal, so a later restart never
reads the file again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from partyhost.decks.catalog import DECK_SUFFIXES, decks_for_game, search_path
from partyhost.decks.files import DeckFileError, LoadedDeck, load_deck_file
from partyhost.engine.core import Game
from partyhost.engine.registry import all_games

log = logging.getLogger(__name__)


class DeckNotFound(Exception):
    """No deck of that name for that game (``code`` is the wire error code)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class DeckEntry:
    """A deck as the lobby lists it."""

    name: str
    title: str
    description: str
    deck_game: str

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "description": self.description}


def _entry(loaded: LoadedDeck) -> DeckEntry:
    title = loaded.data.get("name")
    description = loaded.data.get("description")
    return DeckEntry(
        loaded.name,
        title if isinstance(title, str) else loaded.name,
        description if isinstance(description, str) else "",
        loaded.deck_game,
    )


class DeckShelf:
    """The decks this host can deal from, grouped by the ``game:`` they declare."""

    def __init__(self, extra_dirs: tuple[Path, ...] = ()) -> None:
        self.extra_dirs = extra_dirs
        self._entries: dict[str, list[DeckEntry]] = {}

    def scan(self) -> None:
        """Read every deck on the search path (slow: call it off the event loop)."""
        entries: dict[str, list[DeckEntry]] = {}
        for deck_game in {game.deck_game for game in all_games()}:
            try:
                found = decks_for_game(deck_game)
            except Exception:  # a broken user folder must not stop the host
                log.exception("could not list decks for %s", deck_game)
                found = []
            entries[deck_game] = [_entry(loaded) for loaded in found]
        for path in self._extra_files():
            try:
                loaded = load_deck_file(path, "file")
            except DeckFileError as exc:
                log.warning("skipping deck %s: %s", path, exc)
                continue
            except Exception:  # one broken file never hides the others
                log.exception("skipping deck %s", path)
                continue
            listed = entries.setdefault(loaded.deck_game, [])
            if all(entry.name != loaded.name for entry in listed):
                listed.append(_entry(loaded))
        self._entries = entries

    def _extra_files(self) -> list[Path]:
        found: list[Path] = []
        for folder in self.extra_dirs:
            try:
                if folder.is_dir():
                    found.extend(
                        path
                        for path in sorted(folder.iterdir())
                        if path.suffix in DECK_SUFFIXES and path.is_file()
                    )
            except OSError as exc:
                log.warning("skipping deck folder %s: %s", folder, exc)
        return found

    def for_game(self, game: Game) -> list[DeckEntry]:
        return list(self._entries.get(game.deck_game, ()))

    def load(self, game: Game, name: str | None) -> LoadedDeck:
        """Load the named deck (or the game's default) for ``game``; slow, use a thread."""
        wanted = name or game.default_deck
        loaded = self._find(wanted)
        if loaded is None:
            for entry in self.for_game(game):
                if entry.title.casefold() == wanted.casefold():
                    loaded = self._find(entry.name)
                    break
        if loaded is None:
            names = ", ".join(entry.name for entry in self.for_game(game)) or "none"
            raise DeckNotFound(
                "unknown_deck", f"No deck {wanted!r} for {game.name}; this host has: {names}."
            )
        if loaded.deck_game != game.deck_game:
            raise DeckNotFound(
                "unknown_deck", f"Deck {wanted!r} is for another game ({loaded.deck_game})."
            )
        return loaded

    def _find(self, name: str) -> LoadedDeck | None:
        if not name or "/" in name or "\\" in name or name.startswith("."):
            return None  # names only: a client may not make the host read paths
        folders = [folder for _, folder in search_path()] + list(self.extra_dirs)
        for folder in folders:
            for suffix in DECK_SUFFIXES:
                path = folder / f"{name}{suffix}"
                if path.is_file():
                    return self._load_file(path)
        return None

    @staticmethod
    def _load_file(path: Path) -> LoadedDeck:
        try:
            return load_deck_file(path, "file")
        except DeckFileError as exc:
            raise DeckNotFound("bad_deck", f"Deck {path.stem!r} cannot be used: {exc}") from None
