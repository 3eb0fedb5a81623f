"""The door's working folders: one per running door, a private one per visitor inside it.

Leftovers of a killed host are swept when the next door opens. A browser door's visitor
gets a folder *kept* for their cookie (named by its hash), so their client finds its name
and seats again after a reload; only the :data:`MAX_KEPT` used last are kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat
import tempfile
import time
from pathlib import Path

from partyhost.net.platform import owned_by_this_user, process_alive

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
        self._in_use: dict[Path, int] = {}
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
        self._in_use[folder] = self._in_use.get(folder, 0) + 1
        return folder

    def release(self, folder: Path) -> None:
        """A client in a kept folder is done: the folder stays, marked as just used."""
        left = self._in_use.pop(folder, 0) - 1
        if left > 0:
            self._in_use[folder] = left
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
