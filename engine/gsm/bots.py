"""Bots for the four games, playing from the view a person in their seat gets.

A bot rebuilds the little it needs (card cells, the board) from the view and
runs the same fast placement search and solver the host uses; it never sees a
hand, board or pile its seat could not see. Reaction speed is the host's job:
:data:`BOT_DELAYS` suggests how long a bot of each level waits before acting.

Building the neighbour masks for the cards in view is most of a bot's work,
and the same cards come back often (every seat of a Stealing Home round sees
the same board and face-up cards, a Scramble player keeps their seven), so
tables (and Scramble's solutions) are cached by the cards' ids and cells: the
key is the whole input, so a cached answer can never be stale, and the caches
are bounded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from partyhost.engine.core import Command, View
from partyhost.engine.gsm.board import BoardMap, legal_placements
from partyhost.engine.gsm.solver import Spot, solve
from partyhost.engine.gsm.table import CardTable, Cell, Slot
from partyhost.engine.rng import Rng

BOT_DELAYS: dict[str, dict[str, tuple[float, float]]] = {
    "stealing-home": {"easy": (6.0, 12.0), "normal": (3.0, 6.0), "hard": (1.2, 2.5)},
    "scramble": {"easy": (2.5, 4.0), "normal": (1.2, 2.5), "hard": (0.5, 1.0)},
    "gridiron": {"easy": (2.0, 4.0), "normal": (1.0, 2.0), "hard": (0.5, 1.0)},
    "four-corners": {"easy": (5.0, 9.0), "normal": (2.5, 5.0), "hard": (1.0, 2.0)},
}
"""Seconds (low, high) a bot waits before each command, by game id and level.

Stealing Home and Four Corners are races: a fast bot spots fits far faster
than people, so even "hard" waits a human-like moment. Scramble's delay is per
card moved.
"""


def bot_delay(game_id: str, level: str, rng: Rng) -> float:
    """A reaction delay drawn uniformly from the level's range."""
    low, high = BOT_DELAYS.get(game_id, BOT_DELAYS["gridiron"]).get(level, (1.0, 2.0))
    return low + (high - low) * rng.below(1001) / 1000


TABLE_CACHE_SIZE = 128
"""Tables kept for reuse: a 60-card table is about 50 KiB, so the cache stays a few MiB."""

CardList = tuple[tuple[int, tuple[Cell, ...]], ...]
"""Cards as (id, cells unturned), sorted by id: all a :class:`CardTable` is built from."""


def _cells(entry: Mapping[str, Any]) -> tuple[Cell, ...]:
    """A viewed card's cells, unturned (the view shows board cards as they lie)."""
    cells = tuple([(cell[0], cell[1]) for row in entry["cells"] for cell in row])
    return cells[::-1] if entry.get("turned") else cells


@lru_cache(maxsize=TABLE_CACHE_SIZE)
def cached_table(rows: int, cols: int, cards: CardList) -> CardTable:
    """The table of ``cards``, shared by every bot that sees the same cards: read it only."""
    return CardTable(rows, cols, cards)


def card_list(entries: Iterable[Mapping[str, Any]]) -> CardList:
    """The cards of viewed entries (the first entry of an id counts), sorted by id."""
    known: dict[int, tuple[Cell, ...]] = {}
    for entry in entries:
        known.setdefault(entry["id"], _cells(entry))
    return tuple(sorted(known.items()))


@lru_cache(maxsize=TABLE_CACHE_SIZE)
def _solution(rows: int, cols: int, cards: CardList, rotate: bool) -> tuple[Spot, ...] | None:
    """An arrangement of all ``cards`` (Scramble), kept: a player's seven stay the same all game."""
    found = solve(cached_table(rows, cols, cards), [card_id for card_id, _ in cards], rotate)
    return None if found is None else tuple(found)


def _table(view: View, entries: Iterable[Mapping[str, Any]]) -> CardTable:
    shape = view["shape"]
    return cached_table(shape["rows"], shape["cols"], card_list(entries))


def _board(table: CardTable, board: Iterable[Mapping[str, Any]]) -> BoardMap:
    return {(p["x"], p["y"]): table.orientation(p["id"], p["turned"]) for p in board}


def _legal(view: View) -> dict[str, Command]:
    return {command["type"]: command for command in view["legal"]}


def _place_from(
    view: View, template: Command, hand: list[Mapping[str, Any]], rng: Rng
) -> Command | None:
    """A random legal placement of a hand card, searched from the view."""
    table = _table(view, [*view["board"], *hand])
    board = _board(table, view["board"])
    mask = table.hand_mask(template["cards"], True in template["turned"])
    slots: list[Slot] | None = None
    if "slots" in template:
        slots = [(x, y) for x, y in template["slots"]]
    found = legal_placements(table, board, mask, slots)
    if not found:
        return None
    (x, y), o = rng.choice(found)
    return {
        "type": template["type"],
        "card": table.card_of(o),
        "x": x,
        "y": y,
        "turned": table.is_turned(o),
    }


def stealing_home(view: View, rng: Rng) -> Command | None:
    """Claim a fit of one of the face-up cards, else say "no fit" once."""
    legal = _legal(view)
    if "match" in legal:
        claim = _place_from(view, legal["match"], view["face_up"], rng)
        if claim is not None:
            return claim
    if "no_fit" in legal:
        return {"type": "no_fit"}
    return None


def _place_from_hand(view: View, legal: Mapping[str, Command], rng: Rng) -> Command | None:
    """A random legal placement of a card in hand, if placing is legal and one fits."""
    if "place" not in legal:
        return None
    return _place_from(view, legal["place"], view["hand"], rng)


def gridiron(view: View, rng: Rng) -> Command | None:
    """Place a card that fits; otherwise draw, or pass when the pile is empty."""
    legal = _legal(view)
    move = _place_from_hand(view, legal, rng)
    if move is not None:
        return move
    for kind in ("draw", "pass"):
        if kind in legal:
            return {"type": kind}
    return None


def four_corners(view: View, rng: Rng) -> Command | None:
    """Place a card at an end of its line when one fits; otherwise say "stuck" once."""
    legal = _legal(view)
    move = _place_from_hand(view, legal, rng)
    if move is not None:
        return move
    return {"type": "stuck"} if "stuck" in legal else None


def scramble(view: View, rng: Rng) -> Command | None:
    """Solve the own seven cards, then lay out the solution one move at a time."""
    legal = _legal(view)
    if "place" not in legal:
        return None
    mine = view["board"]
    shape = view["shape"]
    rotate = True in legal["place"]["turned"]
    solution = _solution(shape["rows"], shape["cols"], card_list([*view["hand"], *mine]), rotate)
    if solution is None:
        return {"type": "stuck"} if "stuck" in legal else None
    where: dict[int, tuple[Slot, bool]] = {p["id"]: ((p["x"], p["y"]), p["turned"]) for p in mine}
    occupant = {slot: card for card, (slot, _) in where.items()}
    for spot in solution:
        target = ((spot.x, spot.y), spot.turned)
        if where.get(spot.card) == target:
            continue
        blocker = occupant.get(target[0])
        if blocker is not None and blocker != spot.card:
            return {"type": "take_back", "card": blocker}
        return {"type": "place", "card": spot.card, "x": spot.x, "y": spot.y, "turned": spot.turned}
    return {"type": "call_game"}
