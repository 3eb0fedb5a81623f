"""Who sits in a room: members (people and bots) and the connections they use.

A :class:`Member` outlives connections: it keeps the seat, name, token hash and
bot brain while its player is away. Seat numbers are compact (join order) in
the lobby and fixed once a game starts; a person waiting for a bot's seat has
none yet (:mod:`.room`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from partyhost.net.rooms.hostbots import DEFAULT_LEVEL, BotBrain
from partyhost.net.rooms.roomqueue import Peer
from partyhost.net.store.records import MemberRecord

JOURNALED = (
    "seat",
    "name",
    "token_hash",
    "bot",
    "bot_seed",
    "ready",
    "left",
    "disconnected_at",
    "away",
    "engine_away",
    "newcomer",
)
"""The fields a :class:`Member` and its :class:`MemberRecord` share, under the same name."""


@dataclass(eq=False)
class Member:
    """One seat of a room and the person or bot in it."""

    member_id: int
    name: str
    seat: int | None
    token_hash: str | None
    bot: bool = False
    bot_seed: int = 0
    bot_level: str = DEFAULT_LEVEL
    """How quickly a bot reacts (``core.BOT_LEVELS``); meaningless for people."""
    ready: bool = False
    left: bool = False
    peer: Peer | None = None
    disconnected_at: float | None = None
    """When the player's connection went (None while connected, or for bots)."""
    grace_until: float | None = None
    """When the running grace period ends (None: none is running)."""
    newcomer: bool = False
    """Joined during the game and has not acted yet (a short grace if they drop)."""
    away: bool = False
    """Past the grace period: a bot stands in, or the game skips the seat."""
    engine_away: bool = False
    """The game accepted ``seat_away`` for this seat (so it needs ``seat_back``)."""
    second_token_hash: str | None = None
    """The token given when the table let a visitor take this seat back by name (not
    journaled: after a host restart only the seat's first token takes it back)."""
    brain: BotBrain | None = field(default=None, repr=False)

    @classmethod
    def restored(cls, record: MemberRecord) -> Member:
        """The member a journal record describes, without connection or brain yet."""
        return cls(
            member_id=record.member,
            **{name: getattr(record, name) for name in JOURNALED},
            bot_level=record.bot_level or DEFAULT_LEVEL,
            grace_until=record.grace_ends,
        )

    @property
    def playing_bot(self) -> bool:
        """Whether the host plays this seat now (a bot, or standing in)."""
        return self.brain is not None and not self.left

    @property
    def human(self) -> bool:
        return not self.bot

    @property
    def here(self) -> bool:
        """Whether this member's player is connected now (its connection not closing)."""
        return self.peer is not None and not self.peer.closed

    # --- changes (called by the room's parts only) ---------------------------

    def release(self) -> Peer | None:
        """Forget the connection (it was told, or is gone); returns it."""
        peer, self.peer = self.peer, None
        return peer

    def disconnect(self, now: float, grace: float) -> None:
        """The connection went: a grace period of ``grace`` seconds starts ``now``."""
        self.peer = None
        self.disconnected_at = now
        self.grace_until = now + grace

    def start_grace(self, now: float, grace: float) -> None:
        """Count a grace period from ``now`` (a game starts, or a host restarts, without them)."""
        if self.disconnected_at is None:
            self.disconnected_at = now
        self.grace_until = now + grace

    def add_paused_time(self, paused_since: float, now: float) -> None:
        """A pause from ``paused_since`` to ``now`` ends: the grace period did not run meanwhile
        (only from the disconnection on, if it came during the pause)."""
        if self.grace_until is None:
            return
        stopped_from = max(paused_since, self.disconnected_at or paused_since)
        self.grace_until += max(0.0, now - stopped_from)

    def end_grace(self) -> None:
        self.disconnected_at = None
        self.grace_until = None

    def grace_ends(self) -> float | None:
        """When this player's grace period runs out, if one is running."""
        return None if self.left else self.grace_until

    def go_away(self) -> None:
        """Past the grace period during a game (or replaced by a bot on the owner's word)."""
        self.away = True
        self.grace_until = None

    def come_back(self) -> bool:
        """Back from away: the stand-in stops. True if the game must hear ``seat_back``."""
        self.away = False
        if not self.bot:
            self.brain = None
        told, self.engine_away = self.engine_away, False
        return told

    def leave(self) -> None:
        """Gone for good: no seat in the next game, no brain, no grace period."""
        self.left, self.ready, self.brain = True, False, None
        self.disconnected_at = self.grace_until = None

    def new_game(self, now: float, grace: float) -> None:
        """A game starts: nobody is ready or away; a person not here has the grace period."""
        self.ready, self.away, self.engine_away, self.newcomer = False, False, False, False
        if self.human:
            self.brain = None
            if self.peer is None:
                self.start_grace(now, grace)

    def game_over(self) -> None:
        """The game ended: everyone readies up again; stand-ins stop."""
        self.ready = False
        if not self.bot:
            self.brain = None

    # --- what others see -------------------------------------------------------

    def presence(self) -> str:
        """``connected``, ``disconnected``, ``away`` or ``gone`` (bots are always connected)."""
        if self.left:
            return "gone"
        if self.bot or self.peer is not None:
            return "connected"
        return "away" if self.away else "disconnected"

    def describe(self, now: float, paused_since: float | None = None) -> dict[str, Any]:
        """This seat in the room message, its grace time left counted from host time ``now``
        (while the game is paused since ``paused_since``, the grace time left stands still)."""
        presence = self.presence()
        grace = self.grace_ends() if presence == "disconnected" else None
        if grace is not None and paused_since is not None:
            now = max(paused_since, self.disconnected_at or paused_since)
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
            "presence": presence,
            "grace_left": None if grace is None else round(max(0.0, grace - now), 1),
        }

    def record(self) -> MemberRecord:
        return MemberRecord(
            member=self.member_id,
            **{name: getattr(self, name) for name in JOURNALED},
            bot_level=self.bot_level if self.bot else None,
            grace_ends=self.grace_until,
            stand_in=self.human and self.away and self.brain is not None,
        )
