"""When the host's own players in a room act: bots, and stand-ins for away players.

A part of :class:`~partyhost.net.rooms.room.Room`. After every change each bot is
armed to act after its thinking delay (:mod:`.hostbots`), but only while
someone is connected and the game is not paused: bots play for an audience,
an empty room sleeps, and a paused table waits for everyone. At most one bot
acts per turn of the room's task, so people see each move.
"""

from __future__ import annotations

import logging
import random

from partyhost.engine.core import Event, Game
from partyhost.net.config import HostConfig
from partyhost.net.rooms.hostbots import DEFAULT_LEVEL, BotBrain, thinking_delay
from partyhost.net.rooms.members import Member
from partyhost.net.rooms.roomgame import RoomGame
from partyhost.net.rooms.roster import Roster

log = logging.getLogger(__name__)


SHARED_JITTER = random.Random()
"""One source of thinking-time jitter for every room (a generator's state is 2.5 KiB)."""


class RoomBots:
    """The brains of a room's bots and stand-ins, and when each may act."""

    def __init__(self, code: str, config: HostConfig, roster: Roster, game: RoomGame) -> None:
        self._code = code
        self._pace = config.bot_pace
        self._host_delay = config.bot_delay
        low, high = config.bot_delay
        self._bot_delay = (low * self._pace, high * self._pace)
        """The room's thinking range, paced (for a brain without its own)."""
        self._roster = roster
        self._game = game
        self.jitter: random.Random = SHARED_JITTER
        """Where thinking times within a bot's range come from (tests pin it)."""

    def brain(self, level: str, seed: int) -> BotBrain:
        """A brain for a ``level`` bot of this room's game."""
        game: Game = self._game.game
        low, high = thinking_delay(game, level, self._host_delay)
        return BotBrain(seed, (low * self._pace, high * self._pace))

    def stand_in(self, member: Member, now: float) -> None:
        """Let a bot play ``member``'s seat from that seat's view."""
        brain = self.brain(DEFAULT_LEVEL, member.bot_seed)
        member.brain = brain
        if self._active:
            brain.arm(now, self._bot_delay, self.jitter)

    @property
    def _active(self) -> bool:
        """Whether bots may play now: a game runs, unpaused, with someone watching."""
        game = self._game
        running = game.table is not None and game.playing and not game.clock.paused
        return running and self._roster.watched

    def arm_all(self, now: float) -> None:
        """After a change, every bot (and stand-in) may think about its next move.

        A bot whose legal moves changed thinks afresh (see :meth:`BotBrain.arm`).
        """
        table = self._game.table
        if table is None or not self._active:
            return
        for member in self._roster.members:
            if member.brain is not None and member.seat is not None:
                facing = self._game.game.legal(table.state, member.seat)
                member.brain.arm(now, self._bot_delay, self.jitter, facing)

    def rethink(self, now: float) -> None:
        """The table goes on after a round's result: every bot starts thinking now."""
        for member in self._roster.members:
            if member.brain is not None:
                member.brain.rest()
        self.arm_all(now)

    def rest_all(self) -> None:
        """The game is paused: no bot plans a move until :meth:`arm_all` after the resume."""
        for member in self._roster.members:
            if member.brain is not None:
                member.brain.rest()

    def next_due(self) -> float | None:
        """When the first armed bot wants to act (None while nobody watches, no game runs,
        the game is paused or the table reads a round's result: a plan from before must not
        wake the room)."""
        if not self._active or self._game.reading_result:
            return None
        due = [m.brain.due for m in self._roster.members if m.brain is not None]
        return min((when for when in due if when is not None), default=None)

    def turn(self, now: float) -> list[Event] | None:
        """Let the first bot whose thinking time is up act; its events, or None if none acted."""
        table = self._game.table
        if table is None or not self._active or self._game.reading_result:
            return None
        for member in self._roster.members:
            brain = member.brain
            if brain is None or brain.due is None or brain.due > now or member.seat is None:
                continue
            command = brain.choose(
                self._game.game, table.state, member.seat, self._game.clock.now(now)
            )
            if command is None:
                continue
            try:
                return self._game.command(member.seat, command, now)
            except Exception as refused:
                log.debug("room %s: bot in seat %s refused: %s", self._code, member.seat, refused)
        return None
