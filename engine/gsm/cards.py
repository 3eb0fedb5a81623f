"""The card model of Game, Set, Match!: a rectangle of cells, each one object in one color.

Cards are stored unturned, cells row-major: a 180-degree turn reverses that order.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from partyhost.engine.gsm.masks import CardTable, Cell


@dataclass(frozen=True)
class SportsObject:
    """One kind of sports gear, readable without color vision through its letter."""

    name: str
    letter: str
    glyph: str


@dataclass(frozen=True)
class Color:
    """One card color; ``term`` is the terminal color the UI paints it with."""

    name: str
    letter: str
    term: str


@dataclass(frozen=True)
class Card:
    """A card's cells, unturned and row-major; ``id`` is its place in the deck."""

    id: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Deck:
    """A validated deck: shape, legend and cards (ids are 0..n-1 in file order)."""

    name: str
    rows: int
    cols: int
    objects: tuple[SportsObject, ...]
    colors: tuple[Color, ...]
    cards: tuple[Card, ...]

    @cached_property
    def table(self) -> CardTable:
        """Neighbour masks for every card, built once per deck."""
        return CardTable(self.rows, self.cols, [(card.id, card.cells) for card in self.cards])

    @cached_property
    def cell_rows(self) -> tuple[list[list[list[int]]], ...]:
        """Every card as views show it, by ``2 * id + turned``; built once, shared, read-only."""
        cols = self.cols
        return tuple(
            [[list(cell) for cell in cells[r * cols : (r + 1) * cols]] for r in range(self.rows)]
            for card in self.cards
            for cells in (card.cells, card.cells[::-1])
        )

    def cells_of(self, card_id: int, turned: bool = False) -> tuple[Cell, ...]:
        """The cells as they lie: a 180-degree turn reverses the row-major order."""
        cells = self.cards[card_id].cells
        return cells[::-1] if turned else cells

    def describe_cell(self, cell: Cell) -> str:
        """``the red golf ball``: how error messages name a cell."""
        return f"the {self.colors[cell[1]].name} {self.objects[cell[0]].name}"
