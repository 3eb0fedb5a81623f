"""A Four Corners bot: places at an end of its line when a card fits; else says "stuck" once."""

from __future__ import annotations

from partyhost.engine.core import Command, View
from partyhost.engine.gsm.bots import legal_by_type, place_from_hand
from partyhost.engine.rng import Rng


def bot_command(view: View, rng: Rng, now: float) -> Command | None:
    """Place a card at an end of its line when one fits; otherwise say "stuck" once."""
    legal = legal_by_type(view)
    move = place_from_hand(view, legal, rng)
    if move is not None:
        return move
    return {"type": "stuck"} if "stuck" in legal else None
