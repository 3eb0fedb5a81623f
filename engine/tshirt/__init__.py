"""The T-Shirt Game: match slogans to T-shirts; the judge's favourite wins Hot or Not cards."""

from __future__ import annotations

from partyhost.engine.tshirt.game import GAME

__all__ = ["GAME"]
