"""The host's identity: a random id made once and kept in its data folder.

Clients remember their seat tokens per host (``welcome.host_id``), so a token
is only ever offered back to the host that issued it, whatever address or
name that host has today. A host without a data folder (``partyhost play``)
gets a new id each run: its rooms do not outlive it either.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from pathlib import Path

HOST_ID_FILE = "host-id"
HOST_ID = re.compile(r"[0-9a-f]{32}")


def new_host_id() -> str:
    return secrets.token_hex(16)


def load_host_id(data_dir: Path | None) -> str:
    """The id kept in ``data_dir``, made (and kept, readable by its owner only) on first use."""
    if data_dir is None:
        return new_host_id()
    path = data_dir / HOST_ID_FILE
    with contextlib.suppress(OSError, UnicodeDecodeError):
        kept = path.read_text(encoding="ascii").strip()
        if HOST_ID.fullmatch(kept):
            return kept
    host_id = new_host_id()
    data_dir.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{HOST_ID_FILE}.tmp")
    temporary.unlink(missing_ok=True)
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(host_id + "\n")
    os.replace(temporary, path)
    return host_id
