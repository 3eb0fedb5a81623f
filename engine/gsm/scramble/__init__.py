"""Game, Set, Match! - Scramble: all arrange their own seven cards; first correct "Game!" wins."""

from __future__ import annotations

from partyhost.engine.gsm.scramble.game import GAME

__all__ = ["GAME"]
