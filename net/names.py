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

_ESCAPES = re.compile(
    r"""
      \x1b\[[0-?]*[ -/]*[@-~]?             # CSI: ESC [ params final
    | \x9b[0-?]*[ -/]*[@-~]?               # 8-bit CSI
    | \x1b[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?   # OSC/DCS/SOS/PM/APC strings
    | [\x90\x9d\x98\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?  # 8-bit string openers
    | \x1b[ -/]*[0-~]?                     # other escape sequences
    """,
    re.VERBOSE,
)
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_SPACES = re.compile(r"\s+")


def strip_controls(text: str) -> str:
    """``text`` without escape sequences, control characters or bidi overrides.

    Whitespace controls (newline, tab) become plain spaces so words do not run
    together.
    """
    text = _ESCAPES.sub("", text)
    kept: list[str] = []
    for char in text:
        category = unicodedata.category(char)
        if char in "\t\n\r\v\f\u2028\u2029\x85":
            kept.append(" ")
        elif category == "Cc" or category == "Cs" or char in _BIDI_CONTROLS:
            continue
        else:
            kept.append(char)
    return "".join(kept)


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
