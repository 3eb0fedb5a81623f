"""Game, Set, Match!: four games played with one deck of sports-gear cards.

The four games are Stealing Home, Scramble, Gridiron and Four Corners. Each
variant is a package with the modules every game has (``game``, ``state``,
``setup``, ``rules``, ``evolve``, ``views``, ``bot``); what they share lives
here: the card model (:mod:`.cards`, :mod:`.deck`), placements
(:mod:`.placement`, with the fast search in :mod:`.board` and :mod:`.table`),
the solver (:mod:`.solver`), seats (:mod:`.seating`), and the shared parts of
``game``, ``setup``, ``rules``, ``views`` and bots (:mod:`.bots`).
"""

from __future__ import annotations

from partyhost.engine.gsm.four_corners import GAME as FOUR_CORNERS
from partyhost.engine.gsm.gridiron import GAME as GRIDIRON
from partyhost.engine.gsm.scramble import GAME as SCRAMBLE
from partyhost.engine.gsm.stealing_home import GAME as STEALING_HOME

GAMES = (STEALING_HOME, SCRAMBLE, GRIDIRON, FOUR_CORNERS)

__all__ = ["FOUR_CORNERS", "GAMES", "GRIDIRON", "SCRAMBLE", "STEALING_HOME"]
