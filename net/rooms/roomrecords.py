"""How a room is kept in the host's store: its record, its members, and its games.

A part of :class:`~partyhost.net.rooms.room.Room`; a restarted host rebuilds
the room from these records. Each game is noted as it starts, and marked over
with its players and results (for replays and standings) or abandoned.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from partyhost.engine.core import SYSTEM_SEAT, SeatResult
from partyhost.net.rooms.roomgame import RoomGame
from partyhost.net.rooms.roster import BanList, Roster
from partyhost.net.store.database import Store
from partyhost.net.store.records import GameStart, Player, RoomRecord

log = logging.getLogger(__name__)


@dataclass(eq=False)
class RoomRecords:
    """Writes one room's record, its member records and its games to the store."""

    store: Store
    code: str
    roster: Roster
    game: RoomGame
    banned: BanList

    def record(self) -> RoomRecord:
        game, hold = self.game, self.game.result_pause
        return RoomRecord(
            code=self.code,
            game=game.game.id,
            deck_name=game.deck_name,
            deck_data=game.deck_data,
            options=game.options,
            password_hash=game.password_hash,
            bot_takeover=game.bot_takeover,
            owner=self.roster.owner_id,
            status=game.status,
            next_member=self.roster.next_member,
            created=game.created,
            seed=game.seed,
            start_seats=game.start_seats,
            rules=game.rules,
            clock_offset=game.clock.offset,
            paused_at=game.clock.paused_at,
            paused_by=game.clock.paused_by,
            held_at=game.clock.held_at,
            hold_until=game.result_pause_ends(),
            hold_waiting=None if hold is None else sorted(hold.waiting),
            banned_names=self.banned.names,
            banned_addresses=self.banned.addresses,
        )

    def save(self) -> None:
        self.store.save(self.record(), self.roster.records())

    def game_started(self) -> None:
        """A new game: the room as it is now, and the game, running, with no commands yet."""
        game = self.game
        seats, rules = game.start_seats, game.rules
        assert game.seed is not None and seats is not None and rules is not None, "it started"
        dealt = set(seats)
        start = GameStart(
            room=self.code,
            seed=game.seed,
            game=game.game.id,
            deck_name=game.deck_name,
            deck_data=game.deck_data,
            rules=dict(rules),
            start_seats=list(seats),
            started=time.time(),
            players=self._players(dealt.__contains__),
            password_hash=game.password_hash,
            player_keys=sorted(
                key
                for m in self.roster.members
                if m.seat in dealt and not m.bot
                for key in (m.token_hash, m.second_token_hash)
                if key is not None
            ),
        )
        self.store.start_game(self.record(), self.roster.records(), start)

    def game_over(self) -> None:
        """Mark the finished game over with its results, for replays and standings.

        Called when the game ends and again on every restore (a game already
        over stays as it is), so a game that ended just before the host
        stopped is marked too. It ended when its last command was applied, so
        a game marked late gets the same time as one marked at once. One
        that ended because a player left is told so: if it was brief, the
        history does not keep it.
        """
        table = self.game.table
        if table is None or not table.over:
            return
        records = table.records
        ended = records[-1].now if records else time.time()
        try:
            results: list[SeatResult] = list(self.game.game.results(table.state))
        except Exception:
            log.exception("room %s: %s could not tell its results", self.code, self.game.game.id)
            results = []
        players = self._players(self.game.in_game)
        last = records[-1] if records else None
        walked_out = (
            last is not None
            and last.seat == SYSTEM_SEAT
            and (last.command or {}).get("type") == "seat_left"
        )
        self.store.game_over(self.code, results, players, ended, walked_out)

    def forget(self) -> None:
        """The room closed: nothing of it stays, and a game cut short is never replayed."""
        self.store.forget(self.code, time.time())

    def _players(self, sat_in: Callable[[int], bool]) -> list[Player]:
        """Who sat in the game's seats (people who left included: the seat was theirs)."""
        return sorted(
            (
                Player(m.seat, m.name, m.bot)
                for m in self.roster.members
                if m.seat is not None and sat_in(m.seat)
            ),
            key=lambda player: player.seat,
        )
