"""Text typed by one player and shown to the others: safe for their terminals.

Chat, names and a game's free text are cleaned alike: escape sequences, control
and bidirectional characters go; markup such as ``[red]`` stays, so clients
must show player text literally.
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
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_LINE_BREAKS = str.maketrans(dict.fromkeys("\t\n\r\v\f\u2028\u2029\x85", " "))
_SPACES = re.compile(r"\s+")

DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt, Unicode 15):
characters a terminal draws as nothing, Hangul fillers and tag characters included."""
BLANKS = frozenset("\u2800\U0001d159")
"""Characters that are drawn, but as empty space (a blank Braille pattern, the musical
null notehead)."""


def strip_controls(text: str) -> str:
    """``text`` without escapes, control or bidi characters; whitespace controls become spaces."""
    text = _ESCAPES.sub("", text).translate(_LINE_BREAKS)
    return "".join(
        char
        for char in text
        if unicodedata.category(char) not in ("Cc", "Cs") and char not in BIDI_CONTROLS
    )


def clean_text(raw: str, max_length: int) -> str:
    """Controls stripped, runs of whitespace collapsed, ends trimmed, length capped."""
    text = _SPACES.sub(" ", strip_controls(raw)).strip()
    return text[:max_length].rstrip()


def is_invisible(char: str) -> bool:
    """A format character (Cf) or a default-ignorable one: drawn as nothing at all."""
    if unicodedata.category(char) == "Cf":
        return True
    point = ord(char)
    return any(low <= point <= high for low, high in DEFAULT_IGNORABLE)


def strip_invisible(text: str) -> str:
    """``text`` without invisible characters; blank-looking ones become plain spaces."""
    return "".join(
        " " if char in BLANKS else char for char in text if char.isascii() or not is_invisible(char)
    )


def looks_blank(text: str) -> bool:
    """True when nothing in ``text`` would show: only spaces, marks or invisible characters."""
    return not any(
        unicodedata.category(char)[0] in "LNPS" and char not in BLANKS and not is_invisible(char)
        for char in text
    )
