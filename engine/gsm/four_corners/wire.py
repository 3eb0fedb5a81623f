"""Four Corners on the wire: its commands and view, for client authors (pure data)."""

from __future__ import annotations

from partyhost.engine.gsm.wire import BOARD, HAND, NOTES, STUCK, pick_card, placement, table_keys
from partyhost.engine.wire import GameSpec, WireField, keys

WIRE = GameSpec(
    game="four-corners",
    notes=NOTES,
    commands=(
        placement(
            "place",
            "Place a card from your hand one slot past either end of your own line.",
            {"type": "place", "card": 12, "x": 1, "y": 0},
            WireField("slots", "array", "the open slots as `[x, y]` pairs: choose one of them"),
        ),
        pick_card("take_back", "Take your outermost card at either end of your line back."),
        STUCK,
    ),
    view=table_keys(
        BOARD,
        HAND,
        *keys("""
        axes | array of map | per seat: `{seat, axis}`, `h`, `v` or nil before fixed
        stuck | array of int | seats that said they are stuck
        scores | array of map | per seat: `{seat, hand, away, left}`
        deadlines | map | `{stall}`: when the stall clock runs out
        """),
    ),
)
