"""Game, Set, Match! - Four Corners: two players race to empty their hands along crossing lines.

The registry (:mod:`partyhost.engine.registry`) lists the variant as ``four-corners``.
Its modules hold what is its own: ``game``, ``state``, ``setup``, ``rules``,
``evolve``, ``views`` and ``wire``; it plays with the shared bot
(:mod:`partyhost.engine.gsm.bot`).
"""

from __future__ import annotations

from partyhost.engine.gsm.four_corners.game import GAME

__all__ = ["GAME"]
