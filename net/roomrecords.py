"""How a room is kept: its records in the journal, and its games in the game history.

A part of :class:`~partyhost.net.room.Room`. The room saves after every
change to who sits where or what was chosen; a game's commands are journaled
by its :class:`~partyhost.net.table.Table`. A restarted host rebuilds the room
from these records (:meth:`Room.restore <partyhost.net.room.Room.restore>`).

The game history (:mod:`~partyhost.net.history`) hears of each game as it
starts, ends (its commands, players and results, for replays and the night's
standings) or is cut short by the room closing. None of that may take the
room down: a game whose results cannot be read is still kept for its replay.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from partyhost.engine.core import SeatResult
from partyhost.net.history import GameStart, History
from partyhost.net.historyrows import Player
from partyhost.net.journal import Journal, MemberRecord, RoomRecord
from partyhost.net.roomgame import RoomGame
from partyhost.net.roomsettings import RoomSettings
from partyhost.net.roster import Roster

log = logging.getLogger(__name__)


class RoomRecords:
    """Writes one room's record and member records to the journal, and its games to the history."""

    def __init__(
        self,
        journal: Journal,
        history: History,
        code: str,
        settings: RoomSettings,
        roster: Roster,
        game: RoomGame,
    ) -> None:
        self._journal = journal
        self._history = history
        self._code = code
        self._settings = settings
        self._roster = roster
        self._game = game

    def record(self) -> RoomRecord:
        game, settings = self._game, self._settings
        return RoomRecord(
            code=self._code,
            game=game.game.id,
            deck_name=settings.deck_name,
            deck_data=settings.deck_data,
            options=settings.options,
            password_hash=settings.password_hash,
            bot_takeover=settings.bot_takeover,
            owner=self._roster.owner_id,
            status=game.status,
            next_member=self._roster.next_member,
            created=settings.created,
            seed=game.seed,
            start_seats=game.start_seats,
            rules=game.rules,
            clock_offset=game.clock.offset,
            paused_at=game.clock.paused_at,
            paused_by=game.clock.paused_by,
        )

    def members(self) -> list[MemberRecord]:
        return self._roster.records()

    def save(self) -> None:
        self._journal.save(self.record(), self.members())

    def game_started(self) -> None:
        """A new game: the room as it is now, and no commands yet; the history notes it."""
        self._journal.start_game(self.record(), self.members())
        start = self._game_start(time.time())
        if start is not None:
            self._history.game_started(start)

    def game_over(self) -> None:
        """Keep the finished game: its commands for replays, its results for standings.

        Called when the game ends and again on every restore (the history keeps
        a game once), so a game that ended just before the host stopped is kept
        too. It started and ended when its first and last commands were
        applied, so a game kept late gets the same times as one kept at once.
        """
        table = self._game.table
        if table is None or not table.over:
            return
        records = table.records
        ended = records[-1].now if records else time.time()
        start = self._game_start(records[0].now if records else ended)
        if start is None:
            return
        try:
            results: list[SeatResult] = list(self._game.game.results(table.state))
        except Exception:
            log.exception("room %s: %s could not tell its results", self._code, start.game)
            results = []
        players = self._players(lambda seat: self._game.in_game(seat))
        self._history.game_over(start, records, results, players, ended)

    def forget(self) -> None:
        """The room closed: nothing of it stays, and a game cut short is never replayed."""
        seed = self._game.seed
        if self._game.playing and seed is not None:
            self._history.game_abandoned(self._code, seed, time.time())
        self._journal.delete_room(self._code)

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

    def _game_start(self, started: float) -> GameStart | None:
        """The room's current game as the history keeps it (None: no game has started)."""
        game, seats, rules = self._game, self._game.start_seats, self._game.rules
        if game.seed is None or seats is None or rules is None:
            return None
        dealt = set(seats)
        return GameStart(
            room=self._code,
            seed=game.seed,
            game=game.game.id,
            deck_name=self._settings.deck_name,
            deck_data=self._settings.deck_data,
            rules=dict(rules),
            start_seats=list(seats),
            started=started,
            players=self._players(lambda seat: seat in dealt),
        )
