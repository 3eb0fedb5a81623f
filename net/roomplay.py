"""The game in motion: starting it, players' commands, ticks, bots, and what follows each.

A part of :class:`~partyhost.net.room.Room`. Every accepted change ends in
:meth:`RoomPlay.changed`: fresh views to everyone, the game-over bookkeeping
the moment the game ends, and every bot re-armed to think about its next move.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from partyhost.engine.core import Command, Event
from partyhost.net.roombots import RoomBots
from partyhost.net.roombroadcast import RoomBroadcast
from partyhost.net.roomgame import RoomGame
from partyhost.net.roomrecords import RoomRecords
from partyhost.net.roster import Roster


class RoomPlay:
    """Drives one room's game and tells the room about each change."""

    def __init__(
        self,
        game: RoomGame,
        roster: Roster,
        bots: RoomBots,
        broadcast: RoomBroadcast,
        records: RoomRecords,
    ) -> None:
        self._game = game
        self._roster = roster
        self._bots = bots
        self._broadcast = broadcast
        self._records = records

    def start(self, rules: dict[str, Any]) -> None:
        """Deal a game to everyone seated, in join order; Refused if it cannot be set up."""
        self._roster.renumber()
        seats = [m.seat for m in self._roster.members if m.seat is not None]
        self._game.start(seats, rules)
        now = time.time()
        for member in self._roster.members:
            member.new_game(now)
        self._records.game_started()
        self._broadcast.notice(f"{self._game.game.name} begins!")
        self._broadcast.room()
        self.changed((), now)

    def command(self, seat: int, command: Command, now: float) -> None:
        """A player's command; raises IllegalMove (nothing changed) if the game refuses it."""
        self.changed(self._game.command(seat, command, now), now)

    def run_timers(self, now: float) -> None:
        """The game's deadline if it has come, then the first bot whose thinking time is up."""
        if not self._game.playing:
            return
        ticked = self._game.tick(now)
        if ticked:
            self.changed(ticked, now)
        moved = self._bots.turn(now)
        if moved is not None:
            self.changed(moved, now)

    def changed(self, events: Sequence[Event], now: float) -> None:
        """After an accepted change: views out, game-over bookkeeping, bots re-armed."""
        self._broadcast.views(events)
        ending = self._game.finish_if_over()
        if ending is not None:
            for member in self._roster.members:
                member.game_over()
            self._records.save()
            self._broadcast.notice(ending)
            self._broadcast.room()
        else:
            self._bots.arm_all(now)
