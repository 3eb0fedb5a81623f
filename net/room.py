"""A room: one asyncio task that owns its members and game, fed by one queue.

Everything that changes a room arrives as an item on :attr:`Room.queue`
(joins, resumes, requests, lost connections) or comes from its own timers
(game deadlines, grace periods, bot thinking time). Only the room task touches
the room's state, so there are no locks, and real-time claims are ordered by
their arrival at the queue. Requests are handled in :mod:`.roomrequests`.

After each accepted change every connected seat gets its own fresh view plus
the events its seat may see, spectators get the public view; the change was
committed to the journal before (see :class:`~partyhost.net.table.Table`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from partyhost.engine.core import SYSTEM_SEAT, Event, Game
from partyhost.net import protocol as p
from partyhost.net import roomhistory, roomrequests, seating
from partyhost.net.config import HostConfig
from partyhost.net.history import History
from partyhost.net.hostbots import DEFAULT_LEVEL, BotBrain, thinking_delay
from partyhost.net.journal import Journal, MemberRecord, RoomRecord, StoredRoom
from partyhost.net.members import Member, Peer
from partyhost.net.ratelimit import TokenBucket
from partyhost.net.roommessages import RoomMessages
from partyhost.net.table import Table

log = logging.getLogger(__name__)


class RoomServices(Protocol):
    """What a room needs from the host around it."""

    config: HostConfig
    journal: Journal
    history: History

    def remember_token(self, token_hash: str, room: Room, member_id: int) -> None: ...

    def forget_token(self, token_hash: str) -> None: ...

    def room_closed(self, room: Room) -> None: ...


@dataclass
class Join:
    peer: Peer
    spectate: bool


@dataclass
class Resume:
    peer: Peer
    member_id: int
    token: str


@dataclass
class Request:
    peer: Peer
    message: dict[str, Any]


@dataclass
class Gone:
    peer: Peer


class Stop:
    """Host shutdown: leave the loop, keep everything in the journal."""


RoomItem = Join | Resume | Request | Gone | Stop


class Room(RoomMessages):
    """A table of friends: members, spectators, settings and maybe a game."""

    def __init__(
        self,
        services: RoomServices,
        record: RoomRecord,
        game: Game,
        deck: Any,
    ) -> None:
        self.services = services
        self.config = services.config
        self.journal = services.journal
        self.code = record.code
        self.game = game
        self.deck = deck
        self.deck_name = record.deck_name
        self.deck_data = record.deck_data
        self.options: dict[str, Any] = dict(record.options)
        self.password_hash = record.password_hash
        self.bot_takeover = record.bot_takeover
        self.created = record.created
        self.status = record.status
        self.seed = record.seed
        self.start_seats = record.start_seats
        self.rules = record.rules
        self.next_member = record.next_member
        self.owner_id = record.owner
        self.members: list[Member] = []
        self.spectators: dict[Peer, TokenBucket] = {}
        self.table: Table | None = None
        self.game_seats: set[int] = set()
        self.queue: asyncio.Queue[RoomItem] = asyncio.Queue()
        self.closed = False
        self.idle_since: float | None = None
        self._idle_tick: tuple[int, float] | None = None
        self.jitter = random.Random()
        self.task: asyncio.Task[None] | None = None

    # --- construction and persistence ------------------------------------

    @classmethod
    def restore(
        cls, services: RoomServices, stored: StoredRoom, game: Game, deck: Any, now: float
    ) -> Room:
        """Rebuild a room from the journal; its people have the grace period to return."""
        room = cls(services, stored.room, game, deck)
        for record in stored.members:
            member = room._member(
                record.member,
                record.name,
                record.seat,
                record.token_hash,
                record.bot,
                record.bot_seed,
            )
            member.ready, member.left = record.ready, record.left
            member.bot_level = record.bot_level or DEFAULT_LEVEL
            if record.bot and not record.left:
                delay = thinking_delay(game, member.bot_level, services.config.bot_delay)
                member.brain = BotBrain(record.bot_seed, delay)
            elif not record.left:
                member.disconnected_at = now
            room.members.append(member)
        if room.seed is not None and room.start_seats is not None and room.status != p.LOBBY:
            room.table = Table.rebuild(
                game,
                deck,
                room.start_seats,
                room.rules or {},
                room.seed,
                services.journal,
                room.code,
                stored.commands,
            )
            joined = {
                record.command["seat"]
                for record in stored.commands
                if record.seat == SYSTEM_SEAT
                and record.command is not None
                and record.command.get("type") == "seat_joined"
            }
            room.game_seats = set(room.start_seats) | joined
            if room.status == p.PLAYING and room.table.over:
                room.status = p.OVER
            if room.table.over:  # in case the host stopped before the history kept it
                roomhistory.game_over(room, now)
        return room

    def record(self) -> RoomRecord:
        return RoomRecord(
            code=self.code,
            game=self.game.id,
            deck_name=self.deck_name,
            deck_data=self.deck_data,
            options=self.options,
            password_hash=self.password_hash,
            bot_takeover=self.bot_takeover,
            owner=self.owner_id,
            status=self.status,
            next_member=self.next_member,
            created=self.created,
            seed=self.seed,
            start_seats=self.start_seats,
            rules=self.rules,
        )

    def member_records(self) -> list[MemberRecord]:
        return [member.record() for member in self.members]

    def save(self) -> None:
        self.journal.save(self.record(), self.member_records())

    def new_member(self, name: str, seat: int | None, token_hash: str | None, bot: bool) -> Member:
        """A member with the next id (ids are never reused within a room)."""
        member = self._member(self.next_member, name, seat, token_hash, bot, secrets.randbits(63))
        self.next_member += 1
        return member

    def _member(
        self,
        member_id: int,
        name: str,
        seat: int | None,
        token_hash: str | None,
        bot: bool,
        bot_seed: int,
    ) -> Member:
        chat = TokenBucket(self.config.chat_per_second, self.config.chat_burst)
        return Member(member_id, name, seat, token_hash, chat, bot=bot, bot_seed=bot_seed)

    # --- the task --------------------------------------------------------

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run(), name=f"room {self.code}")

    def post(self, item: RoomItem) -> None:
        self.queue.put_nowait(item)

    async def run(self) -> None:
        """Handle queued items and timers until the room closes or the host stops."""
        self.arm_bots(time.time())
        while not self.closed:
            item = await self._next_item()
            if isinstance(item, Stop):
                return
            try:
                if item is not None:
                    self._handle(item)
                if not self.closed:
                    self._run_timers(time.time())
            except Exception:
                log.exception("room %s failed handling %r", self.code, item)

    async def _next_item(self) -> RoomItem | None:
        wake = self._next_wake()
        if wake is None:
            return await self.queue.get()
        delay = wake - time.time()
        if delay <= 0:
            if not self.queue.empty():
                return self.queue.get_nowait()
            await asyncio.sleep(0)  # timers due back to back: let connections run
            return None
        try:
            async with asyncio.timeout(delay):
                return await self.queue.get()
        except TimeoutError:
            return None

    def _handle(self, item: RoomItem) -> None:
        if isinstance(item, Request):
            roomrequests.handle(self, item.peer, item.message)
        elif isinstance(item, Join):
            roomrequests.join(self, item.peer, item.spectate)
        elif isinstance(item, Resume):
            roomrequests.resume(self, item.peer, item.member_id, item.token)
        elif isinstance(item, Gone):
            seating.peer_gone(self, item.peer)

    # --- timers ----------------------------------------------------------

    @property
    def watched(self) -> bool:
        """Whether anyone is connected: bots only play for an audience."""
        return bool(self.spectators) or any(m.peer is not None for m in self.members)

    def _due_deadline(self) -> float | None:
        """The game's next deadline, unless a tick at it already found nothing to do."""
        if self.table is None or self.status != p.PLAYING:
            return None
        deadline = self.table.deadline()
        if deadline is None or (self.table.version, deadline) == self._idle_tick:
            return None
        return deadline

    def _next_wake(self) -> float | None:
        times: list[float] = []
        grace = self.config.grace_seconds
        watched = self.watched
        for member in self.members:
            if member.disconnected_at is not None and not member.left:
                times.append(member.disconnected_at + grace)
            if watched and member.brain is not None and member.brain.due is not None:
                times.append(member.brain.due)
        deadline = self._due_deadline()
        if deadline is not None:
            times.append(deadline)
        if self.idle_since is not None:
            times.append(self.idle_since + self.config.idle_room_seconds)
        return min(times) if times else None

    def _run_timers(self, now: float) -> None:
        for member in list(self.members):
            due = member.disconnected_at
            if due is not None and not member.left and now >= due + self.config.grace_seconds:
                seating.grace_over(self, member, now)
        if self.closed:
            return
        self._check_idle(now)
        if self.closed or self.table is None or self.status != p.PLAYING:
            return
        deadline = self._due_deadline()
        if deadline is not None and now >= deadline:
            events = self.table.tick(now)
            if events:
                self.changed(events, now)
            else:
                self._idle_tick = (self.table.version, deadline)
        self._bot_turn(now)

    def _bot_turn(self, now: float) -> None:
        """Let the first bot whose thinking time is up act (one per loop turn)."""
        if self.table is None or self.status != p.PLAYING or not self.watched:
            return
        for member in self.members:
            brain = member.brain
            if brain is None or brain.due is None or brain.due > now or member.seat is None:
                continue
            command = brain.choose(self.game, self.table.state, member.seat, now)
            if command is None:
                continue
            try:
                events = self.table.command(member.seat, command, now)
            except Exception as refused:
                log.debug("room %s: bot in seat %s refused: %s", self.code, member.seat, refused)
                continue
            self.changed(events, now)
            return

    def arm_bots(self, now: float) -> None:
        """After a change, every bot (and stand-in) may think about its next move."""
        if self.table is None or self.status != p.PLAYING or not self.watched:
            return
        for member in self.members:
            if member.brain is not None:
                member.brain.arm(now, self.config.bot_delay, self.jitter)

    def _check_idle(self, now: float) -> None:
        connected = self.spectators or any(m.peer is not None for m in self.members)
        if connected:
            self.idle_since = None
        elif self.idle_since is None:
            self.idle_since = now
        elif now >= self.idle_since + self.config.idle_room_seconds:
            self.close("nobody came back")

    # --- membership --------------------------------------------------------

    def member_at(self, seat: int) -> Member | None:
        for member in self.seated:
            if member.seat == seat:
                return member
        return None

    def renumber(self) -> None:
        """Compact seat numbers to join order (lobby only: no game refers to them)."""
        self.members = [member for member in self.members if not member.left]
        for seat, member in enumerate(self.members):
            member.seat = seat

    def close(self, reason: str) -> None:
        """End the room: everyone is told, the journal forgets it."""
        if self.closed:
            return
        self.closed = True
        for member in self.members:
            seating.detach(self, member, "room_closed")
        for peer in list(self.spectators):
            peer.member, peer.room = None, None
            peer.send({"t": p.LEFT, "code": self.code, "reason": "room_closed"})
        self.spectators.clear()
        roomhistory.room_closed(self)
        self.journal.delete_room(self.code)
        self.services.room_closed(self)
        log.info("room %s closed: %s", self.code, reason)

    # --- telling people ----------------------------------------------------

    def changed(self, events: Sequence[Event], now: float) -> None:
        """After an accepted change: views out, game-over bookkeeping, bots re-armed."""
        self.send_views(events)
        if self.table is not None and self.table.over and self.status == p.PLAYING:
            self.status = p.OVER
            for member in self.members:
                member.ready = False
                if not member.bot:
                    member.brain = None
            self.save()
            roomhistory.game_over(self, now)
            self.notice("The game is over.")
            self.broadcast_room()
        else:
            self.arm_bots(now)
