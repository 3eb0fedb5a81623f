"""Game, Set, Match! - Gridiron: take turns placing one card; draw only when nothing fits.

The registry (:mod:`partyhost.engine.registry`) lists the variant as ``gridiron``. Its modules
are those of every game: ``game``, ``state``, ``setup``, ``rules``,
``evolve``, ``views`` and ``bot``.
"""

from __future__ import annotations

from partyhost.engine.gsm.gridiron.game import GAME

__all__ = ["GAME"]
