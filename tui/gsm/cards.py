"""Game, Set, Match! cards as terminal text: one tile per cell, on its color, with letters
that tell objects and colors apart without color (all from the view's ``legend``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from partyhost.tui.text import Frame, clean
from rich.cells import cell_len
from rich.text import Text

CELL_WIDTH = 4
Cells = tuple[tuple[tuple[int, int], ...], ...]
"""A card as it lies: rows of (object, color) legend indexes."""
Slot = tuple[int, int]
"""A place on the board: (x, y)."""
Box = tuple[int, int, int, int]
"""Slots from corner to corner: min x, min y, max x, max y (inclusive)."""

TRUE_COLORS = {
    "black": "#303030",
    "red": "#d93a2b",
    "green": "#2f9e44",
    "yellow": "#f0c419",
    "blue": "#2f6bd6",
    "magenta": "#9a4fd0",
    "cyan": "#1fb3c4",
    "white": "#c8c8c8",
    "bright_black": "#767676",
    "bright_red": "#ff6f61",
    "bright_green": "#74d96f",
    "bright_yellow": "#ffe66b",
    "bright_blue": "#72a3ff",
    "bright_magenta": "#d68cff",
    "bright_cyan": "#7fe6f0",
    "bright_white": "#f4f4f4",
}
"""The deck's color names on a true-color screen: Textual's own palette makes red and
magenta alike and blue purple, which a color game cannot have."""
LIGHT_COLORS = frozenset(
    {"yellow", "white", "cyan", "green", "bright_white", "bright_yellow", "bright_cyan"}
    | {"bright_green", "bright_magenta", "bright_red", "bright_blue"}
)
"""Terminal colors light enough to need dark letters on them."""


@dataclass(frozen=True)
class ObjectKey:
    name: str
    letter: str
    glyph: str


@dataclass(frozen=True)
class ColorKey:
    name: str
    letter: str
    term: str


def _one_cell(text: str) -> str:
    """A deck letter as exactly one column ("?" if it is not one)."""
    shown = clean(text)
    return shown if cell_len(shown) == 1 and len(shown) == 1 else "?"


@dataclass(frozen=True)
class Legend:
    """The view's legend, cleaned for the screen."""

    objects: tuple[ObjectKey, ...]
    colors: tuple[ColorKey, ...]

    @classmethod
    def from_view(cls, view: Frame) -> Legend:
        legend = view.get("legend")
        if not isinstance(legend, dict):
            legend = {}
        objects = tuple(
            ObjectKey(clean(o.get("name", "")), _one_cell(str(o.get("letter", ""))), _glyph(o))
            for o in legend.get("objects", [])
            if isinstance(o, dict)
        )
        colors = tuple(
            ColorKey(
                clean(c.get("name", "")),
                _one_cell(str(c.get("letter", ""))),
                str(c.get("term", "white")),
            )
            for c in legend.get("colors", [])
            if isinstance(c, dict)
        )
        return cls(objects, colors)


def _glyph(entry: Frame) -> str:
    """An object's glyph padded to two columns, or "" when it cannot be drawn so."""
    glyph = clean(str(entry.get("glyph", "")))
    width = cell_len(glyph)
    if width == 2:
        return glyph
    return glyph + " " if width == 1 else ""


def read_cells(card: Frame | None) -> Cells:
    """A viewed card's ``cells`` as a tuple grid (malformed entries become (-1, -1))."""
    rows = card.get("cells", []) if isinstance(card, dict) else []
    grid = []
    for row in rows if isinstance(rows, list) else []:
        line = []
        for cell in row if isinstance(row, list) else []:
            ok = isinstance(cell, list | tuple) and len(cell) == 2
            line.append((int(cell[0]), int(cell[1])) if ok else (-1, -1))
        grid.append(tuple(line))
    return tuple(grid)


def turn_cells(cells: Cells) -> Cells:
    """The card turned 180 degrees (a picture of it; the host keeps the rules)."""
    return tuple(tuple(reversed(row)) for row in reversed(cells))


def tile_style(term: str, native: bool = False) -> str:
    """The cell's colour as a background, with letters that stay readable on it (``native``:
    the terminal's own 16 colors)."""
    light = term in LIGHT_COLORS
    if native or term not in TRUE_COLORS:
        return f"bold {'black' if light else 'bright_white'} on {term}"
    return f"bold {'#101010' if light else '#ffffff'} on {TRUE_COLORS[term]}"


ZOOMS = ("tall", "normal", "compact", "dense", "slim", "tight", "mini")
"""Board drawings from the most readable to the smallest; the board takes the first that fits
(:meth:`Painter.tile` draws each)."""
RULED = frozenset({"tall", "normal", "compact", "slim"})
"""Zooms that draw a rule above and below every card (the others only rule the sides)."""
LETTERED = frozenset({"tall", "normal", "compact", "dense"})
"""Zooms that show every cell's color letter (smaller ones leave it to the colors)."""


def card_size(zoom: str, rows: int, cols: int, ascii_only: bool) -> tuple[int, int]:
    """(columns, lines) one card of ``rows`` x ``cols`` cells takes in ``zoom``."""
    if zoom == "tall" and not ascii_only:
        return cols * CELL_WIDTH, rows * 2
    if zoom in ("compact", "dense"):
        return cols * 2, rows
    if zoom in ("slim", "tight"):
        return cols, rows
    if zoom == "mini":
        return cols, rows if ascii_only else -(-rows // 2)
    return cols * CELL_WIDTH, rows


class Painter:
    """Turns cells into tiles for one legend and zoom level (see :data:`ZOOMS`)."""

    def __init__(
        self,
        legend: Legend,
        *,
        ascii_only: bool,
        initials: bool,
        native: bool = False,
        zoom: str = "normal",
    ) -> None:
        self.legend = legend
        self.ascii_only = ascii_only
        self.initials = initials or ascii_only
        self.native = native
        self.zoom = "normal" if zoom == "tall" and ascii_only else zoom
        self.height = 2 if self.zoom == "tall" else 1
        self.width = card_size(self.zoom, 1, 1, ascii_only)[0]

    def tile(
        self, cell: tuple[int, int], line: int = 0, *, ghost: bool = False
    ) -> list[tuple[str, str]]:
        """Line ``line`` of one cell, ``width`` columns wide; a ``ghost`` (a card not placed
        yet) has colored letters on no background."""
        obj, color = cell
        objects, colors = self.legend.objects, self.legend.colors
        if not (0 <= obj < len(objects) and 0 <= color < len(colors)):
            return [("?" * self.width, "reverse")]
        thing, paint = objects[obj], colors[color]
        style = tile_style(paint.term, self.native)
        if ghost:
            ink = paint.term if self.native else TRUE_COLORS.get(paint.term, paint.term)
            style = f"bold {ink}"
        tail = paint.letter if self.initials else " "
        if self.zoom in ("compact", "dense"):
            return [(f"{thing.letter}{tail}", style)]
        if self.zoom in ("slim", "tight", "mini"):
            return [(thing.letter, style)]
        if self.zoom == "tall":
            if line == 0:
                return [(" ", style), (thing.glyph or f"{thing.letter} ", style), (" ", style)]
            return [(f" {thing.letter}{tail} ", style)]
        if self.ascii_only or not thing.glyph:
            return [(f" {thing.letter}{tail} ", style)]
        return [(thing.glyph, style), (f"{thing.letter}{tail}", style)]

    def card_lines(self, cells: Cells, *, ghost: bool = False) -> list[list[tuple[str, str]]]:
        """The card as it is drawn on the board: one list of segments per text line."""
        if self.zoom == "mini" and not self.ascii_only:
            return [
                [self._half_block(top, bottom) for top, bottom in _pairs(cells, start)]
                for start in range(0, len(cells), 2)
            ]
        return [
            [segment for cell in row for segment in self.tile(cell, line, ghost=ghost)]
            for row in cells
            for line in range(self.height)
        ]

    def _half_block(self, top: tuple[int, int], bottom: tuple[int, int] | None) -> tuple[str, str]:
        """Two cells one above the other as one column: the upper half in the top's color."""
        upper = self._paint(top)
        if bottom is None:
            return ("▀", upper)
        return ("▀", f"{upper} on {self._paint(bottom)}")

    def _paint(self, cell: tuple[int, int]) -> str:
        colors = self.legend.colors
        if not 0 <= cell[1] < len(colors):
            return "default"
        term = colors[cell[1]].term
        return term if self.native else TRUE_COLORS.get(term, term)

    def row(self, cells: Sequence[tuple[int, int]], line: int = 0) -> Text:
        """One line of a row of cells."""
        text = Text(no_wrap=True)
        for cell in cells:
            for chunk, style in self.tile(cell, line):
                text.append(chunk, style)
        return text


@lru_cache(maxsize=16)
def painter_for(
    legend: Legend, zoom: str, *, ascii_only: bool, initials: bool, native: bool
) -> Painter:
    """The same :class:`Painter` for the same look, so a board shown again unchanged is not
    drawn again."""
    return Painter(legend, ascii_only=ascii_only, initials=initials, native=native, zoom=zoom)


def _pairs(cells: Cells, start: int) -> list[tuple[tuple[int, int], tuple[int, int] | None]]:
    """Row ``start`` beside the row below it (``None`` below when there is none)."""
    top = cells[start]
    bottom: Sequence[tuple[int, int] | None] = (
        cells[start + 1] if start + 1 < len(cells) else [None] * len(top)
    )
    return list(zip(top, bottom, strict=False))


def legend_text(legend: Legend, painter: Painter, width: int) -> Text:
    """Objects and colors packed to ``width``; names cut to the word their letter stands for
    ("mitt" for "baseball mitt") when full ones would stand one to a line."""
    names = [thing.name for thing in legend.objects]
    short = [key_word(thing.name, thing.letter) for thing in legend.objects]
    widest = max((len(name) for name in names), default=0) + 6
    if 2 * widest > width + 2 and len(set(short)) == len(short):
        names = short
    entries: list[Text] = []
    for thing, name in zip(legend.objects, names, strict=True):
        entry = Text(no_wrap=True)
        if not painter.ascii_only and thing.glyph:
            entry.append(thing.glyph)
        entry.append(thing.letter, "bold")
        entry.append(f" {name}")
        entries.append(entry)
    colors: list[Text] = []
    for paint in legend.colors:
        entry = Text(no_wrap=True)
        entry.append(f" {paint.letter} ", tile_style(paint.term, painter.native))
        entry.append(paint.name)
        colors.append(entry)
    text = Text(no_wrap=True, overflow="ellipsis")
    _pack(text, entries, width, gap=2)
    _pack(text, colors, width, gap=1)
    return text


def key_word(name: str, letter: str) -> str:
    """The word of ``name`` its ``letter`` stands for (the last one it begins), else the first."""
    words = name.split()
    if not words:
        return name
    fitting = [word for word in words if word[:1].casefold() == letter.casefold()]
    return fitting[-1] if fitting else words[0]


def _pack(text: Text, entries: list[Text], width: int, gap: int) -> None:
    """Entries in columns as wide as the widest, as many to a line as fit."""
    if not entries:
        return
    column = max(e.cell_len for e in entries) + gap
    per_line = max(1, (width + gap) // column)
    for number, entry in enumerate(entries):
        if number % per_line == 0:
            if text.plain:
                text.append("\n")
        else:
            text.append(" " * (column - entries[number - 1].cell_len))
        text.append_text(entry)
