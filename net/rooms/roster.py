"""Who is in a room: its members (seated, or left during a game), spectators, and owner;
and who may not come back to it.

A part of :class:`~partyhost.net.rooms.room.Room`. A :class:`Member` outlives
connections: it keeps the seat, name, token hash and bot brain while its
player is away. Member ids are never reused within a room, so a seat token
always names one member. The owner is a member id (the member may have left;
then the room hands ownership on). Seat numbers are compact (join order) in
the lobby and fixed once a game starts; a person waiting for a bot's seat has
none yet (:mod:`.room`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from partyhost.net.config import HostConfig
from partyhost.net.names import name_key, unique_name
from partyhost.net.protocol import Refused
from partyhost.net.rooms.hostbots import DEFAULT_LEVEL, BotBrain
from partyhost.net.rooms.roomqueue import Peer
from partyhost.net.store.records import MemberRecord


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


JOURNALED = {f.name for f in fields(MemberRecord)} & {f.name for f in fields(Member)} - {
    "bot_level"
}
"""The fields a :class:`Member` and its :class:`MemberRecord` share, under the same name (a
bot level is only a bot's in the record)."""


class Roster:
    """The members and spectators of one room; the room's task is the only caller."""

    def __init__(self, config: HostConfig, owner_id: int | None, next_member: int) -> None:
        self._config = config
        self._members: list[Member] = []
        self._spectators: dict[Peer, None] = {}
        """Watching connections, in the order they came (a dict keeps it)."""
        self.waiting: list[Member] = []
        """People without a seat waiting to take over a bot's (seat None), first come first
        (see :mod:`.room`)."""
        self.owner_id = owner_id
        self.next_member = next_member

    # --- reading -------------------------------------------------------------

    @property
    def members(self) -> tuple[Member, ...]:
        """Everyone with a member id still on the list, in seat order."""
        return tuple(self._members)

    @property
    def seated(self) -> list[Member]:
        """Members who have not left, in seat order."""
        return [member for member in self._members if not member.left]

    @property
    def owner(self) -> Member | None:
        return self.member_by_id(self.owner_id)

    def is_owner(self, member: Member) -> bool:
        return member.member_id == self.owner_id

    def member_by_id(self, member_id: int | None) -> Member | None:
        return next((m for m in self._members if m.member_id == member_id), None)

    def member_at(self, seat: int) -> Member | None:
        return next((m for m in self._members if m.seat == seat and not m.left), None)

    def member_of(self, peer: Peer) -> Member | None:
        """The member ``peer`` speaks for; None for spectators and strangers."""
        return next((m for m in self._members if m.peer is peer), None)

    @property
    def spectators(self) -> tuple[Peer, ...]:
        return tuple(self._spectators)

    @property
    def watched(self) -> bool:
        """Whether anyone is connected: bots only play for an audience."""
        return bool(self._spectators) or any(m.peer is not None for m in self._members)

    def fresh_name(self, wanted: str) -> str:
        """``wanted``, cleaned and made different from every seated (or waiting) member's name."""
        names = [m.name for m in (*self.seated, *self.waiting)]
        return unique_name(wanted, names, self._config.max_name_length)

    def person_named(self, name: str) -> Member | None:
        """The seated person whose name is ``name`` as names compare (NFKC, casefold)."""
        key = name_key(name)
        return next((m for m in self.seated if m.human and name_key(m.name) == key), None)

    def waiting_of(self, peer: Peer) -> Member | None:
        return next((m for m in self.waiting if m.peer is peer), None)

    def records(self) -> list[MemberRecord]:
        return [member.record() for member in (*self._members, *self.waiting)]

    # --- changing ------------------------------------------------------------

    def new_member(
        self, name: str, seat: int | None, token_hash: str | None, bot_level: str | None = None
    ) -> Member:
        """A member with the next id (listed by :meth:`add`); a bot if it has a level."""
        member = Member(
            self.next_member,
            name,
            seat,
            token_hash,
            bot=bot_level is not None,
            bot_seed=secrets.randbits(63),
            bot_level=bot_level or DEFAULT_LEVEL,
            ready=bot_level is not None,
        )
        self.next_member += 1
        return member

    def restore(
        self,
        record: MemberRecord,
        now: float,
        brain_for: Callable[[str, int], BotBrain],
        grace: float,
    ) -> Member:
        """Put a journaled member back: bots and stand-ins think again; a person who was
        connected when the host stopped has ``grace`` seconds from ``now`` to return, one
        who was already gone keeps the grace period (or away seat) they had."""
        member = Member.restored(record)
        if record.seat is None and not record.bot and not record.left:
            self.waiting.append(member)  # waiting for a bot's seat: no grace to run
            return member
        if record.bot and not record.left:
            member.brain = brain_for(member.bot_level, member.bot_seed)
        elif record.stand_in and not record.left:
            member.brain = brain_for(DEFAULT_LEVEL, member.bot_seed)
        elif not (record.left or record.away or record.grace_ends is not None):
            member.start_grace(now, grace)
        self._members.append(member)
        return member

    def add(self, member: Member) -> None:
        self._members.append(member)

    def replace(self, bot: Member, person: Member) -> None:
        """``person`` (waiting) takes ``bot``'s place and seat; the bot is gone from the room."""
        self.waiting.remove(person)
        person.seat = bot.seat
        self._members[self._members.index(bot)] = person

    def make_owner(self, member: Member) -> None:
        """``member`` owns the room from now on (the caller checked they may)."""
        self.owner_id = member.member_id

    def hand_over(self) -> Member | None:
        """Give the room to the first connected human, else any human still seated; the new
        owner, or None (and no owner) when no other human is seated."""
        humans = [m for m in self.seated if m.human and m.member_id != self.owner_id]
        present = [m for m in humans if m.peer is not None and not m.away]
        candidates = present or humans
        if not candidates:
            self.owner_id = None
            return None
        self.owner_id = candidates[0].member_id
        return candidates[0]

    def renumber(self) -> None:
        """Drop members who left and compact seat numbers to join order (lobby only)."""
        self._members = [member for member in self._members if not member.left]
        for seat, member in enumerate(self._members):
            member.seat = seat

    def add_spectator(self, peer: Peer) -> None:
        """Let ``peer`` watch; Refused when the room has its maximum of spectators."""
        limit = self._config.max_spectators
        if len(self._spectators) >= limit:
            raise Refused(
                "too_many_spectators", f"This room has its maximum of {limit} spectators."
            )
        self._spectators[peer] = None

    def drop_spectator(self, peer: Peer) -> bool:
        """Stop ``peer`` watching; False if it was not watching."""
        if peer not in self._spectators:
            return False
        del self._spectators[peer]
        return True


@dataclass
class BanList:
    """The names and addresses of the people a room's owner kicked: they cannot come back.

    Names are kept in their look-alike form (``names.name_key``), so joining again as
    "ANN" or with a Cyrillic A does not undo a kick. The SSH door's own address is never
    banned: every door visitor connects from it.
    """

    shared_address: str | None
    """An address many people connect from (the SSH door's): never banned."""
    names: set[str] = field(default_factory=set)
    addresses: set[str] = field(default_factory=set)

    def ban(self, name: str, address: str | None) -> None:
        """Keep ``name`` (and its look-alikes) and ``address`` out of the room."""
        self.names.add(name_key(name))
        if address and address != self.shared_address:
            self.addresses.add(address)

    def check(self, name: str, address: str) -> None:
        """Refused (``banned``) if ``name`` or ``address`` was kicked from the room."""
        if name_key(name) in self.names or address in self.addresses:
            raise Refused(
                "banned",
                "The room's owner sent you away from this room; you cannot come back to it."
                " Other rooms are open to you.",
            )
