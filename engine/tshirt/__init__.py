"""The T-Shirt Game: match slogans to T-shirts; the judge's favourite wins Hot or Not cards.

The registry (:mod:`partyhost.engine.registry`) lists the game as ``tshirt``. Its modules, the
same in every game: ``game`` (its declaration), ``deck``, ``state``,
``setup``, ``rules`` (``decide`` and ``tick``: what each command may do),
``flow`` (how a round runs on by itself), ``evolve``, ``views`` and ``bot``.
"""

from __future__ import annotations

from partyhost.engine.tshirt.game import GAME

__all__ = ["GAME"]
