"""Reading a QR code drawn as text back into its modules, by the rule the drawing claims.

Two stacked modules a half block, or one module a ``##`` pair; ink marks the light
modules. What comes back is compared with segno's own matrix of the same text.
"""

from __future__ import annotations

import segno
from partyhost.net.qrdrawing import ASCII_BLANK, ASCII_INK, BLOCKS

HALVES = {char: halves for halves, char in BLOCKS.items()}


def segno_modules(text: str, border: int) -> list[list[bool]]:
    """segno's matrix of ``text``, True for dark, as a phone's camera would see it."""
    code = segno.make(text, micro=False)
    return [[bool(module) for module in row] for row in code.matrix_iter(border=border)]


def decode_blocks(lines: list[str], size: int) -> list[list[bool]]:
    """The dark modules of a half-block drawing of ``size`` rows (a last odd line's lower
    half is not the code's)."""
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [HALVES[char] for char in line]
        rows.append([not top for top, _ in pairs])
        rows.append([not bottom for _, bottom in pairs])
    return rows[:size]


def decode_ascii(lines: list[str]) -> list[list[bool]]:
    """The dark modules of an ASCII drawing: each ``##`` light, each blank pair dark."""
    rows = []
    for line in lines:
        cells = [line[i : i + 2] for i in range(0, len(line), 2)]
        assert set(cells) <= {ASCII_INK, ASCII_BLANK}, line
        rows.append([cell == ASCII_BLANK for cell in cells])
    return rows
