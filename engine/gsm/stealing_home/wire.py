"""Stealing Home on the wire: its commands and view, for client authors (pure data)."""

from __future__ import annotations

from partyhost.engine.gsm.wire import BOARD, NOTES, bare, placement, table_keys
from partyhost.engine.wire import GameSpec, keys

WIRE = GameSpec(
    game="stealing-home",
    notes=NOTES,
    commands=(
        placement(
            "match",
            'Call "Match!" and place one of the two face-up cards, in one command.',
            {"type": "match", "card": 12, "x": 2, "y": 0, "turned": False},
        ),
        bare("no_fit", "Vote that neither face-up card fits anywhere."),
    ),
    view=table_keys(
        BOARD,
        *keys("""
        face_up | array of map | the two turned cards: `{id, cells}`
        pile | int | cards left to turn
        out_of_play | int | cards out of play
        round | int | the round number
        tiebreak | array of int or nil | the tied seats racing a tiebreaker
        called | array of int | seats whose match call is being settled
        scores | array of map | per seat: `{seat, cards, locked, voted, away, left}`
        deadlines | map | `{round, tie}`: the round clock and the tie window
        """),
    ),
)
