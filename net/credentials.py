"""The host's secrets: its identity, seat tokens and room passwords.

Only hashes of tokens (SHA-256) and passwords (salted PBKDF2, slow on purpose:
callers check them off the event loop) are kept. The host id lets clients
offer a token only to the host that issued it.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

TOKEN_BYTES = 24
PBKDF2_ITERATIONS = 120_000
_SCHEME = "pbkdf2_sha256"


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What the host stores and looks tokens up by."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def hash_password(password: str, iterations: int = PBKDF2_ITERATIONS) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations)
    return f"{_SCHEME}${iterations}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    """Constant-time check of ``password`` against a :func:`hash_password` string."""
    try:
        scheme, iterations, salt_hex, digest_hex = stored.split("$")
        if scheme != _SCHEME:
            return False
        digest = hashlib.pbkdf2_hmac(
            "sha256", password.encode(), bytes.fromhex(salt_hex), int(iterations)
        )
    except ValueError:
        return False
    return hmac.compare_digest(digest.hex(), digest_hex)


HOST_ID_FILE = "host-id"
HOST_ID = re.compile(r"[0-9a-f]{32}")


def load_host_id(data_dir: Path | None) -> str:
    """The id kept in ``data_dir``, made (and kept, readable by its owner only) on first use."""
    host_id = secrets.token_hex(16)
    if data_dir is None:
        return host_id
    path = data_dir / HOST_ID_FILE
    with contextlib.suppress(OSError, UnicodeDecodeError):
        kept = path.read_text(encoding="ascii").strip()
        if HOST_ID.fullmatch(kept):
            return kept
    write_private(path, f"{host_id}\n".encode("ascii"))
    return host_id


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` readable by its owner only, whole or not at all: a file
    made private from its first byte, then renamed over the old one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}.tmp")
    temporary.unlink(missing_ok=True)
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)
    os.replace(temporary, path)
