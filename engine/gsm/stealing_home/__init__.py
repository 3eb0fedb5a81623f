"""Game, Set, Match! - Stealing Home: race to spot where one of two turned cards fits the grid.

The registry (:mod:`partyhost.engine.registry`) lists the variant as ``stealing-home``.
Its modules hold what is its own: ``game``, ``state``, ``setup``, ``rules``,
``evolve``, ``views``, ``wire`` and ``bot``.
"""

from __future__ import annotations

from partyhost.engine.gsm.stealing_home.game import GAME

__all__ = ["GAME"]
