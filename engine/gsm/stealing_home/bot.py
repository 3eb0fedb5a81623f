"""A Stealing Home bot: claims a fit it finds from its view, else says "no fit" once."""

from __future__ import annotations

from partyhost.engine.core import Command, View
from partyhost.engine.gsm.bot import legal_by_type, place_from
from partyhost.engine.rng import Rng


def bot_command(view: View, rng: Rng, now: float) -> Command | None:
    """Claim a fit of one of the face-up cards, else say "no fit" once."""
    legal = legal_by_type(view)
    if "match" in legal:
        claim = place_from(view, legal["match"], view["face_up"], rng)
        if claim is not None:
            return claim
    if "no_fit" in legal:
        return {"type": "no_fit"}
    return None
