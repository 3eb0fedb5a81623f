"""Where partyhost keeps the user's files (decks, remembered settings, seats, host data).

``PARTYHOST_CONFIG_DIR``, ``PARTYHOST_DATA_DIR`` and ``PARTYHOST_STATE_DIR`` override the
platform's folders, which keeps tests and side-by-side hosts out of each other's way.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def _folder(kind: str) -> Path:
    """``PARTYHOST_{KIND}_DIR``, else the platform's user folder of that kind. No author
    folder: on Windows it would wrap the app's, ``AppData\\Local\\partyhost\\partyhost``."""
    override = os.environ.get(f"PARTYHOST_{kind.upper()}_DIR")
    folders = platformdirs.PlatformDirs("partyhost", appauthor=False)
    return Path(override or getattr(folders, f"user_{kind}_dir"))


def config_dir() -> Path:
    return _folder("config")


def data_dir() -> Path:
    return _folder("data")


def state_dir() -> Path:
    """Where the client keeps what it may forget without harm (the seats it holds)."""
    return _folder("state")


def host_data_dir(given: str | None = None) -> Path:
    """The host data folder given on the command line, else the one ``serve`` uses by default."""
    return Path(given) if given else data_dir() / "host"


def user_decks_dir() -> Path:
    return config_dir() / "decks"
