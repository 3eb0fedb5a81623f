"""What the four variants' bots share: rebuilding cards and boards from a view, and searching them.

A bot sees only its seat's view, and runs the host's own placement search and
solver on it. Building a table's neighbour masks is most of its work and the
same cards come back often, so tables are cached, keyed by the whole input.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from partyhost.engine.core import Command, View
from partyhost.engine.gsm.board import CardTable, Cell, legal_placements
from partyhost.engine.rng import Rng

BOT_DELAYS: dict[str, dict[str, tuple[float, float]]] = {
    "stealing-home": {"easy": (14.0, 24.0), "normal": (9.0, 16.0), "hard": (4.0, 7.0)},
    "scramble": {"easy": (30.0, 45.0), "normal": (20.0, 32.0), "hard": (9.0, 14.0)},
    "four-corners": {"easy": (18.0, 30.0), "normal": (12.0, 20.0), "hard": (5.0, 9.0)},
}
"""Seconds (low, high) a bot waits before each command, by game id and level, in the races
(Gridiron's turns keep the host's pace).

A bot finds a fit at once, so in the races it waits as long as a person takes
to see one: ``easy`` slower than a first game, ``normal`` a newcomer's pace,
``hard`` a practised player's (docs/rules.md has the reasoning).
"""


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


def legal_by_type(view: View) -> dict[str, Command]:
    """The view's legal templates by command type."""
    return {command["type"]: command for command in view["legal"]}


def place_from(
    view: View, template: Command, hand: list[Mapping[str, Any]], rng: Rng
) -> Command | None:
    """A random legal placement of a hand card, searched from the view."""
    shape = view["shape"]
    table = cached_table(shape["rows"], shape["cols"], card_list([*view["board"], *hand]))
    board = {(p["x"], p["y"]): table.orientation(p["id"], p["turned"]) for p in view["board"]}
    mask = table.hand_mask(template["cards"], True in template["turned"])
    slots = [(x, y) for x, y in template["slots"]] if "slots" in template else None
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


def place_else_give_way(view: View, rng: Rng, now: float) -> Command | None:
    """The bot of every variant but Scramble: place a hand card (Stealing Home: claim a
    face-up card) that fits, else draw, pass, say "stuck" or (Stealing Home) "no fit"."""
    legal = legal_by_type(view)
    for kind, cards in (("place", "hand"), ("match", "face_up")):
        move = None if kind not in legal else place_from(view, legal[kind], view[cards], rng)
        if move is not None:
            return move
    for kind in ("draw", "pass", "stuck", "no_fit"):
        if kind in legal:
            return {"type": kind}
    return None
