"""Game, Set, Match! - Scramble: all arrange their own seven cards; first correct "Game!" wins.

The registry (:mod:`partyhost.engine.registry`) lists the variant as ``scramble``.
Its modules hold what is its own: ``game``, ``state``, ``setup``, ``rules``,
``evolve``, ``views``, ``wire`` and ``bot``.
"""

from __future__ import annotations

from partyhost.engine.gsm.scramble.game import GAME

__all__ = ["GAME"]
