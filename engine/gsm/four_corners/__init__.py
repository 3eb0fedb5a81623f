"""Game, Set, Match! - Four Corners: two players race to empty their hands along crossing lines.

The registry (:mod:`partyhost.engine.registry`) lists the variant as ``four-corners``. Its
modules are those of every game: ``game``, ``state``, ``setup``, ``rules``,
``evolve``, ``views`` and ``bot``.
"""

from __future__ import annotations

from partyhost.engine.gsm.four_corners.game import GAME

__all__ = ["GAME"]
