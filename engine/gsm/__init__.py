"""Game, Set, Match!: four games played with one deck of sports-gear cards.

Importing this package registers Stealing Home, Scramble, Gridiron and Four
Corners. All four share the card model (:mod:`.cards`), the fast placement
search (:mod:`.board`, :mod:`.table`) and the solver (:mod:`.solver`).
"""

from __future__ import annotations

from partyhost.engine.gsm.four_corners import FourCorners
from partyhost.engine.gsm.gridiron import Gridiron
from partyhost.engine.gsm.scramble import Scramble
from partyhost.engine.gsm.stealing_home import StealingHome
from partyhost.engine.registry import register

STEALING_HOME = register(StealingHome())
SCRAMBLE = register(Scramble())
GRIDIRON = register(Gridiron())
FOUR_CORNERS = register(FourCorners())

__all__ = ["FOUR_CORNERS", "GRIDIRON", "SCRAMBLE", "STEALING_HOME"]
