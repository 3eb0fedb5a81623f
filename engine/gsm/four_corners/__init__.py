"""Game, Set, Match! - Four Corners: two players race to empty their hands along crossing lines.

Importing this package registers the variant as ``four-corners``. Its
modules are those of every game: ``game``, ``state``, ``setup``, ``rules``,
``evolve``, ``views`` and ``bot``.
"""

from __future__ import annotations

from partyhost.engine.gsm.four_corners.game import FourCorners
from partyhost.engine.registry import register

GAME = register(FourCorners())
