"""Game, Set, Match! - Stealing Home: race to spot where one of two turned cards fits the grid."""

from __future__ import annotations

from partyhost.engine.gsm.stealing_home.game import GAME

__all__ = ["GAME"]
