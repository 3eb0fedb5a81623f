"""Gridiron on the wire: its commands and view, for client authors (pure data)."""

from __future__ import annotations

from partyhost.engine.gsm.wire import BOARD, HAND, NOTES, VERSION, bare, placement, table_keys
from partyhost.engine.wire import GameSpec, keys

WIRE = GameSpec(
    game="gridiron",
    notes=NOTES + " `place`, `draw` and `pass` are versioned: their templates carry `v`.",
    commands=(
        placement(
            "place",
            "On your turn, place a card from your hand (offered when one of them fits).",
            {"type": "place", "card": 12, "x": -1, "y": 0, "turned": True, "v": 9},
            VERSION,
        ),
        bare("draw", "On your turn, draw a card (offered when none fits).", VERSION),
        bare("pass", "On your turn, pass (offered when none fits and the pile is empty).", VERSION),
    ),
    view=table_keys(
        BOARD,
        HAND,
        *keys("""
        pile | int | cards left to draw
        turn | int | whose turn it is
        passes | int | passes in a row so far
        scores | array of map | per seat: `{seat, hand, away, left}`
        deadlines | map | empty: Gridiron has no timer
        """),
    ),
)
