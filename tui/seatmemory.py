"""The seats this client holds: every seat token it was given, by host and room.

A closed terminal or a crashed laptop should not cost a player their seat,
so every token from ``joined`` is written to the user's state folder (file
mode 0600: a token is a key to the seat) under the host's identity
(``welcome.host_id``) and the room code. A token is only ever offered back
to the host that issued it, and it is forgotten when that host says it is
unknown or that the seat is gone (``left``). Like the remembered address,
this is a convenience: an unreadable or mangled file is never an error.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from partyhost.paths import state_dir

FILE_NAME = "seats.json"
KEPT = 40
"""Seats remembered at most (the oldest go first)."""


@dataclass(frozen=True)
class HeldSeat:
    """One seat this client was given, and what it shows when offering it back."""

    host_id: str
    code: str
    token: str
    host_name: str = ""
    name: str = ""
    game_name: str = ""
    round: int | None = None
    """The round the game was in when last seen, if its views count rounds."""
    saved: float = 0.0

    def describe(self) -> str:
        """``room KXTM, The T-Shirt Game, round 4``."""
        parts = [f"room {self.code}"]
        if self.game_name:
            parts.append(self.game_name)
        if self.round:
            parts.append(f"round {self.round}")
        return ", ".join(parts)


def memory_path() -> Path:
    return state_dir() / FILE_NAME


class SeatMemory:
    """The held seats on disk (``path`` None: a client that remembers nothing)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def seats_at(self, host_id: str) -> list[HeldSeat]:
        """The seats held at this host, newest first."""
        held = [seat for seat in self._load() if seat.host_id == host_id]
        return sorted(held, key=lambda seat: -seat.saved)

    def find(self, host_id: str, code: str) -> HeldSeat | None:
        return next((s for s in self._load() if (s.host_id, s.code) == (host_id, code)), None)

    def keep(self, seat: HeldSeat) -> None:
        """Remember ``seat`` (replacing what was held in that room at that host)."""
        if self.path is None or not seat.host_id or not seat.token:
            return
        others = [s for s in self._load() if (s.host_id, s.code) != (seat.host_id, seat.code)]
        held = [replace(seat, saved=time.time()), *others]
        self._save(sorted(held, key=lambda s: -s.saved)[:KEPT])

    def note_round(self, host_id: str, code: str, round_number: int) -> None:
        """The game reached ``round_number``: shown when the seat is offered back."""
        seat = self.find(host_id, code)
        if seat is not None and seat.round != round_number:
            self.keep(replace(seat, round=round_number))

    def forget(self, host_id: str, code: str) -> None:
        if self.path is None:
            return
        held = self._load()
        kept = [s for s in held if (s.host_id, s.code) != (host_id, code)]
        if len(kept) != len(held):
            self._save(kept)

    # --- the file ---------------------------------------------------------------

    def _load(self) -> list[HeldSeat]:
        if self.path is None:
            return []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        entries = data.get("seats") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            return []
        return [seat for entry in entries if (seat := _seat(entry)) is not None]

    def _save(self, held: list[HeldSeat]) -> None:
        """Write atomically, readable by this user only; a full disk only costs the memory."""
        if self.path is None:
            return
        path = self.path
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as file:
                json.dump({"seats": [asdict(seat) for seat in held]}, file)
            os.chmod(temporary, 0o600)
            os.replace(temporary, path)


_TYPES: dict[str, tuple[type, ...]] = {
    "host_id": (str,),
    "code": (str,),
    "token": (str,),
    "host_name": (str,),
    "name": (str,),
    "game_name": (str,),
    "round": (int, type(None)),
    "saved": (int, float),
}
_REQUIRED = ("host_id", "code", "token")


def _seat(entry: Any) -> HeldSeat | None:
    """A held seat from one entry of the file, or None if it is not one."""
    if not isinstance(entry, dict):
        return None
    values: dict[str, Any] = {}
    for field in fields(HeldSeat):
        if field.name not in entry:
            continue
        value = entry[field.name]
        if isinstance(value, bool) or not isinstance(value, _TYPES[field.name]):
            return None
        values[field.name] = value
    if not all(isinstance(values.get(key), str) and values[key] for key in _REQUIRED):
        return None
    return HeldSeat(**values)
