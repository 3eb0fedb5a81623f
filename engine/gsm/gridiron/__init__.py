"""Game, Set, Match! - Gridiron: take turns placing one card; draw only when nothing fits."""

from __future__ import annotations

from partyhost.engine.gsm.gridiron.game import GAME

__all__ = ["GAME"]
