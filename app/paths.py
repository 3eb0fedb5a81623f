"""Where partyhost keeps the user's files (decks, remembered settings, seats, host data).

``PARTYHOST_CONFIG_DIR``, ``PARTYHOST_DATA_DIR`` and ``PARTYHOST_STATE_DIR``
override the platform's folders, which keeps tests and side-by-side hosts out
of each other's way.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "partyhost"


def _platform_dirs() -> platformdirs.PlatformDirs:
    """The platform's folders for partyhost.

    ``appauthor=False``: on Windows an author's folder named like the app would
    otherwise wrap it, ``AppData\\Local\\partyhost\\partyhost``; elsewhere it changes nothing.
    """
    return platformdirs.PlatformDirs(APP_NAME, appauthor=False)


def config_dir() -> Path:
    override = os.environ.get("PARTYHOST_CONFIG_DIR")
    return Path(override) if override else Path(_platform_dirs().user_config_dir)


def data_dir() -> Path:
    override = os.environ.get("PARTYHOST_DATA_DIR")
    return Path(override) if override else Path(_platform_dirs().user_data_dir)


def state_dir() -> Path:
    """Where the client keeps what it may forget without harm (the seats it holds)."""
    override = os.environ.get("PARTYHOST_STATE_DIR")
    return Path(override) if override else Path(_platform_dirs().user_state_dir)


def host_data_dir(given: str | None = None) -> Path:
    """The host data folder given on the command line, else the one ``serve`` uses by default."""
    return Path(given) if given else data_dir() / "host"


def user_decks_dir() -> Path:
    return config_dir() / "decks"
