"""What every door visitor's client is started with and held to, whichever door let them in.

Imports nothing of either door, so the browser door never loads the SSH door's parts.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

JOIN_OPTIONS = ("--no-discovery", "--no-remember", "--locked")
"""What every door's client runs with: this host only, nothing kept on disk."""
CLIENT_ENV = ("LANG", "LC_ALL", "LC_CTYPE", "COLORTERM", "NO_COLOR")
"""Variables an SSH client may send (``SendEnv``) that reach the partyhost client."""
SAFE_TERM = re.compile(r"[A-Za-z0-9._+-]{1,64}")
SAFE_VALUE = re.compile(r"[A-Za-z0-9._@=+-]{0,64}")
INPUT_BYTES_PER_SECOND = 2048.0
"""Sustained input a visitor may send: far above typing and mouse moves, far below a flood."""
INPUT_BURST = 8192
MAX_COLUMNS = 500
MAX_ROWS = 200
"""The largest window a visitor's client is given: far above any real screen, and small
enough that a client drawing it stays small and quick (a visitor may claim any size)."""


def fit_screen(columns: int, rows: int) -> tuple[int, int]:
    """A claimed window size within the caps; a zero size (none sent) becomes 80x24."""
    return max(1, min(columns or 80, MAX_COLUMNS)), max(1, min(rows or 24, MAX_ROWS))


def client_environment(term: str | None, sent: Mapping[str, str], home: Path) -> dict[str, str]:
    """The client's whole environment: the visitor's terminal, and folders inside ``home``."""
    env = {
        "PATH": os.defpath,
        "HOME": str(home),
        "TMPDIR": str(home),
        "LANG": "C.UTF-8",
        "TERM": term if term and SAFE_TERM.fullmatch(term) else "xterm-256color",
        "PARTYHOST_CONFIG_DIR": str(home / "config"),
        "PARTYHOST_DATA_DIR": str(home / "data"),
        "PARTYHOST_STATE_DIR": str(home / "state"),  # seat tokens: never the host user's folder
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_STATE_HOME": str(home / "state"),
    }
    for name in CLIENT_ENV:
        value = sent.get(name)
        if isinstance(value, str) and SAFE_VALUE.fullmatch(value):
            env[name] = value
    return env
