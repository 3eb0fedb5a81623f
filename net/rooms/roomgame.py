"""A room's game: what it was made with, lobby, playing or over, the table, its seats,
and how the room is kept in the host's store.

A part of :class:`~partyhost.net.rooms.room.Room`. It passes commands and
ticks to the :class:`~partyhost.net.rooms.journaledgame.Table` on the game's
own clock (:class:`RoomClock`) and never sends anything: the room does that.
A restarted host rebuilds the room from its records: the room's, its
members', and each game's, noted as it starts and marked over with its
players and results (for replays and standings) or abandoned.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import (
    RESULT_PAUSES,
    ROUND_RESULTS,
    SYSTEM_SEAT,
    Command,
    Event,
    Game,
    IllegalMove,
    SeatResult,
)
from partyhost.net import protocol as p
from partyhost.net.protocol import Refused
from partyhost.net.rooms.journaledgame import Ceiling, Table
from partyhost.net.rooms.roster import BanList, Roster
from partyhost.net.store.database import Store
from partyhost.net.store.records import CommandRecord, GameStart, Player, RoomRecord

log = logging.getLogger(__name__)


@dataclass
class ResultPause:
    """The table stopped after a round so everyone can read its result."""

    until: float
    waiting: set[int]
    """The people (seats) who have not pressed a key yet."""


class RoomClock:
    """The time a room's game runs on: the host's clock, less the time its games spent
    stopped, and whether it is paused (and by whom) or held.

    Engines never read a clock (``now`` is an argument), so pausing needs no rule
    of any game: while a room is paused, or its table reads a round's result (a
    *hold*), the game clock stands still, and on resume every deadline is as far
    away as it was. Commands are journaled with the game clock's ``now`` and the
    clock is kept in the room's record, so a replay and a restarted host see the
    same times. Grace periods, bot delays and idle rooms stay on the host's clock.
    Read its fields; only its methods change them.
    """

    def __init__(
        self,
        offset: float = 0.0,
        paused_at: float | None = None,
        paused_by: str | None = None,
        held_at: float | None = None,
    ) -> None:
        self.offset = offset
        """How far the game clock is behind the host's (the time spent stopped)."""
        self.stopped_at = paused_at if paused_at is not None else held_at
        """The game clock's time while stopped (paused or held); None while it runs."""
        self.paused = paused_at is not None
        self.paused_by = paused_by if self.paused else None
        self.held = held_at is not None
        """Stopped while the table reads a round's result."""
        self.paused_wall = self.to_wall(paused_at) if paused_at is not None else None
        """The host time the game's clock stopped for the pause (or for the round's result
        it paused during), for the pause's time limit and the grace periods it holds; the
        clock's reading and offset give it back after a restart."""

    @property
    def held_at(self) -> float | None:
        """The game clock's time while held (None: no hold)."""
        return self.stopped_at if self.held else None

    @property
    def paused_at(self) -> float | None:
        """The game clock's time while paused (None: not paused)."""
        return self.stopped_at if self.paused else None

    def now(self, wall: float) -> float:
        if self.stopped_at is not None:
            return self.stopped_at
        return wall - self.offset

    def to_wall(self, when: float) -> float:
        """The host time at which the running game clock reads ``when``."""
        return when + self.offset

    def pause(self, wall: float, by: str) -> None:
        if not self.paused:
            self._stop(wall)
            self.paused, self.paused_by = True, by
            self.paused_wall = wall if self.stopped_at is None else self.to_wall(self.stopped_at)

    def resume(self, wall: float) -> None:
        """Run the game clock again from where it stopped (unless it is also held)."""
        self.paused, self.paused_by, self.paused_wall = False, None, None
        self._run_unless_stopped(wall)

    def hold(self, wall: float) -> None:
        """Stop the game clock while a round's result is read."""
        self._stop(wall)
        self.held = True

    def release(self, wall: float) -> None:
        """End a hold (the clock runs again unless it is also paused)."""
        self.held = False
        self._run_unless_stopped(wall)

    def _stop(self, wall: float) -> None:
        if self.stopped_at is None:
            self.stopped_at = wall - self.offset

    def _run_unless_stopped(self, wall: float) -> None:
        if self.stopped_at is not None and not (self.paused or self.held):
            self.offset = wall - self.stopped_at
            self.stopped_at = None


class RoomGame:
    """The game side of one room: what it was made with (deck, password hash, options,
    ``bot_takeover``) and the setup a restarted host replays. After a round it may stop,
    its clock held, until everyone at the table has read the result (``round_results``)
    or the time is up. Read its fields; only its methods change them."""

    def __init__(
        self,
        game: Game,
        deck: Any,
        record: RoomRecord,
        journal: Store,
        roster: Roster,
        banned: BanList,
        ceiling: Ceiling,
    ) -> None:
        self.game = game
        self._roster = roster
        self._banned = banned
        self._ceiling = ceiling
        self.deck = deck
        self.deck_name = record.deck_name
        self.deck_data = record.deck_data
        """The deck as journaled, so a restarted host can rebuild the same deck."""
        self.password_hash = record.password_hash
        self.created = record.created
        self.options = dict(record.options)
        self.bot_takeover = record.bot_takeover
        """Whether a bot plays an away player's seat (else the game is told ``seat_away``)."""
        self._journal = journal
        self._code = record.code
        self.status = record.status
        """``lobby`` before the first game, ``playing``, then ``over`` until the next."""
        self.seed = record.seed
        self.rules = record.rules
        self.start_seats = record.start_seats
        self.table: Table | None = None
        """The running (or finished) game; None before the first start."""
        self._game_seats: set[int] = set()
        self._idle_tick: tuple[int, float] | None = None
        """(version, deadline) of a tick that found nothing to do: no need to wake for it again."""
        self.clock = RoomClock(
            record.clock_offset, record.paused_at, record.paused_by, record.held_at
        )
        self.resume_asks: set[int] = set()
        """Seats whose players asked to resume the paused game (a majority resumes it)."""
        self.result_pause: ResultPause | None = None
        """Stopped for a round's result: the host's bots wait."""
        if self.clock.held:  # a restart while the table read a round's result
            until = record.hold_until if record.hold_until is not None else 0.0
            self.result_pause = ResultPause(until, set(record.hold_waiting or ()))

    def rebuild(self, commands: Sequence[CommandRecord]) -> None:
        """Replay a journaled game, with the seats that joined it late."""
        if self.seed is None or self.start_seats is None or self.status == p.LOBBY:
            return
        self.table = Table.rebuild(
            self.game,
            self.deck,
            self.start_seats,
            self.rules or {},
            self.seed,
            self._journal,
            self._code,
            commands,
            self._ceiling,
        )
        joined = {
            record.command["seat"]
            for record in commands
            if record.seat == SYSTEM_SEAT
            and record.command is not None
            and record.command.get("type") == "seat_joined"
        }
        self._game_seats = set(self.start_seats) | joined
        if self.status == p.PLAYING and (self.table.over or self.table.full):
            self.status = p.OVER

    # --- reading -------------------------------------------------------------

    @property
    def playing(self) -> bool:
        return self.status == p.PLAYING

    @property
    def in_lobby(self) -> bool:
        """Before the first game: seat numbers are still compact join order."""
        return self.status == p.LOBBY

    def result_pause_ends(self) -> float | None:
        return None if self.result_pause is None else self.result_pause.until

    def in_game(self, seat: int | None) -> bool:
        """Whether ``seat`` is dealt into the current game (started with it or joined late)."""
        return seat is not None and seat in self._game_seats

    def view_seat(self, seat: int | None) -> int | None:
        """The seat whose view ``seat`` gets: its own if it plays, else the public one."""
        return seat if self.in_game(seat) else None

    def due_deadline(self) -> float | None:
        """The game's next deadline on the host's clock, unless a tick at it found nothing
        to do; None while paused."""
        if self.table is None or self.status != p.PLAYING or self.clock.stopped_at is not None:
            return None
        deadline = self.table.deadline()
        if deadline is None or (self.table.version, deadline) == self._idle_tick:
            return None
        return self.clock.to_wall(deadline)

    # --- changing ------------------------------------------------------------

    def pause_for_results(self, now: float, readers: Iterable[int]) -> bool:
        """Stop for the round just ended, as the room chose; False when it does not stop."""
        choice = (self.rules or {}).get(ROUND_RESULTS.name)
        seconds = RESULT_PAUSES.get(str(choice), 0.0)
        waiting = set(readers)
        if seconds <= 0 or not waiting or self.status != p.PLAYING:
            return False
        self.result_pause = ResultPause(now + seconds, waiting)
        self.clock.hold(now)
        return True

    def read_by(self, seat: int, now: float) -> bool:
        """``seat`` has read the result; True if that changed the pause (or ended it)."""
        pause = self.result_pause
        if pause is None or seat not in pause.waiting:
            return False
        pause.waiting.discard(seat)
        if not pause.waiting:
            self._end_result_pause(now)
        return True

    def end_pause_if_due(self, now: float) -> bool:
        """End the pause once its time is up; True only then."""
        if self.result_pause is None or now < self.result_pause.until:
            return False
        self._end_result_pause(now)
        return True

    def _end_result_pause(self, now: float) -> None:
        self.result_pause = None
        self.clock.release(now)

    def choose(self, options: dict[str, Any], bot_takeover: bool | None) -> None:
        """The owner's new options (already checked by the game); ``None`` keeps the setting."""
        self.options = dict(options)
        if bot_takeover is not None:
            self.bot_takeover = bot_takeover

    def start(self, seats: list[int], rules: dict[str, Any]) -> None:
        """Deal a new game to ``seats``; Refused (and nothing changed) if it cannot be set up."""
        game = self.game
        seed = secrets.randbits(63)
        try:
            table = Table.rebuild(
                game, self.deck, seats, rules, seed, self._journal, self._code, (), self._ceiling
            )
        except IllegalMove as refused:
            raise Refused("cannot_start", refused.message) from None
        except Exception:
            log.exception("room %s: %s setup failed", self._code, game.id)
            raise Refused("cannot_start", "The game could not be set up with this deck.") from None
        self.table, self.seed, self.rules, self.start_seats = table, seed, rules, seats
        self._game_seats = set(seats)
        self.status = p.PLAYING
        self.result_pause = None

    def command(self, seat: int | None, command: Command, wall: float) -> list[Event]:
        """A player's (or bot's) command; IllegalMove when the game refuses it (or the
        table, ``game_too_long``, at its ceiling)."""
        table = self.table
        if table is None or seat is None or (self.status != p.PLAYING and not table.full):
            raise Refused("not_playing", "No game is running in this room.")
        if self.clock.paused:
            raise Refused("paused", f"The game is paused; {self.clock.paused_by} can resume it.")
        return table.command(seat, command, self.clock.now(wall))

    def system(self, kind: str, seat: int, wall: float) -> list[Event] | None:
        """A host command about ``seat`` (``seat_joined``, ``seat_left``...); None if no game
        took it. It goes through while paused: who sits at the table is the host's to say."""
        if self.table is None:
            return None
        command = {"type": kind, "seat": seat}
        try:
            return self.table.command(SYSTEM_SEAT, command, self.clock.now(wall))
        except IllegalMove as refused:
            log.info("%s refused %s for seat %s: %s", self.game.id, kind, seat, refused.code)
            return None

    def seat_joined(self, seat: int, wall: float) -> list[Event]:
        """Deal a late joiner into the running game; Refused if the game cannot now."""
        events = self.system("seat_joined", seat, wall)
        if events is None:
            raise Refused("game_in_progress", "The game cannot seat anyone right now.")
        self._game_seats.add(seat)
        return events

    def tick(self, wall: float) -> list[Event]:
        """Run the game's timers if its deadline has come."""
        due = self.due_deadline()
        if self.table is None or due is None or wall < due:
            return []
        deadline = self.table.deadline()
        assert deadline is not None
        # The host's clock has reached the deadline: so has the game's, rounding aside.
        events = self.table.tick(max(self.clock.now(wall), deadline))
        if not events:
            self._idle_tick = (self.table.version, deadline)
        return events

    def finish_if_over(self, wall: float) -> str | None:
        """Mark the game over once the engine says so, or once it is full; only then, what
        to tell the room (else None)."""
        table = self.table
        if table is None or self.status != p.PLAYING:
            return None
        if table.over:
            ending = "The game is over."
        elif table.full:
            log.warning("room %s: game stopped at %d commands", self._code, table.index)
            ending = table.ceiling_message()
        else:
            return None
        self.status = p.OVER
        self.clock.resume(wall)
        self._end_result_pause(wall)
        return ending

    # --- the store ------------------------------------------------------------

    def record(self) -> RoomRecord:
        hold, clock = self.result_pause, self.clock
        return RoomRecord(
            code=self._code,
            game=self.game.id,
            deck_name=self.deck_name,
            deck_data=self.deck_data,
            options=self.options,
            password_hash=self.password_hash,
            bot_takeover=self.bot_takeover,
            owner=self._roster.owner_id,
            status=self.status,
            next_member=self._roster.next_member,
            created=self.created,
            seed=self.seed,
            start_seats=self.start_seats,
            rules=self.rules,
            clock_offset=clock.offset,
            paused_at=clock.paused_at,
            paused_by=clock.paused_by,
            held_at=clock.held_at,
            hold_until=self.result_pause_ends(),
            hold_waiting=None if hold is None else sorted(hold.waiting),
            banned_names=sorted(self._banned.names),
            banned_addresses=sorted(self._banned.addresses),
        )

    def save(self) -> None:
        self._journal.save(self.record(), self._roster.records())

    def game_started(self) -> None:
        """A new game: the room as it is now, and the game, running, with no commands yet."""
        seats, rules = self.start_seats, self.rules
        assert self.seed is not None and seats is not None and rules is not None, "it started"
        dealt = set(seats)
        start = GameStart(
            room=self._code,
            seed=self.seed,
            game=self.game.id,
            deck_name=self.deck_name,
            deck_data=self.deck_data,
            rules=dict(rules),
            start_seats=list(seats),
            started=time.time(),
            players=self._players(dealt.__contains__),
            password_hash=self.password_hash,
            player_keys=sorted(
                key
                for m in self._roster.members
                if m.seat in dealt and not m.bot
                for key in (m.token_hash, m.second_token_hash)
                if key is not None
            ),
        )
        self._journal.start_game(self.record(), self._roster.records(), start)

    def mark_over(self) -> None:
        """Mark the finished game over with its results, for replays and standings.

        Also called on every restore (a game already over stays), so a game that ended
        just before the host stopped is marked too, at its last command's time. One that
        ended because a player left is told so: if it was brief, the history drops it.
        """
        table = self.table
        if table is None or not table.over:
            return
        last = table.records[-1] if table.records else None
        ended = time.time() if last is None else last.now
        try:
            results: list[SeatResult] = list(self.game.results(table.state))
        except Exception:
            log.exception("room %s: %s could not tell its results", self._code, self.game.id)
            results = []
        players = self._players(self.in_game)
        walked_out = (
            last is not None
            and last.seat == SYSTEM_SEAT
            and (last.command or {}).get("type") == "seat_left"
        )
        self._journal.game_over(self._code, results, players, ended, walked_out)

    def forget(self) -> None:
        """The room closed: nothing of it stays, and a game cut short is never replayed."""
        self._journal.forget(self._code, time.time())

    def _players(self, sat_in: Callable[[int], bool]) -> list[Player]:
        """Who sat in the game's seats (people who left included: the seat was theirs)."""
        return sorted(
            (
                Player(m.seat, m.name, m.bot)
                for m in self._roster.members
                if m.seat is not None and sat_in(m.seat)
            ),
            key=lambda player: player.seat,
        )
