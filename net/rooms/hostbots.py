"""In-host bots: seats the host plays itself, from that seat's own view only.

A bot gets exactly the view a person in its seat would get and its own seeded
:class:`Rng`; the room decides when it acts, after a thinking delay set by its
level, so people can follow what happens.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from partyhost.engine.core import BOT_LEVELS, Command, Game
from partyhost.engine.rng import Rng
from partyhost.net.protocol import Refused

log = logging.getLogger(__name__)

DEFAULT_LEVEL = "normal"
"""The level of a bot added without one (a level is one of ``core.BOT_LEVELS``)."""
LEVEL_SCALE: dict[str, float] = {"easy": 2.5, "normal": 1.0, "hard": 0.5}
"""How much longer (or shorter) than the host's delay a bot of each level thinks."""

Delay = tuple[float, float]


def bot_level(level: str | None) -> str:
    """The level of a bot the owner asked for (None: the default); Refused if it is none."""
    if level is None:
        return DEFAULT_LEVEL
    if level not in BOT_LEVELS:
        choices = f"{', '.join(BOT_LEVELS[:-1])} or {BOT_LEVELS[-1]}"
        raise Refused("bad_level", f"'{level}' is not a bot level: choose {choices}.")
    return str(level)


def thinking_delay(game: Game, level: str, host_delay: Delay) -> Delay:
    """Seconds (low, high) a ``level`` bot waits in ``game``; a game's own range is never
    shorter than the host's delay, so whoever runs the host can slow every bot down."""
    own = game.bot_delays.get(level)
    if own is not None:
        return max(own[0], host_delay[0]), max(own[1], host_delay[1])
    scale = LEVEL_SCALE[level]
    return host_delay[0] * scale, host_delay[1] * scale


class BotBrain:
    """One seat's bot: its generator, its thinking range (``delay``, from its level) and
    when it may act next (``due``; ``None``: idle)."""

    __slots__ = ("_facing", "delay", "due", "rng")

    def __init__(self, seed: int, delay: Delay) -> None:
        self.rng = Rng(seed)
        self.delay = delay
        self.due: float | None = None
        self._facing: object = None

    def arm(self, now: float, jitter: random.Random, facing: object = None) -> None:
        """Plan to act after the thinking delay, unless already planned for the same moves
        (``facing``: its legal commands now); when those changed, it thinks again, as a
        person would, instead of acting on the old plan's clock."""
        if self.due is not None and facing == self._facing:
            return
        self._facing = facing
        low, high = self.delay
        self.due = now + (low if high <= low else jitter.uniform(low, high))

    def rest(self) -> None:
        """Drop the plan: the next :meth:`arm` thinks from then on."""
        self.due = None

    def choose(self, game: Game, state: Any, seat: int, now: float) -> Command | None:
        """The bot's command for this moment, or None; a failing bot just waits."""
        self.due = None
        try:
            return game.bot_command(game.view(state, seat), self.rng, now)
        except Exception:
            log.exception("%s bot in seat %s failed to choose a command", game.id, seat)
            return None
