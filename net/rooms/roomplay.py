"""The game in motion: starting it, ticks, bots, pauses, and what follows every change.

A part of :class:`~partyhost.net.rooms.room.Room`. Every accepted change (a
player's command goes from ``Room.play`` straight to the game) ends in
:meth:`RoomPlay.changed`: fresh views to everyone, the game-over bookkeeping
the moment the game ends, and every bot re-armed to think about its next move.
A pause stops the game's clock (:mod:`.roomclock`) and sends the bots to rest.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from partyhost.engine.core import Event
from partyhost.net.rooms.roombots import RoomBots
from partyhost.net.rooms.roombroadcast import RoomBroadcast
from partyhost.net.rooms.roomgame import RoomGame
from partyhost.net.rooms.roomrecords import RoomRecords
from partyhost.net.rooms.roster import Roster


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

    def start(self, rules: dict[str, Any], grace: float) -> None:
        """Deal a game to everyone seated, in join order; Refused if it cannot be set up.

        A person not connected has ``grace`` seconds to come.
        """
        self._roster.renumber()
        seats = [m.seat for m in self._roster.members if m.seat is not None]
        self._game.start(seats, rules)
        now = time.time()
        for member in self._roster.members:
            member.new_game(now, grace)
        self._records.game_started()
        self._broadcast.notice(f"{self._game.game.name} begins!")
        self._broadcast.room()
        self.changed((), now)

    def pause(self, by: str, now: float) -> None:
        """Stop the game's clock and its bots until :meth:`resume`; Refused if it cannot."""
        self._game.pause(now, by)
        self._bots.rest_all()
        self._records.save()
        self._broadcast.notice(f"Paused by {by}.")
        self._broadcast.room()

    def resume(self, by: str, now: float) -> None:
        """Run the game's clock again; everyone gets a view stamped with it, bots think."""
        self._game.resume(now)
        self._records.save()
        self._broadcast.notice(f"{by} resumed the game.")
        self._broadcast.room()
        self._broadcast.views()
        self._bots.arm_all(now)

    def seen(self, seat: int | None, now: float) -> None:
        """``seat`` has read the round's result (pressed a key, or played on), or cannot (left,
        or lost their link): the table does not wait for them."""
        if seat is not None and self._game.read_by(seat, now):
            self._pause_changed(now)

    def _pause_changed(self, now: float) -> None:
        if not self._game.reading_result:
            self._bots.rethink(now)
        self._broadcast.room()

    def _readers(self) -> list[int]:
        """The people at the table who will read a round's result (bots read nothing)."""
        return [
            m.seat
            for m in self._roster.members
            if m.seat is not None
            and not m.bot
            and m.peer is not None
            and not m.away
            and not m.left
            and self._game.in_game(m.seat)
        ]

    def run_timers(self, now: float) -> None:
        """The game's deadline if it has come, then the first bot whose thinking time is up."""
        if not self._game.playing:
            return
        if self._game.end_pause_if_due(now):
            self._pause_changed(now)
        ticked = self._game.tick(now)
        if ticked:
            self.changed(ticked, now)
        moved = self._bots.turn(now)
        if moved is not None:
            self.changed(moved, now)

    def changed(self, events: Sequence[Event], now: float) -> None:
        """After an accepted change: views out, game-over bookkeeping, bots re-armed."""
        self._broadcast.views(events)
        ending = self._game.finish_if_over(now)
        if ending is not None:
            for member in self._roster.members:
                member.game_over()
            self._records.save()
            self._records.game_over()
            self._broadcast.notice(ending)
            self._broadcast.room()
            return
        if self._game.game.round_over(events) and self._game.pause_for_results(
            now, self._readers()
        ):
            self._broadcast.room()
        self._bots.arm_all(now)
