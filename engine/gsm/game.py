"""What the four Game, Set, Match! variants declare alike.

Every variant reads the same deck file, ends in the phase ``over`` and offers
the same two options first. :data:`gsm_game` fills in the shared part; a
variant's own ``game`` module declares the rest.
"""

from __future__ import annotations

from functools import partial

from partyhost.engine.core import Game, RuleOption
from partyhost.engine.gsm.deck import DECK_GAME, build_deck

ROTATE = RuleOption(
    "rotate", "Turn cards around", "bool", True, help="Cards may be turned 180 degrees."
)
HINTS = RuleOption(
    "hints",
    "Show where cards fit",
    "bool",
    False,
    help="List every legal placement in each player's view (the UI highlights them).",
)


gsm_game = partial(Game, deck_game=DECK_GAME, default_deck=DECK_GAME, build_deck=build_deck)
"""A variant's :class:`~partyhost.engine.core.Game`: the shared deck, then its own."""
