"""Cleaning player-supplied text (names, chat) before anyone else sees it.

Text is kept as typed, except what could change someone else's terminal:
ANSI/VT escape sequences, C0/C1 control characters and bidirectional
overrides are removed. Markup such as ``[red]`` is *not* touched: clients must
display player text literally.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from partyhost.safetext import strip_controls

__all__ = ["clean_name", "clean_text", "name_key", "strip_controls", "unique_name"]

_SPACES = re.compile(r"\s+")


def clean_text(raw: str, max_length: int) -> str:
    """Controls stripped, runs of whitespace collapsed, ends trimmed, length capped."""
    text = _SPACES.sub(" ", strip_controls(raw)).strip()
    return text[:max_length].rstrip()


def clean_name(raw: str, max_length: int, fallback: str = "Player") -> str:
    """A display name as typed but safe; ``fallback`` when nothing is left."""
    return clean_text(raw, max_length) or fallback


def name_key(name: str) -> str:
    """The form two names are compared in: ``Ann``, ``ANN`` and the full-width ``Ann`` collide."""
    return unicodedata.normalize("NFKC", name).casefold()


def unique_name(name: str, taken: Iterable[str], max_length: int) -> str:
    """``name``, or ``name 2``, ``name 3``... so no two names in ``taken`` collide."""
    keys = {name_key(other) for other in taken}
    if name_key(name) not in keys:
        return name
    number = 2
    while True:
        suffix = f" {number}"
        candidate = name[: max(1, max_length - len(suffix))].rstrip() + suffix
        if name_key(candidate) not in keys:
            return candidate
        number += 1
