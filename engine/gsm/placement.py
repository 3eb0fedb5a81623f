"""Cards on a Game, Set, Match! board: how a placement is read, checked and offered."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import Command, IllegalMove, read_int
from partyhost.engine.gsm.board import (
    BoardMap,
    Cell,
    Clash,
    Slot,
    find_clash,
    has_side_neighbour,
    legal_placements,
)
from partyhost.engine.gsm.deck import Deck

MAX_COORD = 60
"""Slots stay within +-60: far beyond any real board, small enough to refuse junk."""
HINT_LIMIT = 400
"""At most this many legal placements are listed in a view when hints are on."""


@dataclass(frozen=True)
class Placement:
    """A card on a board; ``owner`` is who put it there (``None``: the host)."""

    card: int
    x: int
    y: int
    turned: bool = False
    owner: int | None = None

    @property
    def slot(self) -> Slot:
        return (self.x, self.y)


def board_map(deck: Deck, board: Iterable[Placement]) -> BoardMap:
    table = deck.table
    return {p.slot: table.orientation(p.card, p.turned) for p in board}


def cells_map(deck: Deck, board: Iterable[Placement]) -> dict[Slot, tuple[Cell, ...]]:
    return {p.slot: deck.cells_of(p.card, p.turned) for p in board}


def read_placement(command: Command, rotate: bool) -> Placement:
    """The card, slot and turn a command names, checked for shape only."""
    card, x, y = read_int(command, "card"), read_int(command, "x"), read_int(command, "y")
    turned = command.get("turned", False)
    if not isinstance(turned, bool):
        raise IllegalMove("bad_command", "'turned' must be true or false.")
    if turned and not rotate:
        raise IllegalMove("no_turning", "Turning cards around is off at this table.")
    if abs(x) > MAX_COORD or abs(y) > MAX_COORD:
        raise IllegalMove("off_table", f"Slots go from -{MAX_COORD} to {MAX_COORD}.")
    return Placement(card, x, y, turned)


def clash_text(deck: Deck, clash: Clash) -> str:
    mine, theirs = deck.describe_cell(clash.mine), deck.describe_cell(clash.theirs)
    return f"{mine.capitalize()} would touch {theirs} (same {clash.same})."


def placement_clash(deck: Deck, board: Sequence[Placement], move: Placement) -> str | None:
    """Why ``move`` breaks the rule, or ``None``; a taken or unconnected slot raises IllegalMove."""
    if any(p.slot == move.slot for p in board):
        raise IllegalMove("occupied", f"There is already a card at ({move.x}, {move.y}).")
    placed = cells_map(deck, board)
    if placed and not has_side_neighbour(placed, move.slot):
        raise IllegalMove(
            "not_next_to",
            "A card must share a full side with a card on the table; a corner is not enough.",
        )
    clash = find_clash(
        deck.rows, deck.cols, placed, move.slot, deck.cells_of(move.card, move.turned)
    )
    return None if clash is None else clash_text(deck, clash)


def fits(
    deck: Deck,
    board: Sequence[Placement],
    hand: Iterable[int],
    rotate: bool,
    slots: Iterable[Slot] | None = None,
) -> list[dict[str, Any]]:
    """Every legal placement of ``hand`` cards as command fields, in a stable order."""
    table = deck.table
    found = legal_placements(table, board_map(deck, board), table.hand_mask(hand, rotate), slots)
    return [
        {"card": table.card_of(o), "x": x, "y": y, "turned": table.is_turned(o)}
        for (x, y), o in found
    ]


def place_template(
    deck: Deck,
    board: Sequence[Placement],
    hand: Sequence[int],
    rules: Mapping[str, Any],
    kind: str = "place",
    slots: Iterable[Slot] | None = None,
) -> Command:
    """The legal-command template for putting down a card; with hints, where it fits."""
    template: Command = {
        "type": kind,
        "cards": list(hand),
        "turned": [False, True] if rules["rotate"] else [False],
    }
    if slots is not None:
        slots = list(slots)
        template["slots"] = [[x, y] for x, y in slots]
    if rules["hints"]:
        template["fits"] = fits(deck, board, hand, bool(rules["rotate"]), slots)[:HINT_LIMIT]
    return template


def placement_event_data(move: Placement, seat: int | None) -> dict[str, Any]:
    return {"seat": seat, "card": move.card, "x": move.x, "y": move.y, "turned": move.turned}


def placement_from(data: Mapping[str, Any]) -> Placement:
    return Placement(data["card"], data["x"], data["y"], data["turned"], data["seat"])
