"""A room's timers: when its task next wakes, and how long the room has stood empty.

A part of :class:`~partyhost.net.rooms.room.Room`. The room's task sleeps until the
earliest of its timers (a grace period's end, a bot's or stand-in's turn, the
game's own deadline, the end of the pause after a round's result, an empty
room's end) or its next queue item, so a room with nothing due costs nothing.
The idle clock runs while nobody (player or spectator) is connected; past
``idle_room_seconds`` the room closes. After a restart it runs from the
restart, since nobody is connected yet.
"""

from __future__ import annotations

from partyhost.net.config import HostConfig
from partyhost.net.rooms.roombots import RoomBots
from partyhost.net.rooms.roomgame import RoomGame
from partyhost.net.rooms.roster import Roster
from partyhost.net.rooms.seating import Seating


class RoomTimers:
    """When a room's timers are next due, and its idle clock."""

    def __init__(
        self, config: HostConfig, roster: Roster, game: RoomGame, seating: Seating, bots: RoomBots
    ) -> None:
        self._config = config
        self._roster = roster
        self._game = game
        self._seating = seating
        self._bots = bots
        self._idle_since: float | None = None

    def restarted(self, now: float) -> None:
        """The room was rebuilt from the journal: nobody is connected yet."""
        self._idle_since = now

    def next_wake(self) -> float | None:
        """When a timer is next due: a grace period, a bot, a game deadline, the end of a
        round's result, an idle room."""
        idle_end = None
        if self._idle_since is not None:
            idle_end = self._idle_since + self._config.idle_room_seconds
        due = [
            self._seating.next_grace_end(),
            self._bots.next_due(),
            self._game.due_deadline(),
            self._game.result_pause_ends(),
        ]
        return min((when for when in [*due, idle_end] if when is not None), default=None)

    def idle_over(self, now: float) -> bool:
        """Whether nobody has been connected for ``idle_room_seconds`` by ``now``.

        Starts the idle clock when the last person has gone, stops it while anyone watches.
        """
        if self._roster.watched:
            self._idle_since = None
        elif self._idle_since is None:
            self._idle_since = now
        elif now >= self._idle_since + self._config.idle_room_seconds:
            return True
        return False
