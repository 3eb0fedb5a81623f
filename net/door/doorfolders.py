"""The door's working folders: one per running door, one per visitor inside it.

A visitor's client gets a private, empty folder as its working folder and
home, never the folder ``serve`` was started in. The door's folder lives in
the host's data folder (``ssh-door/``), which only one host uses at a time,
so whatever a SIGKILL left behind there is swept when the next door opens.
A host without a data folder uses the system's temporary folder, and sweeps
the folders there whose door process is gone.
"""

from __future__ import annotations

import contextlib
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
