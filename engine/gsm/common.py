"""What the four Game, Set, Match! games share: options, placements, views, checks.

Each variant is its own :class:`Game` subclass; this module keeps them from
repeating the card/board plumbing: how a placement command is read and
checked, how the legend, cards and board appear in a view, and the options
every variant offers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import SYSTEM_SEAT, Command, Game, IllegalMove, RuleOption
from partyhost.engine.gsm.board import (
    BoardMap,
    Clash,
    find_clash,
    has_side_neighbour,
    legal_placements,
)
from partyhost.engine.gsm.bots import BOT_DELAYS
from partyhost.engine.gsm.cards import Deck
from partyhost.engine.gsm.deckfile import DECK_GAME, build_deck
from partyhost.engine.gsm.table import Cell, Slot

MAX_COORD = 60
"""Slots stay within +-60: far beyond any real board, small enough to refuse junk."""
HINT_LIMIT = 400
"""At most this many legal placements are listed in a view when hints are on."""

ROTATE = RuleOption(
    "rotate", "Turn cards around", "bool", True, help="Cards may be turned 180 degrees."
)
HINTS = RuleOption(
    "hints",
    "Show where cards fit",
    "bool",
    False,
    help="List every legal placement in each player's view (the UI highlights them).",
)


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


def read_int(command: Command, key: str) -> int:
    value = command.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove("bad_command", f"The command needs a whole number {key!r}.")
    return value


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
    """Why ``move`` breaks the rule, or ``None`` if it obeys it.

    A slot that is taken, or a card that would not share a full side with the
    board, is not a placement at all and raises :class:`IllegalMove`.
    """
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


def legend_view(deck: Deck) -> dict[str, Any]:
    return {
        "objects": [{"name": o.name, "letter": o.letter, "glyph": o.glyph} for o in deck.objects],
        "colors": [{"name": c.name, "letter": c.letter, "term": c.term} for c in deck.colors],
    }


def card_view(deck: Deck, card_id: int, turned: bool = False) -> dict[str, Any]:
    """A card as its rows of [object, color] index pairs, as it lies."""
    cells = deck.cells_of(card_id, turned)
    rows = [
        [[obj, color] for obj, color in cells[r * deck.cols : (r + 1) * deck.cols]]
        for r in range(deck.rows)
    ]
    return {"id": card_id, "cells": rows}


def cards_view(deck: Deck, card_ids: Iterable[int]) -> list[dict[str, Any]]:
    return [card_view(deck, card_id) for card_id in card_ids]


def board_view(deck: Deck, board: Iterable[Placement]) -> list[dict[str, Any]]:
    return [
        {
            **card_view(deck, p.card, p.turned),
            "card": p.card,
            "x": p.x,
            "y": p.y,
            "turned": p.turned,
            "owner": p.owner,
        }
        for p in board
    ]


def base_view(game: Game, state: Any, seat: int | None, legal: list[Command]) -> dict[str, Any]:
    """The fields every Game, Set, Match! view starts with."""
    deck: Deck = state.deck
    return {
        "game": game.id,
        "phase": state.phase,
        "you": seat,
        "version": state.version,
        "legal": legal,
        "legend": legend_view(deck),
        "shape": {"rows": deck.rows, "cols": deck.cols},
        "rules": dict(state.rules),
        "winners": list(state.winners),
    }


SYSTEM_COMMANDS = ("seat_joined", "seat_left", "seat_away", "seat_back")


def system_target(command: Command) -> int:
    """The seat a host system command is about; any other type from the host is refused."""
    kind = command.get("type")
    if kind not in SYSTEM_COMMANDS:
        raise IllegalMove("unknown_command", f"Unknown system command {kind!r}.")
    return read_int(command, "seat")


def require_system(seat: int) -> None:
    if seat != SYSTEM_SEAT:
        raise IllegalMove("not_host", "Only the host sends seat changes.")


def placement_event_data(move: Placement, seat: int | None) -> dict[str, Any]:
    return {"seat": seat, "card": move.card, "x": move.x, "y": move.y, "turned": move.turned}


def placement_from(data: Mapping[str, Any]) -> Placement:
    return Placement(data["card"], data["x"], data["y"], data["turned"], data["seat"])


def fewest_cards(hands: Mapping[int, Sequence[int]], seats: Iterable[int]) -> list[int]:
    """The seats holding the fewest cards (ties share the win)."""
    present = list(seats)
    if not present:
        return []
    least = min(len(hands[s]) for s in present)
    return [s for s in present if len(hands[s]) == least]


class GsmGame(Game):
    """What every Game, Set, Match! variant shares: its deck and how it ends."""

    deck_game = DECK_GAME
    default_deck = DECK_GAME

    def build_deck(self, data: Any) -> Deck:
        return build_deck(data)

    def is_over(self, state: Any) -> bool:
        return bool(state.phase == "over")

    def bot_delay(self, level: str) -> tuple[float, float] | None:
        """The real-time variants' reaction time for ``level``, from :data:`~.bots.BOT_DELAYS`."""
        return BOT_DELAYS.get(self.id, {}).get(level)
