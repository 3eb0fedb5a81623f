"""The connect screen's memory: the last address and name, in the user's config dir.

A missing, unreadable or hand-mangled file is never an error: the client just
starts with empty fields, because remembering is a convenience.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from partyhost.paths import config_dir

FILE_NAME = "client.json"


@dataclass(frozen=True)
class Remembered:
    address: str = ""
    name: str = ""


def settings_path() -> Path:
    return config_dir() / FILE_NAME


def load_remembered() -> Remembered:
    try:
        data = json.loads(settings_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Remembered()
    if not isinstance(data, dict):
        return Remembered()
    address, name = data.get("address", ""), data.get("name", "")
    return Remembered(
        address=address if isinstance(address, str) else "",
        name=name if isinstance(name, str) else "",
    )


def save_remembered(remembered: Remembered) -> None:
    """Write atomically; a read-only or full disk only costs the memory."""
    path = settings_path()
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(asdict(remembered)), encoding="utf-8")
        os.replace(temporary, path)


def default_name() -> str:
    """The login name, a sensible first guess at what friends call you."""
    for variable in ("PARTYHOST_NAME", "USER", "USERNAME", "LOGNAME"):
        value = os.environ.get(variable, "").strip()
        if value:
            return value[:24]
    return "player"
