"""A row of numbered Game, Set, Match! cards (your hand, or Stealing Home's face-up pair),
wrapping when narrow; the number beside a card is the key that selects it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from partyhost.tui.gsm.cards import Cells, Painter
from rich.text import Text
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

LABEL_WIDTH = 1
GAP = 2


def key_label(number: int) -> str:
    """The key that selects card ``number`` (1-based): 1-9, then 0 for the tenth."""
    return str(number % 10) if number <= 10 else " "


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

    def __init__(
        self, painter: Painter, *, turned_mark: str, empty: str = "", id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.painter = painter
        self.turned_mark = turned_mark
        self.empty = empty
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
            piece.append(key_label(card.number), style)
        elif row == 1 and card.turned:
            piece.append(self.turned_mark[:1], "bold yellow")
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
