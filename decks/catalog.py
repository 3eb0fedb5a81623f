"""Where deck files are: shipped decks, then the user's deck folder, then a host's folders.

A deck's name is its file stem; a user deck named like a shipped one is shadowed, so a
shipped deck's name means the same cards at every table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from partyhost.paths import user_decks_dir

DECK_SUFFIXES = (".yaml", ".yml")

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


def deck_folders(extra_dirs: Sequence[Path] = ()) -> list[tuple[str, Path]]:
    """The search path, then ``extra_dirs`` (a host's ``--deck-dir``), in search order."""
    return [
        ("shipped", shipped_decks_dir()),
        ("user", user_decks_dir()),
        *(("folder", folder) for folder in extra_dirs),
    ]
