"""What every door visitor's client is started with and held to, whichever door let them in:
its arguments, its bare environment, its screen and input limits, and its folders.

The door's working folder is one per running door, with a private folder per visitor inside
it; leftovers of a killed host are swept when the next door opens. A browser door's visitor
gets a folder *kept* for their cookie (named by its hash), so their client finds its name
and seats again after a reload; only the :data:`MAX_KEPT` used last are kept. Imports
nothing of either door, so the browser door never loads the SSH door's parts.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import stat
import tempfile
import time
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from partyhost.net.platform import owned_by_this_user, process_alive

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


DOOR_FOLDER = "ssh-door"
CLOSE_TRIES = 20
CLOSE_PAUSE = 0.1
"""Seconds between tries to remove the door's folder on the way out."""
PREFIX = "partyhost-ssh-"
KEPT_FOLDER = "web-visitors"
MAX_KEPT = 200
"""Browsers whose folders are kept at most; the one used longest ago goes first."""
KEPT_NAME_LENGTH = 32


def _owner_pid(name: str) -> int | None:
    """The pid in ``partyhost-ssh-PID-xxxx``, None for anything else."""
    pid_text = name.removeprefix(PREFIX).partition("-")[0]
    return int(pid_text) if name.startswith(PREFIX) and pid_text.isdigit() else None


def sweep(base: Path, *, only_dead_owners: bool) -> list[Path]:
    """Remove the door folders in ``base`` left by earlier runs; returns what was removed."""
    removed: list[Path] = []
    try:
        entries = list(base.iterdir())
    except OSError:
        return removed
    for entry in entries:
        pid = _owner_pid(entry.name)
        if pid is None or pid == os.getpid():
            continue
        try:
            info = entry.lstat()
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or not owned_by_this_user(info):
            continue
        if only_dead_owners and process_alive(pid):
            continue
        shutil.rmtree(entry, ignore_errors=True)
        removed.append(entry)
    return removed


class DoorFolders:
    """This door's folder (made by :meth:`open`) and a fresh folder for each visitor."""

    def __init__(self, data_dir: Path | None) -> None:
        self.in_data = data_dir is not None
        self.base = data_dir / DOOR_FOLDER if data_dir is not None else Path(tempfile.gettempdir())
        self.root: Path | None = None
        self._made = 0
        self._in_use: Counter[Path] = Counter()
        """Kept folders a client runs in now (never dropped for the cap)."""

    def open(self) -> Path:
        """Sweep leftovers, then make this door's folder (0700)."""
        if self.in_data:
            self.base.mkdir(mode=0o700, parents=True, exist_ok=True)
        sweep(self.base, only_dead_owners=not self.in_data)
        self.root = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=self.base))
        return self.root

    def visitor(self) -> Path:
        """A new empty folder (0700) for one visitor's client: its working folder and home."""
        assert self.root is not None, "open() first"
        self._made += 1
        folder = self.root / f"visitor-{self._made}"
        folder.mkdir(mode=0o700)
        return folder

    @staticmethod
    def discard(folder: Path) -> None:
        shutil.rmtree(folder, ignore_errors=True)

    def kept_base(self) -> Path:
        """Where kept folders live: the data folder's, else this door's (gone when it closes)."""
        assert self.root is not None, "open() first"
        return (self.base if self.in_data else self.root) / KEPT_FOLDER

    def kept(self, visitor_id: str) -> Path:
        """The folder kept for the browser whose cookie holds ``visitor_id`` (made empty the
        first time); :meth:`release` it when its client is done. OSError if it cannot be had."""
        base = self.kept_base()
        base.mkdir(mode=0o700, exist_ok=True)
        name = hashlib.sha256(visitor_id.encode("utf-8")).hexdigest()[:KEPT_NAME_LENGTH]
        folder = base / name
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            if not stat.S_ISDIR(folder.lstat().st_mode):
                raise NotADirectoryError(folder) from None
            os.utime(folder)  # used last now: the cap drops it last
        else:
            self._drop_oldest(base, keeping=folder)
        self._in_use[folder] += 1
        return folder

    def release(self, folder: Path) -> None:
        """A client in a kept folder is done: the folder stays, marked as just used."""
        self._in_use -= Counter([folder])  # drops it at zero
        with contextlib.suppress(OSError):
            os.utime(folder)

    def _drop_oldest(self, base: Path, keeping: Path) -> None:
        """Past :data:`MAX_KEPT`, remove the folders used longest ago (none in use)."""
        try:
            entries = [(entry.lstat().st_mtime, entry) for entry in base.iterdir()]
        except OSError:
            return
        spare = [
            (used, entry)
            for used, entry in entries
            if entry != keeping and entry not in self._in_use
        ]
        for _, entry in sorted(spare)[: max(0, len(entries) - MAX_KEPT)]:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    entry.unlink()

    def close(self) -> None:
        """Remove this door's folder; a visitor's client still ending may write into it
        meanwhile, so try again for a moment (bounded) until it is gone."""
        if self.root is not None:
            for _ in range(CLOSE_TRIES):
                shutil.rmtree(self.root, ignore_errors=True)
                if not self.root.exists():
                    break
                time.sleep(CLOSE_PAUSE)
            self.root = None
        if self.in_data:
            with contextlib.suppress(OSError):
                self.base.rmdir()  # only if empty
