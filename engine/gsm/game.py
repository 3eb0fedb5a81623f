"""What the four Game, Set, Match! variants' ``Game`` classes share.

Every variant reads the same deck file, ends in the phase ``over``, offers
the same two options first and takes its bots' reaction time from
:data:`~partyhost.engine.gsm.bots.BOT_DELAYS`. A variant's own ``game``
module declares the rest and wires the contract to its own modules.
"""

from __future__ import annotations

from typing import Any

from partyhost.engine.core import Game, RuleOption
from partyhost.engine.gsm.bots import BOT_DELAYS
from partyhost.engine.gsm.cards import Deck
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


class GsmGame(Game):
    """A Game, Set, Match! variant: the shared deck, the shared end, bot speed by level."""

    deck_game = DECK_GAME
    default_deck = DECK_GAME

    def build_deck(self, data: Any) -> Deck:
        return build_deck(data)

    def is_over(self, state: Any) -> bool:
        return bool(state.phase == "over")

    def bot_delay(self, level: str) -> tuple[float, float] | None:
        """The real-time variants' reaction time for ``level``, from :data:`~.bots.BOT_DELAYS`."""
        return BOT_DELAYS.get(self.id, {}).get(level)
