"""In-host bots: seats the host plays itself, from that seat's own view only.

A bot (or a bot standing in for an away player) gets exactly the view a
person in its seat would get and its own seeded :class:`Rng`, and asks the
game's ``bot_command``. The room decides *when*: after every change each bot
is armed to act after a short random "thinking" delay, so people can follow
what happens.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from partyhost.engine.core import Command, Game
from partyhost.engine.rng import Rng

log = logging.getLogger(__name__)


class BotBrain:
    """One seat's bot: its generator and when it may act next (``None``: idle)."""

    __slots__ = ("due", "rng")

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)
        self.due: float | None = None

    def arm(self, now: float, delay: tuple[float, float], jitter: random.Random) -> None:
        """Plan to act after the thinking delay, unless already planned."""
        if self.due is None:
            low, high = delay
            self.due = now + (low if high <= low else jitter.uniform(low, high))

    def choose(self, game: Game, state: Any, seat: int, now: float) -> Command | None:
        """The bot's command for this moment, or None; a failing bot just waits."""
        self.due = None
        try:
            return game.bot_command(game.view(state, seat), self.rng, now)
        except Exception:
            log.exception("%s bot in seat %s failed to choose a command", game.id, seat)
            return None
