"""The game in motion: starting it, ticks, bots, pauses, and what follows every change.

A part of :class:`~partyhost.net.rooms.room.Room`. Every accepted change ends
in :meth:`RoomPlay.changed`: views out, the game-over bookkeeping, bots
re-armed. Bots act only while someone is connected and the game is not paused
(an empty room sleeps), at most one per turn of the room's task, so people see
each move.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from partyhost.engine.core import Event
from partyhost.net.config import HostConfig
from partyhost.net.protocol import Refused
from partyhost.net.rooms.hostbots import DEFAULT_LEVEL, BotBrain, thinking_delay
from partyhost.net.rooms.roombroadcast import RoomBroadcast
from partyhost.net.rooms.roomgame import RoomGame
from partyhost.net.rooms.roster import Member, Roster

log = logging.getLogger(__name__)

SHARED_JITTER = random.Random()
"""One source of thinking-time jitter for every room (a generator's state is 2.5 KiB)."""


@dataclass(eq=False)
class RoomPlay:
    """Drives one room's game, its bots and stand-ins, and tells the room about each change."""

    config: HostConfig
    game: RoomGame
    roster: Roster
    broadcast: RoomBroadcast
    at_round_start: Callable[[Sequence[Event], bool], None] | None = None
    """Called with a change's events where a round ended (False) or the game did (True):
    the room hands bots' seats to people waiting (:mod:`.room`)."""
    jitter: random.Random = field(default=SHARED_JITTER, repr=False)
    """Where thinking times within a bot's range come from (tests pin it)."""

    # --- bots ------------------------------------------------------------------

    def brain(self, level: str, seed: int) -> BotBrain:
        low, high = thinking_delay(self.game.game, level, self.config.bot_delay)
        pace = self.config.bot_pace
        return BotBrain(seed, (low * pace, high * pace))

    def stand_in(self, member: Member, now: float) -> None:
        """Let a bot play ``member``'s seat from that seat's view."""
        brain = self.brain(DEFAULT_LEVEL, member.bot_seed)
        member.brain = brain
        if self._bots_active:
            brain.arm(now, self.jitter)

    @property
    def _bots_active(self) -> bool:
        """Whether bots may play now: a game runs, unpaused, with someone watching."""
        game = self.game
        running = game.table is not None and game.playing and not game.clock.paused
        return running and self.roster.watched

    def arm_all(self, now: float) -> None:
        """After a change, every bot (and stand-in) may think about its next move; one whose
        legal moves changed thinks afresh (see :meth:`BotBrain.arm`)."""
        table = self.game.table
        if table is None or not self._bots_active:
            return
        for member in self.roster.members:
            if member.brain is not None and member.seat is not None:
                facing = self.game.game.legal(table.state, member.seat)
                member.brain.arm(now, self.jitter, facing)

    def _rest_all(self) -> None:
        """No bot plans a move until :meth:`arm_all` (after a pause, or a round's result)."""
        for member in self.roster.members:
            if member.brain is not None:
                member.brain.rest()

    def next_due(self) -> float | None:
        """When the first armed bot wants to act (None while nobody watches, no game runs,
        the game is paused or the table reads a round's result: a plan from before must not
        wake the room)."""
        if not self._bots_active or self.game.result_pause is not None:
            return None
        due = [m.brain.due for m in self.roster.members if m.brain is not None]
        return min((when for when in due if when is not None), default=None)

    def _bot_turn(self, now: float) -> list[Event] | None:
        """Let the first bot whose thinking time is up act; its events, or None if none acted."""
        table = self.game.table
        if table is None or self.next_due() is None:
            return None
        for member in self.roster.members:
            brain = member.brain
            if brain is None or brain.due is None or brain.due > now or member.seat is None:
                continue
            command = brain.choose(
                self.game.game, table.state, member.seat, self.game.clock.now(now)
            )
            if command is None:
                continue
            try:
                return self.game.command(member.seat, command, now)
            except Exception as refused:
                log.debug(
                    "room %s: bot in seat %s refused: %s", self.broadcast.code, member.seat, refused
                )
        return None

    # --- the game ----------------------------------------------------------------

    def start(self, rules: dict[str, Any], grace: float) -> None:
        """Deal a game to everyone seated, in join order (a person not connected has ``grace``
        seconds to come); Refused if it cannot be set up."""
        self.roster.renumber()
        seats = [m.seat for m in self.roster.members if m.seat is not None]
        self.game.start(seats, rules)
        now = time.time()
        for member in self.roster.members:
            member.new_game(now, grace)
        self.game.game_started()
        self.broadcast.notice(f"{self.game.game.name} begins!")
        self.broadcast.room()
        self.changed((), now)

    def pause(self, by: str, now: float) -> None:
        """Stop the game's clock (no ticks, no commands) and its bots until :meth:`resume`;
        Refused if no game runs or it is paused already."""
        clock = self.game.clock
        if not self.game.playing:
            raise Refused("not_playing", "No game is running in this room.")
        if clock.paused:
            raise Refused("paused", f"The game is already paused by {clock.paused_by}.")
        clock.pause(now, by)
        self.game.resume_asks.clear()
        self._rest_all()
        self.game.save()
        self.broadcast.notice(f"Paused by {by}.")
        self.broadcast.room()

    def resume(self, by: str, now: float, notice: str | None = None) -> None:
        """Run the game's clock again; everyone gets a view stamped with it, bots think. The
        absent players' grace periods stood still during the pause and go on from there."""
        clock = self.game.clock
        if not clock.paused:
            raise Refused("not_paused", "The game is not paused.")
        paused_since = clock.paused_wall
        clock.resume(now)
        self.game.resume_asks.clear()
        if paused_since is not None:
            for member in self.roster.members:
                member.add_paused_time(paused_since, now)
        self.game.save()
        self.broadcast.notice(notice or f"{by} resumed the game.")
        self.broadcast.room()
        self.broadcast.views()
        self.arm_all(now)

    def pause_ends(self) -> float | None:
        """When the owner's pause ends by itself (None: the game is not paused)."""
        since = self.game.clock.paused_wall
        if since is None or not self.game.playing:
            return None
        return since + self.config.max_pause_seconds

    def ask_to_resume(self, member: Member, now: float) -> None:
        """A seated person other than the owner asks to go on; a majority of the people
        seated and here resumes the paused game."""
        if not self.game.clock.paused:
            raise Refused("not_paused", "The game is not paused.")
        if member.seat is None or member.seat in self.game.resume_asks:
            return
        self.game.resume_asks.add(member.seat)
        voters = {m.seat for m in self._people_here()}
        asking = len(self.game.resume_asks & voters)
        if asking * 2 > len(voters):
            self.resume(member.name, now, "Most of the table asked to go on: the game resumes.")
            return
        self.broadcast.notice(f"{member.name} asks to resume ({asking} of {len(voters)}).")
        self.broadcast.room()

    def seen(self, seat: int | None, now: float) -> None:
        """``seat`` has read the round's result (pressed a key, or played on), or cannot (left,
        or lost their link): the table does not wait for them."""
        if seat is not None and self.game.read_by(seat, now):
            self._pause_changed(now)

    def _pause_changed(self, now: float) -> None:
        if self.game.result_pause is None:
            self._rest_all()
            self.arm_all(now)
            self.game.save()  # the hold is over: a restart must not hold the clock again
        self.broadcast.room()

    def _people_here(self) -> list[Member]:
        """The people seated and connected (bots neither vote nor read results)."""
        return [m for m in self.roster.seated if m.human and m.peer is not None]

    def _readers(self) -> list[int]:
        """The people at the table who will read a round's result."""
        here = self._people_here()
        return [
            m.seat for m in here if m.seat is not None and not m.away and self.game.in_game(m.seat)
        ]

    def run_timers(self, now: float) -> None:
        """The game's deadline if it has come, then the first bot whose thinking time is up."""
        if not self.game.playing:
            return
        pause_end = self.pause_ends()
        if pause_end is not None and now >= pause_end:
            minutes = round((pause_end - (self.game.clock.paused_wall or now)) / 60)
            limit = f"{minutes} minutes" if minutes >= 2 else "its time limit"
            self.resume("the host", now, f"The pause reached {limit}; the game goes on.")
        if self.game.end_pause_if_due(now):
            self._pause_changed(now)
        ticked = self.game.tick(now)
        if ticked:
            self.changed(ticked, now)
        moved = self._bot_turn(now)
        if moved is not None:
            self.changed(moved, now)

    def changed(self, events: Sequence[Event], now: float) -> None:
        """After an accepted change: views out, game-over bookkeeping, bots re-armed."""
        self.broadcast.views(events)
        ending = self.game.finish_if_over(now)
        if ending is not None:
            for member in self.roster.members:
                member.game_over()
            self.game.save()
            self.game.mark_over()
            self.broadcast.notice(ending)
            self.broadcast.room()
            if self.at_round_start is not None:
                self.at_round_start(events, True)
            return
        if self.game.game.round_over(events):
            if self.at_round_start is not None:  # before the hold: a newcomer reads it too
                self.at_round_start(events, False)
            if self.game.pause_for_results(now, self._readers()):
                self.game.save()  # a restart keeps the hold (and the clock where it stopped)
                self.broadcast.room()
        self.arm_all(now)
