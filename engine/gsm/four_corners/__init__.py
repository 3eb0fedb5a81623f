"""Game, Set, Match! - Four Corners: two players race to empty their hands along crossing lines."""

from __future__ import annotations

from partyhost.engine.gsm.four_corners.game import GAME

__all__ = ["GAME"]
