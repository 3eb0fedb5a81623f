"""Stealing Home on the wire: its commands and view, for client authors (pure data)."""

from __future__ import annotations

from partyhost.engine.gsm.wire import BOARD, LAST, NOTES, SCORES, VIEW, bare, placement
from partyhost.engine.wire import GameSpec, WireField

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
    view=(
        *VIEW,
        BOARD,
        WireField("face_up", "array of map", "the two turned cards: `{id, cells}`"),
        WireField("pile", "int", "cards left to turn"),
        WireField("out_of_play", "int", "cards out of play"),
        WireField("round", "int", "the round number"),
        WireField("tiebreak", "array of int or nil", "the tied seats racing a tiebreaker"),
        WireField("called", "array of int", "seats whose match call is being settled"),
        WireField("scores", SCORES, "per seat: `{seat, cards, locked, voted, away, left}`"),
        WireField("deadlines", "map", "`{round, tie}`: the round clock and the tie window"),
        LAST,
    ),
)
