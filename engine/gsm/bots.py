"""Bots for the four games, playing from the view a person in their seat gets.

A bot rebuilds the little it needs (card cells, the board) from the view and
runs the same fast placement search and solver the host uses; it never sees a
hand, board or pile its seat could not see. Reaction speed is the host's job:
:data:`BOT_DELAYS` suggests how long a bot of each level waits before acting.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from partyhost.engine.core import Command, View
from partyhost.engine.gsm.board import BoardMap, legal_placements
from partyhost.engine.gsm.solver import solve
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


def _cells(entry: Mapping[str, Any]) -> list[Cell]:
    """A viewed card's cells, unturned (the view shows board cards as they lie)."""
    cells: list[Cell] = [(cell[0], cell[1]) for row in entry["cells"] for cell in row]
    if entry.get("turned"):
        cells.reverse()
    return cells


def _table(view: View, entries: Iterable[Mapping[str, Any]]) -> CardTable:
    known: dict[int, list[Cell]] = {}
    for entry in entries:
        known.setdefault(entry["id"], _cells(entry))
    shape = view["shape"]
    return CardTable(shape["rows"], shape["cols"], sorted(known.items()))


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


def gridiron(view: View, rng: Rng) -> Command | None:
    """Place a card that fits; otherwise draw, or pass when the pile is empty."""
    legal = _legal(view)
    if "place" in legal:
        move = _place_from(view, legal["place"], view["hand"], rng)
        if move is not None:
            return move
    for kind in ("draw", "pass"):
        if kind in legal:
            return {"type": kind}
    return None


def four_corners(view: View, rng: Rng) -> Command | None:
    """Place a card at an end of its line when one fits; otherwise say "stuck" once."""
    legal = _legal(view)
    if "place" in legal:
        move = _place_from(view, legal["place"], view["hand"], rng)
        if move is not None:
            return move
    return {"type": "stuck"} if "stuck" in legal else None


def scramble(view: View, rng: Rng) -> Command | None:
    """Solve the own seven cards, then lay out the solution one move at a time."""
    legal = _legal(view)
    if "place" not in legal:
        return None
    mine = view["board"]
    table = _table(view, [*view["hand"], *mine])
    solution = solve(table, sorted(table.card_ids), True in legal["place"]["turned"])
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
