"""A Scramble bot: solves its own seven cards, then lays the solution out one move at a time.

A player keeps the same seven all game, so solutions are cached by the whole
input. The table is looked up on :mod:`..bot` so tests can swap its cache.
"""

from __future__ import annotations

from functools import lru_cache

from partyhost.engine.core import Command, View
from partyhost.engine.gsm import bot as shared
from partyhost.engine.gsm.board import Slot
from partyhost.engine.gsm.bot import TABLE_CACHE_SIZE, CardList
from partyhost.engine.gsm.solver import Spot, solve
from partyhost.engine.rng import Rng


@lru_cache(maxsize=TABLE_CACHE_SIZE)
def solution(rows: int, cols: int, cards: CardList, rotate: bool) -> tuple[Spot, ...] | None:
    """An arrangement of all ``cards``, kept: a player's seven stay the same all game."""
    found = solve(shared.cached_table(rows, cols, cards), [card_id for card_id, _ in cards], rotate)
    return None if found is None else tuple(found)


def bot_command(view: View, rng: Rng, now: float) -> Command | None:
    """Solve the own seven cards, then lay out the solution one move at a time."""
    legal = shared.legal_by_type(view)
    if "place" not in legal:
        return None
    mine = view["board"]
    shape = view["shape"]
    rotate = True in legal["place"]["turned"]
    solved = solution(
        shape["rows"], shape["cols"], shared.card_list([*view["hand"], *mine]), rotate
    )
    if solved is None:
        return {"type": "stuck"} if "stuck" in legal else None
    where: dict[int, tuple[Slot, bool]] = {p["id"]: ((p["x"], p["y"]), p["turned"]) for p in mine}
    occupant = {slot: card for card, (slot, _) in where.items()}
    for spot in solved:
        target = ((spot.x, spot.y), spot.turned)
        if where.get(spot.card) == target:
            continue
        blocker = occupant.get(target[0])
        if blocker is not None and blocker != spot.card:
            return {"type": "take_back", "card": blocker}
        return {"type": "place", "card": spot.card, "x": spot.x, "y": spot.y, "turned": spot.turned}
    return {"type": "call_game"}
