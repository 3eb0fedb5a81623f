"""What a room was made with and what its owner chose: deck, password, options, stand-ins.

A part of :class:`~partyhost.net.rooms.room.Room`. Only the options and the
stand-in setting change after the room is made, and only between games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from partyhost.net.store.records import RoomRecord


@dataclass
class RoomSettings:
    """A room's deck, password hash, game options and ``bot_takeover`` choice."""

    deck_name: str
    deck_data: dict[str, Any]
    """The deck as journaled, so a restarted host can rebuild the same deck."""
    password_hash: str | None
    created: float
    options: dict[str, Any]
    bot_takeover: bool
    """Whether a bot plays an away player's seat (else the game is told ``seat_away``)."""

    @classmethod
    def of(cls, record: RoomRecord) -> RoomSettings:
        return cls(
            record.deck_name,
            record.deck_data,
            record.password_hash,
            record.created,
            dict(record.options),
            record.bot_takeover,
        )

    def choose(self, options: dict[str, Any], bot_takeover: bool | None) -> None:
        """The owner's new options (already checked by the game); ``None`` keeps the setting."""
        self.options = dict(options)
        if bot_takeover is not None:
            self.bot_takeover = bot_takeover
