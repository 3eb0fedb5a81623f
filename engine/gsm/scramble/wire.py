"""Scramble on the wire: its commands and view, for client authors (pure data)."""

from __future__ import annotations

from partyhost.engine.gsm.wire import HAND, NOTES, STUCK, bare, pick_card, placement, table_keys
from partyhost.engine.wire import GameSpec, keys

WIRE = GameSpec(
    game="scramble",
    notes=NOTES,
    commands=(
        placement(
            "place",
            "Put a card from your hand, or one already on your board, in a free slot of your"
            " own board (the same slot with another `turned` turns it).",
            {"type": "place", "card": 12, "x": 0, "y": 1},
        ),
        pick_card("take_back", "Take a card from your board back into your hand."),
        pick_card("turn", "Turn a card on your board 180 degrees."),
        bare("call_game", "Say your board is done (offered once your hand is empty)."),
        STUCK,
    ),
    view=table_keys(
        HAND,
        *keys("""
        board | array of map | your own board (boards are private), as `board`
        game_number | int | the game of the match being played
        stuck | array of int | seats that said they are stuck
        wins_needed | int | games to win the match
        scores | array of map | per seat: `{seat, placed, hand, wins, away, left}`
        deadlines | map | empty: Scramble has no timer
        """),
    ),
)
