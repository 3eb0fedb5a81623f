"""What the four Game, Set, Match! variants declare alike: the deck and the first two options."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from partyhost.engine.core import Game, RuleOption, declare
from partyhost.engine.gsm import deck, state
from partyhost.engine.gsm.bot import BOT_DELAYS

ROTATE = RuleOption(
    "rotate", "Turn cards around", "bool", True, help="Cards may be turned 180 degrees."
)
HINTS = RuleOption(
    "hints",
    "Show where cards fit",
    "bool",
    False,
    help="Mark on the board every place where each card fits, for every player.",
)


def gsm_game(jobs: Sequence[ModuleType], **own: Any) -> Game:
    """A variant's ``Game``: the shared deck and state modules, its ``jobs``, then ``own``."""
    own.setdefault("bot_delays", BOT_DELAYS.get(own["id"], {}))
    return declare(
        (deck, state, *jobs), deck_game=deck.DECK_GAME, default_deck=deck.DECK_GAME, **own
    )
