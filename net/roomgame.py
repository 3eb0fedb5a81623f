"""A room's game: lobby, playing or over; the running table; the seats it deals to.

A part of :class:`~partyhost.net.room.Room`. It sets a game up from the
room's seats and options, passes commands and ticks to the
:class:`~partyhost.net.table.Table` (which journals them), and says which
view a seat gets. It never sends anything: the room does that after a change.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from typing import Any

from partyhost.engine.core import SYSTEM_SEAT, Command, Event, Game, IllegalMove
from partyhost.net import protocol as p
from partyhost.net.journal import CommandRecord, Journal, RoomRecord
from partyhost.net.roomqueue import Refused
from partyhost.net.table import NO_CEILING, Ceiling, Table

log = logging.getLogger(__name__)


class RoomGame:
    """The game side of one room, with the setup a restarted host replays."""

    def __init__(
        self,
        game: Game,
        deck: Any,
        record: RoomRecord,
        journal: Journal,
        ceiling: Ceiling = NO_CEILING,
    ) -> None:
        self._game = game
        self._ceiling = ceiling
        self._deck = deck
        self._journal = journal
        self._code = record.code
        self._status = record.status
        self._seed = record.seed
        self._rules = record.rules
        self._start_seats = record.start_seats
        self._table: Table | None = None
        self._game_seats: set[int] = set()
        self._idle_tick: tuple[int, float] | None = None
        """(version, deadline) of a tick that found nothing to do: no need to wake for it again."""

    def rebuild(self, commands: Sequence[CommandRecord]) -> None:
        """Replay a journaled game, with the seats that joined it late."""
        if self._seed is None or self._start_seats is None or self._status == p.LOBBY:
            return
        self._table = Table.rebuild(
            self._game,
            self._deck,
            self._start_seats,
            self._rules or {},
            self._seed,
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
        self._game_seats = set(self._start_seats) | joined
        if self._status == p.PLAYING and (self._table.over or self._table.full):
            self._status = p.OVER

    # --- reading -------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self._game

    @property
    def deck(self) -> Any:
        return self._deck

    @property
    def status(self) -> str:
        """``lobby`` before the first game, ``playing``, then ``over`` until the next."""
        return self._status

    @property
    def playing(self) -> bool:
        return self._status == p.PLAYING

    @property
    def in_lobby(self) -> bool:
        """Before the first game: seat numbers are still compact join order."""
        return self._status == p.LOBBY

    @property
    def table(self) -> Table | None:
        """The running (or finished) game; None before the first start."""
        return self._table

    @property
    def seed(self) -> int | None:
        return self._seed

    @property
    def rules(self) -> dict[str, Any] | None:
        return self._rules

    @property
    def start_seats(self) -> list[int] | None:
        return self._start_seats

    def in_game(self, seat: int | None) -> bool:
        """Whether ``seat`` is dealt into the current game (started with it or joined late)."""
        return seat is not None and seat in self._game_seats

    def view_seat(self, seat: int | None) -> int | None:
        """The seat whose view ``seat`` gets: its own if it plays, else the public one."""
        return seat if self.in_game(seat) else None

    def due_deadline(self) -> float | None:
        """The game's next deadline, unless a tick at it already found nothing to do."""
        if self._table is None or self._status != p.PLAYING:
            return None
        deadline = self._table.deadline()
        if deadline is None or (self._table.version, deadline) == self._idle_tick:
            return None
        return deadline

    # --- changing ------------------------------------------------------------

    def start(self, seats: list[int], rules: dict[str, Any]) -> None:
        """Deal a new game to ``seats``; Refused (and nothing changed) if it cannot be set up."""
        game = self._game
        seed = secrets.randbits(63)
        try:
            table = Table.rebuild(
                game, self._deck, seats, rules, seed, self._journal, self._code, (), self._ceiling
            )
        except IllegalMove as refused:
            raise Refused("cannot_start", refused.message) from None
        except Exception:
            log.exception("room %s: %s setup failed", self._code, game.id)
            raise Refused("cannot_start", "The game could not be set up with this deck.") from None
        self._table, self._seed, self._rules, self._start_seats = table, seed, rules, seats
        self._game_seats = set(seats)
        self._status = p.PLAYING

    def command(self, seat: int, command: Command, now: float) -> list[Event]:
        """A player's (or bot's) command; raises IllegalMove when the game refuses it."""
        if self._table is None or self._status != p.PLAYING:
            if self._table is not None and self._table.full:
                raise Refused("game_too_long", self._table.ceiling_message())
            raise Refused("not_playing", "No game is running in this room.")
        return self._table.command(seat, command, now)

    def system(self, kind: str, seat: int, now: float) -> list[Event] | None:
        """A host command about ``seat`` (``seat_away``...); None if no game took it."""
        if self._table is None:
            return None
        return self._table.system(kind, seat, now)

    def seat_joined(self, seat: int, now: float) -> list[Event]:
        """Deal a late joiner into the running game; Refused if the game cannot now."""
        events = self.system("seat_joined", seat, now)
        if events is None:
            raise Refused("game_in_progress", "The game cannot seat anyone right now.")
        self._game_seats.add(seat)
        return events

    def tick(self, now: float) -> list[Event]:
        """Run the game's timers if its deadline has come."""
        deadline = self.due_deadline()
        if self._table is None or deadline is None or now < deadline:
            return []
        events = self._table.tick(now)
        if not events:
            self._idle_tick = (self._table.version, deadline)
        return events

    def finish_if_over(self) -> str | None:
        """Mark the game over once the engine says so, or once it is full; then say why.

        Returns None except at that moment: what to tell the room.
        """
        table = self._table
        if table is None or self._status != p.PLAYING:
            return None
        if table.over:
            self._status = p.OVER
            return "The game is over."
        if table.full:
            self._status = p.OVER
            log.warning("room %s: game stopped at %d commands", self._code, table.index)
            return table.ceiling_message()
        return None
