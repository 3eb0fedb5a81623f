"""The Game, Set, Match! board: card slots sharing their borders, so touching cards read as
one grid; owners' colors outline the cards, a heavy yellow one the cursor. Below it a row of
numbered cards (your hand, or Stealing Home's face-up pair), wrapping when narrow; the number
beside a card is the key that selects it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from partyhost.tui.gsm.cards import CELL_WIDTH, Box, Cells, Painter, Slot
from rich.cells import cell_len
from rich.text import Text
from textual.events import Click
from textual.geometry import Region, Size
from textual.message import Message
from textual.widget import Widget

JOINS = ("rd", "ld", "ru", "lu", "udr", "udl", "lrd", "lru", "udlr")
"""Where a rule crossing leads (left, right, up, down), for the box-drawing corner there."""
LIGHT = dict(zip(map(frozenset, JOINS), "╭╮╰╯├┤┬┴┼", strict=True))
HEAVY = dict(zip(map(frozenset, JOINS), "┏┓┗┛┣┫┳┻╋", strict=True))
STRAIGHT = {(False, False): "│─", (False, True): "┃━", (True, False): "|-", (True, True): "#="}
"""The vertical and the horizontal rule by (``--ascii``, heavy)."""
MARKS = {"fit": ("✓", "+"), "turn": ("↻", "~"), "open": ("○", "o"), "empty": ("·", ".")}
MARK_STYLES = {"fit": "bold green", "turn": "bold yellow", "open": "bold cyan", "empty": "dim"}
CURSOR = 9
"""Edge priority of the cursor outline (the highest: it is drawn over everything)."""
LABEL_WIDTH = 1
"""Columns of a hand card's key, left of it."""
GAP = 2
"""Columns between two cards of the hand."""


@dataclass(frozen=True)
class BoardCard:
    """A card on the table, as it lies; ``style`` colors its outline (its owner)."""

    x: int
    y: int
    cells: Cells
    style: str = "bright_black"


@dataclass(frozen=True)
class BoardPicture:
    """Everything the board draws, decided by the screen from the view."""

    rows: int
    cols: int
    cards: tuple[BoardCard, ...] = ()
    region: Box = (-1, -1, 1, 1)
    """Slots shown."""
    cursor: Slot | None = None
    preview: Cells | None = None
    """The selected card, drawn at the cursor when that slot is empty."""
    marks: tuple[tuple[Slot, str], ...] = ()
    last: Slot | None = None
    """The card placed last, outlined brighter."""
    card_columns: int | None = None
    """Columns a card's cells take (``None``: :data:`CELL_WIDTH` a cell)."""
    card_lines: int | None = None
    """Lines a card's cells take (``None``: one a row)."""
    ruled: bool = True
    """Rules above and below every slot (the smaller drawings rule only the sides)."""
    dots: bool = True
    """A dot in every empty slot (where a card could go); off for a finished board."""

    @property
    def card_width(self) -> int:
        return self.cols * CELL_WIDTH if self.card_columns is None else self.card_columns

    @property
    def card_height(self) -> int:
        return self.rows if self.card_lines is None else self.card_lines

    @property
    def rule(self) -> int:
        """Lines a rule between two rows of slots takes (1 or 0)."""
        return 1 if self.ruled else 0

    @property
    def slot_width(self) -> int:
        return self.card_width + 1

    @property
    def slot_height(self) -> int:
        return self.card_height + self.rule

    def size(self) -> Size:
        min_x, min_y, max_x, max_y = self.region
        return Size(
            (max_x - min_x + 1) * self.slot_width + 1,
            (max_y - min_y + 1) * self.slot_height + self.rule,
        )

    def slot_at(self, column: int, line: int) -> Slot:
        """The slot under a point of the drawing (borders count to the right/below)."""
        return (
            self.region[0] + column // self.slot_width,
            self.region[1] + line // self.slot_height,
        )

    def slot_region(self, slot: Slot) -> Region:
        x = (slot[0] - self.region[0]) * self.slot_width
        y = (slot[1] - self.region[1]) * self.slot_height
        return Region(x, y, self.slot_width + 1, self.slot_height + self.rule)


class Canvas:
    """A grid of (character, style); a wide glyph leaves an empty string after it."""

    def __init__(self, size: Size) -> None:
        self.width, self.height = size
        self.cells: list[list[tuple[str, str]]] = [
            [(" ", "")] * self.width for _ in range(self.height)
        ]

    def put(self, x: int, y: int, char: str, style: str) -> None:
        if 0 <= y < self.height and 0 <= x < self.width:
            self.cells[y][x] = (char, style)

    def text(self) -> Text:
        text = Text(no_wrap=True, overflow="crop")
        for number, row in enumerate(self.cells):
            if number:
                text.append("\n")
            run, run_style = "", ""
            for char, style in row:
                if style != run_style:
                    text.append(run, run_style)
                    run, run_style = "", style
                run += char
            text.append(run, run_style)
        return text


def draw_board(picture: BoardPicture, painter: Painter) -> Text:
    """The whole table as text (see the module docstring for what is drawn)."""
    ascii_only = painter.ascii_only
    canvas = Canvas(picture.size())
    sw, sh = picture.slot_width, picture.slot_height
    min_x, min_y = picture.region[0], picture.region[1]
    h_edges: dict[tuple[int, int], tuple[int, str]] = {}
    v_edges: dict[tuple[int, int], tuple[int, str]] = {}

    def outline(slot: Slot, priority: int, style: str) -> None:
        i, j = slot[0] - min_x, slot[1] - min_y
        sides = ((h_edges, (i, j)), (h_edges, (i, j + 1)), (v_edges, (i, j)), (v_edges, (i + 1, j)))
        for store, key in sides:
            if store.get(key, (-1, ""))[0] < priority:
                store[key] = (priority, style)

    occupied = {(card.x, card.y): card for card in picture.cards}
    marks = dict(picture.marks)
    for slot, kind in marks.items():
        if slot not in occupied:
            outline(slot, 1, MARK_STYLES.get(kind, ""))
    for card in picture.cards:
        outline((card.x, card.y), 2, card.style)
    if picture.last in occupied:
        outline(picture.last, 3, "bold bright_white")
    cursor = picture.cursor
    if cursor is not None:
        outline(cursor, CURSOR, "bold yellow")

    for card in picture.cards:
        _fill(canvas, picture, painter, (card.x, card.y), card.cells, ghost=False)
    for y in range(picture.region[1], picture.region[3] + 1):
        for x in range(min_x, picture.region[2] + 1):
            if (x, y) in occupied:
                continue
            if (x, y) == cursor and picture.preview is not None:
                _fill(canvas, picture, painter, (x, y), picture.preview, ghost=True)
                continue
            kind = marks.get((x, y), "empty")
            if kind == "empty" and not picture.dots:
                continue
            char = MARKS.get(kind, MARKS["empty"])[1 if ascii_only else 0]
            style = "bold yellow" if (x, y) == cursor else MARK_STYLES.get(kind, "dim")
            left = (x - min_x) * sw + 1 + (picture.card_width - 1) // 2
            top = (y - min_y) * sh + picture.rule + (picture.card_height - 1) // 2
            canvas.put(left, top, char, style)

    _draw_edges(canvas, picture, h_edges, v_edges, ascii_only)
    return canvas.text()


def _fill(
    canvas: Canvas, picture: BoardPicture, painter: Painter, slot: Slot, cells: Cells, ghost: bool
) -> None:
    left = (slot[0] - picture.region[0]) * picture.slot_width + 1
    top = (slot[1] - picture.region[1]) * picture.slot_height + picture.rule
    shaped = tuple(row[: picture.cols] for row in cells[: picture.rows])
    lines = painter.card_lines(shaped, ghost=ghost)
    for number, segments in enumerate(lines[: picture.card_height]):
        x = left
        for chunk, style in segments:
            for char in _columns(chunk):
                if x < left + picture.card_width:
                    canvas.put(x, top + number, char, style)
                x += 1


def _columns(chunk: str) -> list[str]:
    """A chunk split into terminal columns (a two-column glyph is followed by "")."""
    found: list[str] = []
    for char in chunk:
        found.append(char)
        if cell_len(char) == 2:
            found.append("")
    return found


def _draw_edges(
    canvas: Canvas,
    picture: BoardPicture,
    h_edges: Mapping[tuple[int, int], tuple[int, str]],
    v_edges: Mapping[tuple[int, int], tuple[int, str]],
    ascii_only: bool,
) -> None:
    sw, sh = picture.slot_width, picture.slot_height
    for (i, j), (priority, style) in v_edges.items():
        for dy in range(picture.rule, sh):
            canvas.put(i * sw, j * sh + dy, STRAIGHT[ascii_only, priority >= CURSOR][0], style)
    if not picture.ruled:
        return
    for (i, j), (priority, style) in h_edges.items():
        for dx in range(1, sw):
            canvas.put(i * sw + dx, j * sh, STRAIGHT[ascii_only, priority >= CURSOR][1], style)
    points = {(i, j) for i, j in h_edges} | {(i + 1, j) for i, j in h_edges}
    points |= {(i, j) for i, j in v_edges} | {(i, j + 1) for i, j in v_edges}
    for gx, gy in points:
        around = {
            "l": h_edges.get((gx - 1, gy)),
            "r": h_edges.get((gx, gy)),
            "u": v_edges.get((gx, gy - 1)),
            "d": v_edges.get((gx, gy)),
        }
        present = {k: v for k, v in around.items() if v is not None}
        priority, style = max(present.values())
        dirs, heavy = frozenset(present), priority >= CURSOR
        if ascii_only:
            char = "#" if heavy else "+"
        else:
            straight = STRAIGHT[False, heavy][1 if dirs <= {"l", "r"} else 0]
            char = (HEAVY if heavy else LIGHT).get(dirs) or straight
        canvas.put(gx * sw, gy * sh, char, style)


class BoardView(Widget):
    """Draws a :class:`BoardPicture`; a click posts :class:`SlotClicked`."""

    DEFAULT_CSS = """
    BoardView { width: auto; height: auto; }
    """

    class SlotClicked(Message):
        def __init__(self, slot: Slot) -> None:
            super().__init__()
            self.slot = slot

    class Resized(Message):
        """The board took its new size (cards came on a side): the cursor may be out of sight."""

    def on_resize(self) -> None:
        self.post_message(self.Resized())

    def __init__(self, painter: Painter, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.painter = painter
        self.picture = BoardPicture(2, 2)

    def show(self, picture: BoardPicture, painter: Painter) -> None:
        if picture != self.picture or painter is not self.painter:
            self.picture, self.painter = picture, painter
            self.refresh(layout=True)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.picture.size().width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.picture.size().height

    def render(self) -> Text:
        return draw_board(self.picture, self.painter)

    def cursor_region(self) -> Region | None:
        """Where the cursor slot is, relative to the scrolling container's content."""
        cursor = self.picture.cursor
        if cursor is None:
            return None
        return self.picture.slot_region(cursor).translate(self.virtual_region.offset)

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None:
            event.stop()
            self.post_message(self.SlotClicked(self.picture.slot_at(offset.x, offset.y)))


@dataclass(frozen=True)
class RackCard:
    """One card in the row, as the screen decided to show it."""

    number: int
    cells: Cells
    selected: bool = False
    turned: bool = False


class HandRack(Widget):
    """Numbered cards in rows; ``show`` replaces them, a click posts :class:`Chosen`."""

    DEFAULT_CSS = """
    HandRack { height: auto; width: 1fr; padding: 0 1; }
    """

    class Chosen(Message):
        """Card ``number`` (1-based) was clicked."""

        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def __init__(self, painter: Painter, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.painter = painter
        self.empty = ""
        self.cards: tuple[RackCard, ...] = ()

    def show(self, cards: Sequence[RackCard], painter: Painter, empty: str = "") -> None:
        cards = tuple(cards)
        if (cards, painter, empty) != (self.cards, self.painter, self.empty):
            self.cards, self.painter, self.empty = cards, painter, empty
            self.refresh(layout=True)

    def _shape(self) -> tuple[int, int]:
        """(text lines, card columns) of the cards shown."""
        first = self.cards[0].cells if self.cards else ()
        return len(first) * self.painter.height, max((len(row) for row in first), default=0)

    def _item_width(self) -> int:
        return LABEL_WIDTH + self._shape()[1] * self.painter.width + GAP

    def _per_line(self, width: int) -> int:
        return max(1, (width + GAP) // max(1, self._item_width()))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.height_at(self.painter.height, width)

    def height_at(self, lines_per_cell: int, width: int | None = None) -> int:
        """The lines the cards take with cells ``lines_per_cell`` high, ``width`` wide."""
        if not self.cards:
            return 1
        rows = self._shape()[0] // self.painter.height * lines_per_cell
        per_line = self._per_line(self.size.width if width is None else width)
        lines = -(-len(self.cards) // per_line)
        return lines * rows + lines - 1

    def render(self) -> Text:
        if not self.cards:
            return Text(self.empty, "dim italic")
        rows = self._shape()[0]
        per_line = self._per_line(self.size.width)
        text = Text(no_wrap=True, overflow="crop")
        for start in range(0, len(self.cards), per_line):
            if start:
                text.append("\n\n")
            group = self.cards[start : start + per_line]
            for row in range(rows):
                if row:
                    text.append("\n")
                for index, card in enumerate(group):
                    if index:
                        text.append(" " * GAP)
                    text.append_text(self._piece(card, row))
        return text

    def _piece(self, card: RackCard, row: int) -> Text:
        piece = Text(no_wrap=True)
        if row == 0:
            style = "bold reverse yellow" if card.selected else "bold"
            key = str(card.number % 10) if card.number <= 10 else " "  # 1-9, then 0 the tenth
            piece.append(key, style)
        elif row == 1 and card.turned:
            piece.append("~" if self.painter.ascii_only else "↻", "bold yellow")
        else:
            piece.append(" " * LABEL_WIDTH)
        cell_row, line = divmod(row, self.painter.height)
        cells = card.cells[cell_row] if cell_row < len(card.cells) else ()
        piece.append_text(self.painter.row(cells, line))
        return piece

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.cards:
            return
        rows = self._shape()[0]
        per_line = self._per_line(self.size.width)
        line, inside = divmod(offset.y, rows + 1)
        if inside >= rows:
            return
        column = offset.x // self._item_width()
        if column >= per_line:
            return
        index = line * per_line + column
        if index < len(self.cards):
            event.stop()
            self.post_message(self.Chosen(self.cards[index].number))
