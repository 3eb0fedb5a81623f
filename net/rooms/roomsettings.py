"""What a room was made with and what its owner chose: deck, password, options, stand-ins.

A part of :class:`~partyhost.net.rooms.room.Room`. Only the options and the
stand-in setting change after the room is made, and only between games.
"""

from __future__ import annotations

from typing import Any

from partyhost.net.store.records import RoomRecord


class RoomSettings:
    """A room's deck, password hash, game options and ``bot_takeover`` choice."""

    def __init__(self, record: RoomRecord) -> None:
        self._deck_name = record.deck_name
        self._deck_data = record.deck_data
        self._password_hash = record.password_hash
        self._created = record.created
        self._options: dict[str, Any] = dict(record.options)
        self._bot_takeover = record.bot_takeover

    @property
    def deck_name(self) -> str:
        return self._deck_name

    @property
    def deck_data(self) -> dict[str, Any]:
        """The deck as journaled, so a restarted host can rebuild the same deck."""
        return self._deck_data

    @property
    def password_hash(self) -> str | None:
        return self._password_hash

    @property
    def created(self) -> float:
        return self._created

    @property
    def options(self) -> dict[str, Any]:
        return dict(self._options)

    @property
    def bot_takeover(self) -> bool:
        """Whether a bot plays an away player's seat (else the game is told ``seat_away``)."""
        return self._bot_takeover

    def choose(self, options: dict[str, Any], bot_takeover: bool | None) -> None:
        """The owner's new options (already checked by the game); ``None`` keeps the setting."""
        self._options = dict(options)
        if bot_takeover is not None:
            self._bot_takeover = bot_takeover
