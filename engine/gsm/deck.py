"""The card model of Game, Set, Match!, and a deck file validated into it, every problem at once.

A card is a rectangle of cells, each one object in one color, stored unturned and row-major
(a 180-degree turn reverses that order). In a deck file it is one line of text
(``Gr Tb / Hg Sw``: rows split by ``/``, each cell an object letter then a color letter),
so a problem points at the card's own line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from partyhost.engine.deckcheck import TERM_COLORS, DeckReader
from partyhost.engine.gsm.board import CardTable, Cell

DECK_GAME = "game-set-match"
MIN_CARDS = 21
"""Enough for two players of every variant (Four Corners deals 10 each plus one)."""
MAX_CARDS = 600
MAX_SIDE = 4


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


LEGEND: dict[str, tuple[Callable[[str, str, str], Any], str, str, str, str, int]] = {
    "objects": (SportsObject, "object", "an object", "glyph", "the object's glyph", 4),
    "colors": (Color, "color", "a color", "term", "the terminal color", 20),
}
"""Per legend list: its class, what an entry is, its third field, what that is, its longest."""


def _legend(reader: DeckReader, root: dict[str, Any], key: str) -> list[Any]:
    """One legend list, with its names and letters each used once."""
    kind, what, an_entry, third, third_what, third_length = LEGEND[key]
    found = []
    items = reader.listing(root.get(key), (key,), key, minimum=2, maximum=26)
    for _, path, entry in reader.entries(items, key, an_entry, ("name", "letter", third)):
        name = reader.text(
            entry.get("name", ""), (*path, "name"), f"the {what}'s name", max_length=40
        )
        letter_what = f"the {what}'s letter"
        letter = reader.text(entry.get("letter", ""), (*path, "letter"), letter_what, max_length=1)
        if letter and (letter.isspace() or letter in "/#"):
            reader.problem((*path, "letter"), f"{letter_what} cannot be a space, '/' or '#'")
        extra = reader.text(
            entry.get(third, ""), (*path, third), third_what, max_length=third_length
        )
        if third == "term" and extra and extra not in TERM_COLORS:
            reader.problem(
                (*path, "term"),
                f"unknown terminal color {extra!r}; use one of: {', '.join(sorted(TERM_COLORS))}",
            )
        found.append(kind(name, letter, extra))
    names = {index: item.name for index, item in enumerate(found)}
    reader.unique(
        names,
        lambda index, first: (
            (key, index),
            f"{what} name repeats entry {first + 1}: {names[index]!r}",
        ),
    )
    letters = [item.letter for item in found]
    for i, letter in enumerate(letters):
        if letter and letters.index(letter) != i:
            reader.problem(
                (key, i, "letter"),
                f"letter {letter!r} is already used by {what} {letters.index(letter) + 1}",
            )
    return found


def _shape(reader: DeckReader, root: dict[str, Any]) -> tuple[int, int]:
    shape = reader.mapping(root.get("shape"), ("shape",), "the card shape, e.g. {rows: 2, cols: 2}")
    if shape is None:
        return 2, 2
    reader.keys(shape, ("shape",), required=("rows", "cols"), optional=())
    rows, cols = (
        reader.integer(shape.get(side, 2), ("shape", side), side, minimum=1, maximum=MAX_SIDE)
        for side in ("rows", "cols")
    )
    return max(rows, 1), max(cols, 1)


def parse_card(
    text: str, rows: int, cols: int, objects: dict[str, int], colors: dict[str, int]
) -> tuple[tuple[Cell, ...], list[str]]:
    """The cells of one card written as ``Gr Tb / Hg Sw``, and what is wrong with it."""
    problems: list[str] = []
    lines = [line.split() for line in text.split("/")]
    if len(lines) != rows or any(len(line) != cols for line in lines):
        shown = " x ".join(str(len(line)) for line in lines)
        problems.append(
            f"card {text!r} must have {rows} row(s) of {cols} cell(s) separated by '/', has {shown}"
        )
        return (), problems
    cells: list[Cell] = []
    for code in (code for line in lines for code in line):
        if len(code) != 2:
            problems.append(f"cell {code!r}: write an object letter then a color letter, like 'Gr'")
            continue
        for what, letter, known in (("object", code[0], objects), ("color", code[1], colors)):
            if letter not in known:
                problems.append(
                    f"cell {code!r}: unknown {what} letter {letter!r}; "
                    f"expected one of {', '.join(known)}"
                )
        if code[0] in objects and code[1] in colors:
            cells.append((objects[code[0]], colors[code[1]]))
    if len(cells) == rows * cols:
        for article, what, index in (("an", "object", 0), ("a", "color", 1)):
            if len({cell[index] for cell in cells}) != len(cells):
                problems.append(
                    f"card {text!r} shows {article} {what} twice;"
                    f" every {what} on a card must differ"
                )
    return tuple(cells), problems


def build_deck(data: Any) -> Deck:
    """Validate parsed deck data; raise DeckInvalid listing every problem with its path."""
    reader = DeckReader()
    root = reader.header(data, DECK_GAME, ("shape", "objects", "colors", "cards"))
    rows, cols = _shape(reader, root)
    objects, colors = _legend(reader, root, "objects"), _legend(reader, root, "colors")
    for what, items in (("objects", objects), ("colors", colors)):
        if rows * cols > len(items):
            reader.problem(
                ("shape",),
                f"a card of {rows} x {cols} cells needs at least {rows * cols} {what}, "
                f"the deck has {len(items)}",
            )
    object_letters = {o.letter: i for i, o in enumerate(objects)}
    color_letters = {c.letter: i for i, c in enumerate(colors)}
    cards: list[Card] = []
    seen: dict[tuple[Cell, ...], int] = {}
    entries = reader.listing(
        root.get("cards"), ("cards",), "cards", minimum=MIN_CARDS, maximum=MAX_CARDS
    )
    for i, item in enumerate(entries):
        text = reader.text(item, ("cards", i), "a card", max_length=200)
        if not text:
            continue
        cells, problems = parse_card(text, rows, cols, object_letters, color_letters)
        for problem in problems:
            reader.problem(("cards", i), problem)
        if problems:
            continue
        twin = seen.get(cells, seen.get(tuple(reversed(cells))))
        if twin is not None:
            reader.problem(
                ("cards", i), f"card {text!r} repeats card {twin + 1} (perhaps turned around)"
            )
            continue
        seen[cells] = i
        cards.append(Card(len(cards), cells))
    reader.raise_if_any()
    name = str(root["name"])
    return Deck(name, rows, cols, tuple(objects), tuple(colors), tuple(cards))
