"""A Gridiron bot: places a card that fits, found from its view; else draws, or passes."""

from __future__ import annotations

from partyhost.engine.core import Command, View
from partyhost.engine.gsm.bots import legal_by_type, place_from_hand
from partyhost.engine.rng import Rng


def bot_command(view: View, rng: Rng, now: float) -> Command | None:
    """Place a card that fits; otherwise draw, or pass when the pile is empty."""
    legal = legal_by_type(view)
    move = place_from_hand(view, legal, rng)
    if move is not None:
        return move
    for kind in ("draw", "pass"):
        if kind in legal:
            return {"type": kind}
    return None
