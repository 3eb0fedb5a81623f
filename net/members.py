"""Who sits in a room: members (people and bots) and the connections they use.

A :class:`Member` outlives connections: it keeps the seat, name, token hash
and bot brain while its player is away. The room task is the only writer.
Seat numbers are compact (0..n-1, join order) while the room is in its lobby
and fixed once a game starts (late joiners get the next number; a player who
leaves keeps theirs, marked ``left``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from partyhost.net.hostbots import DEFAULT_LEVEL, BotBrain
from partyhost.net.journal import MemberRecord
from partyhost.net.ratelimit import TokenBucket


class Peer(Protocol):
    """What a room needs of a client connection."""

    name: str
    room: Any
    """The room this connection is in (or joining), or None."""
    member: Member | None
    """The seat it speaks for; None for spectators and the lobby."""

    @property
    def closed(self) -> bool: ...

    def send(self, message: dict[str, Any]) -> None: ...

    def send_frame(self, frame: bytes) -> None: ...

    def close(self, reason: str) -> None: ...


@dataclass(eq=False)
class Member:
    """One seat of a room and the person or bot in it."""

    member_id: int
    name: str
    seat: int | None
    token_hash: str | None
    chat: TokenBucket
    bot: bool = False
    bot_seed: int = 0
    bot_level: str = DEFAULT_LEVEL
    """How quickly a bot reacts (``core.BOT_LEVELS``); meaningless for people."""
    ready: bool = False
    left: bool = False
    peer: Peer | None = None
    disconnected_at: float | None = None
    """When the player's connection went (None while connected, or for bots)."""
    away: bool = False
    """Past the grace period: a bot stands in, or the game skips the seat."""
    engine_away: bool = False
    """The game accepted ``seat_away`` for this seat (so it needs ``seat_back``)."""
    brain: BotBrain | None = field(default=None, repr=False)

    @property
    def playing_bot(self) -> bool:
        """Whether the host plays this seat now (a bot, or standing in)."""
        return self.brain is not None and not self.left

    @property
    def human(self) -> bool:
        return not self.bot

    def describe(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "ready": self.ready or self.bot,
            "bot": self.bot,
            "bot_level": self.bot_level if self.bot else None,
            "connected": self.bot or self.peer is not None,
            "away": self.away,
            "stand_in": self.away and self.brain is not None,
            "left": self.left,
        }

    def record(self) -> MemberRecord:
        return MemberRecord(
            self.member_id,
            self.seat,
            self.name,
            self.token_hash,
            self.bot,
            self.bot_seed,
            self.ready,
            self.left,
            self.bot_level if self.bot else None,
        )
