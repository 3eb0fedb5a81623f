"""QR codes drawn as text, for a phone's camera to read off a terminal (the browser door's URL).

Two modules stack in one character cell (cells are twice as tall as wide). The
ink marks the *light* modules, since a terminal draws light text on a dark
background; ``##`` stands in where half blocks cannot be written.
"""

from __future__ import annotations

import segno

QUIET_ZONE = 4
"""Light modules around the code: the QR standard's margin, so the camera finds its edges."""
BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
"""A character for two stacked modules: (top inked, bottom inked)."""
ASCII_INK = "##"
ASCII_BLANK = "  "


def qr_modules(text: str, border: int = QUIET_ZONE) -> list[list[bool]]:
    """The code of ``text`` row by row, True for a dark module, with ``border`` light ones
    around: a full QR code, never a Micro QR (fewer phones read those), at the smallest
    version that holds ``text``, with as much error correction as that version has room for."""
    code = segno.make(text, micro=False)
    return [[bool(module) for module in row] for row in code.matrix_iter(border=border)]


def draw_qr(text: str, *, ascii_only: bool = False, border: int = QUIET_ZONE) -> list[str]:
    """The lines of ``text``'s code: half blocks, or ``##`` with ``ascii_only``."""
    inked = [[not dark for dark in row] for row in qr_modules(text, border)]
    if ascii_only:
        return ["".join(ASCII_INK if ink else ASCII_BLANK for ink in row) for row in inked]
    if len(inked) % 2:
        inked.append([False] * len(inked[0]))  # the last line's lower half: background
    return [
        "".join(BLOCKS[top, bottom] for top, bottom in zip(upper, lower, strict=True))
        for upper, lower in zip(inked[::2], inked[1::2], strict=True)
    ]


def blocks_fit(encoding: str | None) -> bool:
    """Whether text in ``encoding`` can hold the half blocks (UTF-8 can, cp1252 cannot)."""
    try:
        "".join(BLOCKS.values()).encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True
