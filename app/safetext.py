"""Text from other people, made harmless for every terminal that shows it.

Chat lines, names and the text of deck files all come from someone else's
keyboard. What could change another person's terminal is removed: ANSI/VT
escape sequences, C0/C1 control characters and bidirectional overrides.
Everything else, markup such as ``[red]`` included, is kept as typed, so
clients must still display it literally.

This sits at the bottom of the layers so the deck reader and the network
layer clean text the same way.
"""

from __future__ import annotations

import re
import unicodedata

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
_WHITESPACE_CONTROLS = frozenset("\t\n\r\v\f\u2028\u2029\x85")


def strip_controls(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` without escape sequences, control characters or bidi overrides.

    Whitespace controls (tab, carriage return, line separators) become plain
    spaces so words do not run together; ``keep_newlines`` keeps ``\\n`` for
    multi-line text such as a deck's ASCII drawings.
    """
    text = _ESCAPES.sub("", text)
    if text.isprintable():
        return text
    kept: list[str] = []
    for char in text:
        if char == "\n" and keep_newlines:
            kept.append(char)
        elif char in _WHITESPACE_CONTROLS:
            kept.append(" ")
        elif unicodedata.category(char) in ("Cc", "Cs") or char in _BIDI_CONTROLS:
            continue
        else:
            kept.append(char)
    return "".join(kept)
