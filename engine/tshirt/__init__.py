"""The T-Shirt Game: match slogans to T-shirts; the judge's favourite wins Hot or Not cards.

Besides the modules every game has, ``flow`` runs a round on by itself.
"""

from __future__ import annotations

from partyhost.engine.tshirt.game import GAME

__all__ = ["GAME"]
