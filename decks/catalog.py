"""Finding deck files: shipped decks, then the user's deck folder, then explicit paths.

A deck's name is its file stem. When a user deck has the same name as a
shipped one, the shipped deck wins and the user's copy is listed as shadowed,
so "the-t-shirt-game" always means the same cards at every table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from partyhost.decks.files import DeckError, DeckFileError, LoadedDeck, load_deck_file
from partyhost.paths import user_decks_dir

DECK_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class DeckListing:
    """One deck file found on the search path, valid or not."""

    name: str
    path: Path
    source: str
    deck: LoadedDeck | None
    errors: tuple[DeckError, ...] = ()
    shadowed: bool = False

    @property
    def first_problem(self) -> str:
        """The first problem as ``file.yaml:line:column: message`` (the file without its folder)."""
        if not self.errors:
            return ""
        error = self.errors[0]
        return f"{Path(error.file).name}:{error.line}:{error.column}: {error.message}"


_GAME_LINE = re.compile(r"""^game:[ \t]*["']?([A-Za-z0-9_-]+)""", re.MULTILINE)


def declared_game(text: str) -> str | None:
    """The ``game:`` a deck file names, read even from a file that does not parse."""
    found = _GAME_LINE.search(text)
    return found.group(1) if found else None


def shipped_decks_dir() -> Path:
    return Path(str(resources.files("partyhost.decks")))


def deck_files_in(folder: Path) -> list[Path]:
    """The deck files directly in ``folder``, by name (none if it does not exist)."""
    try:
        return sorted(p for p in folder.iterdir() if p.suffix in DECK_SUFFIXES and p.is_file())
    except OSError:  # a missing or unreadable folder has no decks to offer
        return []


def search_path() -> list[tuple[str, Path]]:
    return [("shipped", shipped_decks_dir()), ("user", user_decks_dir())]


def deck_folders(extra_dirs: Sequence[Path] = ()) -> list[tuple[str, Path]]:
    """The search path, then ``extra_dirs`` (a host's ``--deck-dir``), in search order."""
    return [*search_path(), *(("folder", folder) for folder in extra_dirs)]


def list_decks() -> list[DeckListing]:
    """Every deck file on the search path, in search order, each loaded or with errors."""
    listings: list[DeckListing] = []
    taken: set[str] = set()
    for source, folder in search_path():
        for path in deck_files_in(folder):
            try:
                loaded: LoadedDeck | None = load_deck_file(path, source)
                errors: tuple[DeckError, ...] = ()
            except DeckFileError as exc:
                loaded, errors = None, tuple(exc.errors)
            except Exception as exc:  # one broken file never hides the others
                problem = f"cannot be read ({type(exc).__name__}: {exc})"
                loaded, errors = None, (DeckError(str(path), 1, 1, problem),)
            listings.append(
                DeckListing(path.stem, path, source, loaded, errors, shadowed=path.stem in taken)
            )
            taken.add(path.stem)
    return listings


def find_deck(name_or_path: str) -> LoadedDeck:
    """Load a deck by name (search path) or by file path.

    Raises DeckFileError naming what was searched when nothing matches.
    """
    candidate = Path(name_or_path).expanduser()
    if candidate.suffix in DECK_SUFFIXES and candidate.is_file():
        return load_deck_file(candidate, "file")
    for source, folder in search_path():
        for suffix in DECK_SUFFIXES:
            path = folder / f"{name_or_path}{suffix}"
            if path.is_file():
                return load_deck_file(path, source)
    searched = ", ".join(str(folder) for _, folder in search_path())
    raise DeckFileError(
        [DeckError(name_or_path, 1, 1, f"no deck named {name_or_path!r} (searched {searched})")]
    )


def decks_for_game(deck_game: str) -> list[LoadedDeck]:
    """Valid, unshadowed decks whose ``game:`` is ``deck_game``, shipped first."""
    return [
        listing.deck
        for listing in list_decks()
        if listing.deck is not None and not listing.shadowed and listing.deck.deck_game == deck_game
    ]
