"""The text a terminal shows, rebuilt from what a Textual client wrote to it.

The browser door's page draws its terminal on a canvas, so a test cannot read
the page's text from the DOM; it reads the same bytes the page was sent. Textual
draws by moving the cursor (``ESC [ row ; col H``) and writing styled text, so
following the moves, dropping the styles and placing each character (two cells
for a wide one) is enough to know what is where, and so where a finger taps.
"""

from __future__ import annotations

import re

from rich.cells import cell_len

ESCAPES = re.compile(
    rb"\x1b\[(?P<csi>[0-9;?<=>]*)(?P<final>[@-~])"  # CSI: cursor moves, styles, modes
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: titles, links
    rb"|\x1bP[^\x1b]*\x1b\\"  # DCS
    rb"|\x1b[()][0-9A-Za-z]|\x1b[=>78]"  # charset and keypad choices
)


class TermScreen:
    """A grid of ``columns`` x ``rows`` cells, written by :meth:`feed`."""

    def __init__(self, columns: int, rows: int) -> None:
        self.columns, self.rows = columns, rows
        self.cells = [[" "] * columns for _ in range(rows)]
        self.x = self.y = 0
        self._pending = b""

    def resize(self, columns: int, rows: int) -> None:
        self.columns, self.rows = columns, rows
        self.cells = [[" "] * columns for _ in range(rows)]

    def feed(self, data: bytes) -> None:
        data = self._pending + data
        cut = data.rfind(b"\x1b")
        if cut >= 0 and not ESCAPES.match(data, cut):
            data, self._pending = data[:cut], data[cut:]  # an escape split between chunks
        else:
            self._pending = b""
        position = 0
        for escape in ESCAPES.finditer(data):
            self._write(data[position : escape.start()])
            position = escape.end()
            if escape.group("final") == b"H":
                row, _, column = escape.group("csi").decode().partition(";")
                self.y, self.x = int(row or 1) - 1, int(column or 1) - 1
            elif escape.group("final") == b"J" and escape.group("csi") in (b"2", b"3"):
                self.cells = [[" "] * self.columns for _ in range(self.rows)]
        self._write(data[position:])

    def _write(self, chunk: bytes) -> None:
        for char in chunk.decode("utf-8", errors="replace"):
            if char == "\n":
                self.y += 1
            elif char == "\r":
                self.x = 0
            elif char >= " " and 0 <= self.y < self.rows:
                width = cell_len(char)
                if width == 0 or not 0 <= self.x < self.columns:
                    continue
                self.cells[self.y][self.x] = char
                if width == 2 and self.x + 1 < self.columns:
                    self.cells[self.y][self.x + 1] = ""
                self.x += width

    def lines(self) -> list[str]:
        return ["".join(row) for row in self.cells]

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.lines())

    def find(self, words: str, *, last: bool = True) -> tuple[int, int] | None:
        """The cell (column, row) where ``words`` start on screen (the lowest, or the
        highest with ``last`` False), or None."""
        found = None
        for y, row in enumerate(self.cells):
            line = ""
            starts: list[int] = []
            for column, cell in enumerate(row):
                if cell:
                    starts.append(column)
                    line += cell
            at = line.find(words)
            if at >= 0:
                found = (starts[at], y)
                if not last:
                    return found
        return found
