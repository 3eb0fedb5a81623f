"""How a room is kept in the journal: its record, its members', and when they are written.

A part of :class:`~partyhost.net.room.Room`. The room saves after every
change to who sits where or what was chosen; a game's commands are journaled
by its :class:`~partyhost.net.table.Table`. A restarted host rebuilds the room
from these records (:meth:`Room.restore <partyhost.net.room.Room.restore>`).
"""

from __future__ import annotations

from partyhost.net.journal import Journal, MemberRecord, RoomRecord
from partyhost.net.roomgame import RoomGame
from partyhost.net.roomsettings import RoomSettings
from partyhost.net.roster import Roster


class RoomRecords:
    """Writes one room's record and member records to the journal."""

    def __init__(
        self, journal: Journal, code: str, settings: RoomSettings, roster: Roster, game: RoomGame
    ) -> None:
        self._journal = journal
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
        """A new game: the room as it is now, and no commands yet."""
        self._journal.start_game(self.record(), self.members())

    def forget(self) -> None:
        """The room closed: nothing of it stays."""
        self._journal.delete_room(self._code)
