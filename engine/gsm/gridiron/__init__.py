"""Game, Set, Match! - Gridiron: take turns placing one card; draw only when nothing fits.

The registry (:mod:`partyhost.engine.registry`) lists the variant as ``gridiron``.
Its modules hold what is its own: ``game``, ``state``, ``setup``, ``rules``,
``evolve``, ``views`` and ``wire``; it plays with the shared bot
(:mod:`partyhost.engine.gsm.bot`).
"""

from __future__ import annotations

from partyhost.engine.gsm.gridiron.game import GAME

__all__ = ["GAME"]
