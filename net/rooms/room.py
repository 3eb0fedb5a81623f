"""A room: the members, spectators, settings and game of one table, its one task, and
every change to them.

One task per room (:meth:`Room.run`) takes queued items in arrival order, then
whatever timer is due, so there are no locks and claims are ordered by their
arrival. Client messages arrive validated: each room request is the room's
method of the same name, which checks who asks and does the work or hands it
to the part whose job it is (docs/architecture.md lists them). A refusal goes
back to the sender only; a failure handling one item is logged and the room
carries on: no client can stop a room. After each item its frames go out
behind the journal's commit. A room nobody is connected to closes after
``idle_room_seconds`` (after a restart, counted from the restart).

Seats change hands here. A disconnected player keeps the seat for the grace
period; past it the seat is away and a bot stands in (or the game is told
``seat_away``). A seat token always takes its seat back; a name alone only asks
the table (:mod:`.reclaiming`). The owner's chair passes on when its holder
leaves or goes away, never by name. Every change is journaled, so a restarted
host keeps each grace period where it was.

With the room option ``friends_take_bots``, a person joining a running game with
a bot in it waits (watching, with a seat token but no seat) until a round ends
or the game does, then takes the next bot's seat as it stands. Until then they
get the public view only, so the seat's hidden cards reach them only once the
seat is theirs.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from partyhost.engine.core import FRIENDS_TAKE_BOTS, Event, Game, IllegalMove, no_rounds
from partyhost.engine.playertext import clean_text, looks_blank
from partyhost.net import protocol as p
from partyhost.net.address import local_address
from partyhost.net.addresslimits import TokenBucket
from partyhost.net.config import HostConfig
from partyhost.net.credentials import new_token, token_hash
from partyhost.net.protocol import Refused, RetryLater
from partyhost.net.rooms.hostbots import DEFAULT_LEVEL, bot_level
from partyhost.net.rooms.journaledgame import Ceiling, Table
from partyhost.net.rooms.reclaiming import Reclaiming
from partyhost.net.rooms.roombroadcast import RoomBroadcast
from partyhost.net.rooms.roomgame import RoomGame
from partyhost.net.rooms.roomplay import RoomPlay
from partyhost.net.rooms.roomqueue import (
    CloseRoom,
    Gone,
    Join,
    Observer,
    Outgoing,
    Peer,
    Request,
    Resume,
    RoomItem,
    Stop,
)
from partyhost.net.rooms.roster import BanList, Member, Roster
from partyhost.net.store.database import Store
from partyhost.net.store.records import RoomRecord, StoredRoom

log = logging.getLogger(__name__)

Message = dict[str, Any]


class RoomServices(Protocol):
    """What a room needs from the host around it, with its index of seat tokens (by which
    players come back to their seat)."""

    @property
    def config(self) -> HostConfig: ...

    @property
    def store(self) -> Store: ...

    def room_closed(self, room: Room) -> None: ...

    def remember_token(self, token_hash: str, code: str, member_id: int) -> None: ...

    def forget_token(self, token_hash: str) -> None: ...


class Room:
    """A table of friends: members, spectators, settings and maybe a game."""

    def __init__(self, services: RoomServices, record: RoomRecord, game: Game, deck: Any) -> None:
        self._services = services
        self._config = config = services.config
        self.code = code = record.code
        self.closed = False
        """Set once by :meth:`close`; a closed room takes nothing more."""
        self._queue: asyncio.Queue[RoomItem] = asyncio.Queue()
        self._roster = roster = Roster(config, record.owner, record.next_member)
        door = local_address(config.host) if config.ssh_port is not None else None
        self._banned = BanList(
            door, set(record.banned_names or ()), set(record.banned_addresses or ())
        )
        """Kept with the room's record: a kick outlives a restart of the host."""
        ceiling = Ceiling(config.max_game_commands, config.max_game_journal_bytes)
        self._game = room_game = RoomGame(
            game, deck, record, services.store, roster, self._banned, ceiling
        )
        self._broadcast = RoomBroadcast(code, roster, room_game, config.max_pause_seconds)
        self._play = RoomPlay(config, room_game, roster, self._broadcast)
        self._play.at_round_start = self._hand_bot_seats
        self._pause_toggles = TokenBucket(
            config.pause_toggles_per_second, config.pause_toggle_burst
        )
        """Pauses and resumes of this room's game: an owner toggling costs no flood."""
        self._reclaiming = Reclaiming(roster, self._broadcast, config.reclaim_answer_seconds)
        self._resumes: dict[int, TokenBucket] = {}
        """Per member id: how often its seat may be taken back with a token (a reconnect
        loop must not take the seat over many times a second)."""
        self._presence_told: dict[int, TokenBucket] = {}
        """Per member id: how often the table may hear that its player dropped or came back."""
        self._given: dict[int, str] = {}
        """Per member id waiting for a bot's seat, the token handed out (sent again with it)."""
        self._told: dict[int, str] = {}
        """Per member id waiting for a bot's seat, what they were last told of their wait."""
        self._idle_since: float | None = None
        """When the last person connected left (None: someone is here)."""

    @classmethod
    def restore(
        cls, services: RoomServices, stored: StoredRoom, game: Game, deck: Any, now: float
    ) -> Room:
        """Rebuild a room from the store; its people have the grace period to return."""
        room = cls(services, stored.room, game, deck)
        for record in stored.members:
            room._roster.restore(record, now, room._play.brain, room._config.grace_seconds)
        room._game.rebuild(stored.commands)
        room._game.mark_over()  # in case the host stopped before marking it over
        room._idle_since = now
        return room

    # --- reading -------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self._game.game

    @property
    def deck(self) -> Any:
        return self._game.deck

    @property
    def deck_data(self) -> dict[str, Any]:
        return self._game.deck_data

    @property
    def password_hash(self) -> str | None:
        return self._game.password_hash

    @property
    def status(self) -> str:
        return self._game.status

    @property
    def table(self) -> Table | None:
        return self._game.table

    @property
    def members(self) -> tuple[Member, ...]:
        return self._roster.members

    @property
    def waiting(self) -> tuple[Member, ...]:
        """People without a seat waiting to take over a bot's (see the module's notes)."""
        return tuple(self._roster.waiting)

    @property
    def bots(self) -> RoomPlay:
        """When the room's bots act (its task wakes them; tests pin its ``jitter``)."""
        return self._play

    def summary(self) -> dict[str, Any]:
        return self._broadcast.summary()

    def save(self) -> None:
        self._game.save()

    # --- the task --------------------------------------------------------------

    def post(self, item: RoomItem) -> None:
        """Queue ``item`` for the room's task (from a connection or the host); once the room
        has closed its task is gone, so the item is answered here and now."""
        if self.closed:
            self._turn_away(item)
        else:
            self._queue.put_nowait(item)

    def _turn_away(self, item: RoomItem) -> None:
        """Answer what reached the room after it closed, so no connection waits on a room
        that is gone: a join, or a request from a connection still counted in the room, is
        refused and its connection is in no room (the seated were told at the close)."""
        if isinstance(item, Join | Resume) or (
            isinstance(item, Request) and item.peer.room is self
        ):
            if item.peer.room is self:
                item.peer.room = None
            self._handle(item)

    async def run(self, outgoing: Outgoing, observer: Observer) -> None:
        """Handle queued items and timers until the room closes or the host stops it."""
        self._play.arm_all(time.time())  # the task starts: bots may think (if anyone watches)
        while not self.closed:
            item = await self._next_item()
            if isinstance(item, Stop):
                return
            try:
                if item is not None:
                    self._handle(item)
                if not self.closed:
                    self.run_timers(time.time())
            except Exception:
                log.exception("room %s failed handling %r", self.code, item)
            outgoing.flush()
            if isinstance(item, Request):
                observer.handled(item)
        while not self._queue.empty():  # queued before the room closed
            self._turn_away(self._queue.get_nowait())
        outgoing.flush()

    async def _next_item(self) -> RoomItem | None:
        """The next queued item, or None when a timer is due first."""
        wake = self.next_wake()
        if wake is None:
            return await self._queue.get()
        delay = wake - time.time()
        if delay <= 0:
            if not self._queue.empty():
                return self._queue.get_nowait()
            await asyncio.sleep(0)  # timers due back to back: let connections run
            return None
        try:
            async with asyncio.timeout(delay):
                return await self._queue.get()
        except TimeoutError:
            return None

    def _handle(self, item: RoomItem) -> None:
        """Do what ``item`` asks; a refusal goes back to the asker only."""
        peer = item.peer if isinstance(item, Join | Resume | Request) else None
        ref = None
        try:
            if isinstance(item, Request):
                kind = item.message["t"]
                ref = item.message.get("ref") if kind == p.PLAY else None
                if kind == p.LEAVE_ROOM and self._reclaiming.withdraw(item.peer):
                    return  # a visitor stops waiting for the table's answer
                in_room = item.peer.room is self and not self._reclaiming.asking(item.peer)
                if not in_room or self.closed:
                    raise Refused("not_in_room", "You are not in that room any more.")
                HANDLERS[kind](self, item.peer, item.message)
            elif isinstance(item, Join):
                self.join(item.peer, item.spectate)
            elif isinstance(item, Resume):
                self.resume(item.peer, item.member_id, item.token)
            elif isinstance(item, Gone):
                self.connection_lost(item.peer)
            elif isinstance(item, CloseRoom):
                self.close_by_host()
        except Refused as refused:  # its own frame: some say when to try again
            if isinstance(item, Join | Resume) and item.peer.room is self:
                item.peer.room = None  # no seat and not watching: in no room
            if peer is not None:
                peer.send(refused.frame(ref))
        except IllegalMove as illegal:
            if peer is not None:
                peer.send(p.error(illegal.code, illegal.message, ref))

    # --- coming in -------------------------------------------------------------

    def join(self, peer: Peer, spectate: bool) -> None:
        """A newcomer watches, waits for a bot's seat, or sits down (or asks the table). A
        connected player's seat is never taken: mid-game the namesake is refused, between
        games they get a seat of their own under a name made unique."""
        if peer.closed:
            return  # gone before its turn in the queue
        if self.closed:
            raise Refused("no_such_room", "That room has just closed.")
        self._banned.check(peer.name, peer.peer_host)
        if spectate:
            self._roster.add_spectator(peer)
            self._welcome(peer, None, None)
            return
        if self._wait(peer):
            return
        member = self._roster.person_named(peer.name)
        if member is not None and not member.here:
            self._reclaiming.ask(peer, member)
            return
        if member is not None and self._game.playing:
            raise Refused(
                "name_in_use",
                f"{member.name} is at this table and connected. If that is you, your old "
                "connection has not dropped yet: try again in a few seconds; else pick "
                "another name.",
            )
        token = new_token()
        member = self._sit(peer.name, token_hash(token))
        self._services.remember_token(token_hash(token), self.code, member.member_id)
        self._game.save()
        self._broadcast.notice(f"{member.name} joined.")  # the newcomer gets `joined` first
        member.peer = peer
        self._welcome(peer, member, token)

    def _sit(self, wanted: str, hashed_token: str | None, level: str | None = None) -> Member:
        """A new member (a bot if it has a ``level``) at the next free seat, dealt into a
        running game."""
        game, playing = self._game.game, self._game.playing
        if playing and not game.joins_mid_game:
            raise Refused(
                "game_in_progress", f"{game.name} takes no players mid-game; spectate instead."
            )
        if not game.has_free_seat(len(self._roster.seated)):
            raise Refused("room_full", f"All {game.max_players} seats are taken.")
        name = self._roster.fresh_name(wanted)
        # The seat: compact in the lobby, after every number once a game ran.
        seats = [m.seat for m in self.members if m.seat is not None]
        seat = len(self._roster.seated) if self._game.in_lobby else max(seats, default=-1) + 1
        member = self._roster.new_member(name, seat, hashed_token, bot_level=level)
        if level is not None:
            member.brain = self._play.brain(level, member.bot_seed)
        member.newcomer = level is None and playing
        now = time.time()
        events = self._game.seat_joined(seat, now) if playing and self._game.table else None
        self._roster.add(member)
        if events is not None:
            self._play.changed(events, now)
        if self._roster.owner is None and member.human:  # the first person owns the room
            self._roster.make_owner(member)
        return member

    def resume(self, peer: Peer, member_id: int, token: str) -> None:
        """The player of ``member_id`` is back on ``peer`` with the seat token: same seat (or
        place in the wait for a bot's), fresh view. The seat's first token ends one given
        when the seat was taken back by name. Past the seat's resume rate the newcomer is
        refused (``rate_limited``) and whoever holds the seat keeps it."""
        waiter = next((m for m in self._roster.waiting if m.member_id == member_id), None)
        if waiter is not None and not self.closed:  # back after a restart, or a dropped link
            self._take_link(waiter, peer)
            self._roster.add_spectator(peer)
            self._given[member_id] = token
            self._attach_waiter(peer, waiter, token)
            return
        member = self._roster.member_by_id(member_id)
        if self.closed or member is None or member.left:
            raise Refused("token_unknown", "That seat is no longer yours; join a room again.")
        config = self._config
        fresh = TokenBucket(config.resumes_per_second, config.resume_burst)
        bucket = self._resumes.setdefault(member.member_id, fresh)
        if not bucket.take():
            wait = bucket.seconds_to_token(time.monotonic())
            raise RetryLater(
                "rate_limited",
                f"{member.name}'s seat was taken back too often just now;"
                f" try again in {math.ceil(wait)} s.",
                wait,
            )
        self._reclaiming.settle(f"{member.name} came back with their own seat token.", member)
        if token_hash(token) == member.token_hash:
            self._forget_second_token(member)
        self._take_link(member, peer)
        self._return(peer, member, token)

    def _take_link(self, member: Member, peer: Peer) -> None:
        """An older connection of ``member`` gives way to ``peer``."""
        old = member.release()
        if old is not None and old is not peer:
            self._roster.drop_spectator(old)
            self._broadcast.send_out(old, "replaced")
            old.close("replaced by a newer connection")

    def reclaim_answer(self, peer: Peer, message: Message) -> None:
        """The one asked "Ann is back?" answers; on a yes the visitor takes the seat back with
        a new token (the seat's first token still wins) and, if the seat owned the room, the
        chair goes to the one who said yes."""
        approver = self._player(peer)
        granted = self._reclaiming.answer(approver, message["ask"], bool(message["yes"]))
        if granted is None:
            return
        visitor, member = granted
        old = member.release()
        if old is not None:  # closed, its ``Gone`` still queued
            old.room = None
        if self._roster.is_owner(member):
            if approver.peer is not None and not approver.left:
                self._roster.make_owner(approver)
                self._broadcast.notice(f"{approver.name} now owns the room.")
            else:
                self._hand_over()
        self._forget_second_token(member)
        token = new_token()
        member.second_token_hash = token_hash(token)
        self._services.remember_token(member.second_token_hash, self.code, member.member_id)
        self._return(visitor, member, token)

    def _forget_second_token(self, member: Member) -> None:
        if member.second_token_hash is not None:
            self._services.forget_token(member.second_token_hash)
            member.second_token_hash = None

    def _return(self, peer: Peer, member: Member, token: str) -> None:
        """Seat ``member``'s player on ``peer``; the others hear first, then it gets ``joined``."""
        self._back_in(member, time.time())
        self._game.save()
        self._tell_presence(member, f"{member.name} is back.")
        member.peer = peer
        self._welcome(peer, member, token)

    def _back_in(self, member: Member, now: float) -> None:
        """No grace period runs for ``member`` and it is not away (the game hears it)."""
        member.end_grace()
        if member.away and member.come_back():
            self._system("seat_back", member, now)

    def _welcome(self, peer: Peer, member: Member | None, token: str | None) -> None:
        self._broadcast.welcome(peer, None if member is None else member.seat, token)
        self._play.arm_all(time.time())  # bots play only while someone is watching

    def _tell_presence(self, member: Member, text: str) -> None:
        """Tell the table that ``member`` dropped or came back: a few times in a row, then
        once per ``presence_notice_seconds`` (the room message shows every change anyway)."""
        config = self._config
        fresh = TokenBucket(1.0 / config.presence_notice_seconds, config.presence_notice_burst)
        if self._presence_told.setdefault(member.member_id, fresh).take():
            self._broadcast.notice(text)

    # --- dropping and staying away --------------------------------------------------

    def connection_lost(self, peer: Peer) -> None:
        """A connection closed: a spectator is gone, a player's grace period starts, one
        waiting for a bot's seat keeps their place (their token brings them back)."""
        if self._reclaiming.withdraw(peer):
            return
        waiter = self._roster.waiting_of(peer)
        if waiter is not None:
            waiter.release()
        if self._roster.drop_spectator(peer):
            self._broadcast.room()
            return
        member = self._roster.member_of(peer)
        if member is None:
            return
        config = self._config
        grace = config.grace_seconds
        if member.newcomer:  # a newcomer who never acted has a short grace period
            grace = min(config.ghost_grace_seconds, grace)
        now = time.time()
        member.disconnect(now, grace)
        self._game.save()
        self._tell_presence(member, f"{member.name} lost connection.")
        self._broadcast.room()
        self._play.seen(member.seat, now)

    def _grace_over(self, member: Member, now: float) -> None:
        member.end_grace()
        if not self._game.playing:
            self._remove(member, "disconnected", now)
            return
        member.go_away()
        if self._game.bot_takeover:
            self._broadcast.notice(
                f"{member.name} is away; a bot plays for them until they return."
            )
            self._play.stand_in(member, now)
        else:
            self._broadcast.notice(f"{member.name} is away.")
            if self._system("seat_away", member, now):
                member.engine_away = True
        if self._roster.is_owner(member):
            self._hand_over()
        self._game.save()
        self._broadcast.room()

    def replace_with_bot(self, peer: Peer, message: Message) -> None:
        """The owner has a bot play a disconnected or away player's seat now (one the game set
        aside, ``seat_away``, is dealt back in first); the person can still come back."""
        owner, seat = self._owner(peer), message["seat"]
        if not self._game.playing:
            raise Refused("not_playing", "No game is running in this room.")
        member = self._roster.member_at(seat)
        if member is None or member.bot or not self._game.in_game(seat):
            raise Refused("bad_seat", f"No player of this game sits in seat {seat}.")
        if member.peer is not None:
            raise Refused(
                "player_connected",
                f"{member.name} is connected; only an absent player's seat can go to a bot.",
            )
        if member.playing_bot:
            raise Refused("bad_seat", f"A bot already plays for {member.name}.")
        now = time.time()
        self._back_in(member, now)
        member.go_away()
        self._play.stand_in(member, now)
        self._game.save()
        self._broadcast.notice(f"{owner.name} put a bot in {member.name}'s seat until they return.")
        self._broadcast.room()

    def give_ownership(self, peer: Peer, message: Message) -> None:
        owner, seat = self._owner(peer), message["seat"]
        member = self._roster.member_at(seat)
        if member is None or member is owner or member.bot:
            raise Refused("bad_seat", f"No other person sits in seat {seat}.")
        if member.peer is None:
            raise Refused(
                "not_connected", f"{member.name} is not connected; hand the room to someone here."
            )
        self._roster.make_owner(member)
        self._game.save()
        self._broadcast.notice(f"{owner.name} handed the room to {member.name}.")
        self._broadcast.room()

    # --- leaving -----------------------------------------------------------------

    def leave_room(self, peer: Peer, message: Message) -> None:
        """The asker leaves for good (a player's seat is freed, or played on in a game; a
        spectator or someone waiting for a bot's seat just goes)."""
        member = self._roster.member_of(peer)
        if member is not None:
            self._remove(member, "left", time.time())
            return
        waiter = self._roster.waiting_of(peer)
        if waiter is not None:
            self._forget_waiter(waiter)
            self._game.save()
        self._roster.drop_spectator(peer)
        self._broadcast.send_out(peer, "left")
        self._broadcast.room()
        if waiter is not None:
            self._tell_waiters()

    def kick(self, peer: Peer, message: Message) -> None:
        owner, seat = self._owner(peer), message["seat"]
        target = self._roster.member_at(seat)
        if target is None or target is owner:
            raise Refused("bad_seat", f"No one else sits in seat {seat}.")
        if target.human:
            self._banned.ban(target.name, None if target.peer is None else target.peer.peer_host)
        self._remove(target, "kicked", time.time())

    def add_bot(self, peer: Peer, message: Message) -> None:
        """The owner seats a bot of the level asked for (always ready) at the next free seat."""
        self._owner(peer)
        level = bot_level(message.get("level"))
        count = sum(1 for m in self._roster.seated if m.bot) + 1
        member = self._sit(f"Bot {count}", None, level)
        self._game.save()
        article = "an" if level[0] in "aeiou" else "a"
        kind = "a bot" if level == DEFAULT_LEVEL else f"{article} {level} bot"
        self._broadcast.notice(f"{member.name} ({kind}) joined.")
        self._broadcast.room()

    def remove_bot(self, peer: Peer, message: Message) -> None:
        self._owner(peer)
        seat = message["seat"]
        target = self._roster.member_at(seat)
        if target is None:
            raise Refused("bad_seat", f"No one sits in seat {seat}.")
        if not target.bot:
            raise Refused("not_a_bot", f"{target.name} is not a bot.")
        self._remove(target, "removed", time.time())

    def _remove(self, member: Member, reason: str, now: float) -> None:
        """A member leaves for good (left, kicked, removed, disconnected in the lobby); the
        room closes when no person is left in it."""
        self._play.seen(member.seat, now)
        self._detach(member, reason)
        member.leave()
        if self._game.in_lobby:
            self._roster.renumber()
        elif (
            self._game.playing
            and self._game.in_game(member.seat)
            and not self._system("seat_left", member, now)
        ):
            # The game cannot drop this seat now: keep it played rather than stall the table.
            if self._game.bot_takeover:
                self._play.stand_in(member, now)
            else:
                self._system("seat_away", member, now)
        verb = {"kicked": "was kicked", "removed": "was removed"}.get(reason, "left")
        self._broadcast.notice(f"{member.name} {verb}.")
        if self._roster.is_owner(member):
            self._hand_over()
        if not any(m.human for m in self._roster.seated):
            self.close("everyone left")
            return
        self._game.save()
        self._broadcast.room()

    def close_by_host(self) -> None:
        if self.closed:
            return
        self._broadcast.notice("The host closed this room.")
        self.close("closed by the host", "closed_by_host")

    def close(self, reason: str, told: str = "room_closed") -> None:
        """End the room: everyone gets ``left`` with reason ``told``, every token is
        forgotten, the store forgets the room."""
        if self.closed:
            return
        self.closed = True
        self._reclaiming.settle("That room has closed.")
        for member in self._roster.members:
            self._detach(member, told)
        for peer in self._roster.spectators:
            self._roster.drop_spectator(peer)
            self._broadcast.send_out(peer, told)
        self._game.forget()
        self._play.at_round_start = None  # a reference back: reference counting frees the room
        self._services.room_closed(self)
        log.info("room %s closed: %s", self.code, reason)

    def _system(self, kind: str, member: Member, now: float) -> bool:
        """Tell the game ``kind`` about ``member``'s seat; True if it took it."""
        events = None if member.seat is None else self._game.system(kind, member.seat, now)
        if events is not None:
            self._play.changed(events, now)
        return events is not None

    def _detach(self, member: Member, reason: str) -> None:
        """Tell the member's connection it is out of the room, and forget its tokens."""
        peer = member.release()
        if peer is not None:
            self._broadcast.send_out(peer, reason)
        if member.token_hash is not None:
            self._services.forget_token(member.token_hash)
        self._forget_second_token(member)
        self._reclaiming.settle(f"{member.name}'s seat is gone.", member)

    def _hand_over(self) -> None:
        owner = self._roster.hand_over()
        if owner is not None:
            self._broadcast.notice(f"{owner.name} now owns the room.")

    # --- waiting for a bot's seat -------------------------------------------------

    def _takeovers_chosen(self) -> bool:
        return (self._game.rules or {}).get(FRIENDS_TAKE_BOTS.name) is True

    def _dealt_bots(self) -> list[Member]:
        return [m for m in self._roster.seated if m.bot and self._game.in_game(m.seat)]

    def _wait(self, peer: Peer) -> bool:
        """Let a newcomer wait for a bot's seat; False when the room has none to hand over
        (or the name is a seated person's: that is settled like any other join)."""
        roster = self._roster
        takeovers = self._game.playing and self._takeovers_chosen()
        if not takeovers or not self._dealt_bots() or roster.person_named(peer.name):
            return False
        try:
            roster.add_spectator(peer)
        except Refused:
            return False  # the room's spectators are at their cap: the newcomer sits down
        token = new_token()
        member = roster.new_member(roster.fresh_name(peer.name), None, token_hash(token))
        roster.waiting.append(member)
        self._given[member.member_id] = token
        self._services.remember_token(token_hash(token), self.code, member.member_id)
        self._game.save()
        self._attach_waiter(peer, member, token)
        return True

    def _attach_waiter(self, peer: Peer, member: Member, token: str) -> None:
        member.peer = peer
        self._told.pop(member.member_id, None)  # a new link hears it again
        self._broadcast.welcome(peer, None, token)
        self._tell_wait(member)

    def _tell_wait(self, member: Member) -> None:
        """Tell ``member`` whose seat they are to take, unless they were told just that."""
        if member.peer is None:
            return
        bots = self._dealt_bots()
        place = self._roster.waiting.index(member)
        if place >= len(bots):
            text = "Every bot's seat is promised: you watch, and take the next one that is free."
        else:
            at_end = self._game.game.round_over is no_rounds  # no rounds: seats change at the end
            when = "when this game ends" if at_end else "at the next round"
            text = f"You take {bots[place].name}'s seat {when}."
        if self._told.get(member.member_id) != text:
            self._told[member.member_id] = text
            member.peer.send({"t": p.NOTICE, "text": text})

    def _forget_waiter(self, member: Member) -> None:
        self._roster.waiting.remove(member)
        self._given.pop(member.member_id, None)
        self._told.pop(member.member_id, None)
        if member.token_hash is not None:
            self._services.forget_token(member.token_hash)

    def _tell_waiters(self) -> None:
        for member in self._roster.waiting:
            self._tell_wait(member)

    def _hand_bot_seats(self, events: Sequence[Event], over: bool) -> None:
        """Hand bots' seats over if ``events`` ended a round or the game is ``over``; once
        it is over, whoever still waits watches (an absent one is forgotten)."""
        roster = self._roster
        if not roster.waiting:
            return
        takeovers = self._takeovers_chosen()
        if not over and not (
            takeovers and self._game.playing and self._game.game.round_over(events)
        ):
            return
        if takeovers:
            for waiter in [m for m in roster.waiting if m.peer is not None]:
                bots = self._dealt_bots()
                if not bots:
                    break
                peer, bot, bot_name = waiter.peer, bots[0], bots[0].name
                assert peer is not None
                self._told.pop(waiter.member_id, None)
                roster.replace(bot, waiter)
                waiter.newcomer = self._game.playing
                roster.drop_spectator(peer)
                self._game.save()
                self._broadcast.notice(f"{waiter.name} takes over {bot_name}'s seat.")
                token = self._given.pop(waiter.member_id, None)
                self._broadcast.welcome(peer, waiter.seat, token, chat=False)
        if not over:
            self._tell_waiters()
            return
        for member in list(roster.waiting):
            if member.peer is not None:
                member.peer.send(
                    {"t": p.NOTICE, "text": "No bot's seat was left for you: you watch."}
                )
            self._forget_waiter(member)
        self._game.save()
        self._broadcast.room()

    # --- between games --------------------------------------------------------------

    def set_ready(self, peer: Peer, message: Message) -> None:
        member = self._player(peer)
        self._between_games()
        member.ready = bool(message["ready"])
        self._game.save()
        self._broadcast.room()

    def set_options(self, peer: Peer, message: Message) -> None:
        """The owner changes game options (the game checks them); everyone else readies again."""
        self._owner(peer)
        self._between_games()
        merged = {**self._game.options, **message["options"]}
        self.game.rules_for(merged)  # raises IllegalMove("bad_option", ...)
        takeover = message.get("bot_takeover")
        self._game.choose(merged, None if takeover is None else bool(takeover))
        for member in self._roster.seated:
            if not self._roster.is_owner(member):
                member.ready = False
        self._game.save()
        self._broadcast.room()

    def start_game(self, peer: Peer, message: Message) -> None:
        self._owner(peer)
        self._between_games()
        self.game.check_player_count(len(self._roster.seated))  # raises IllegalMove("player_count")
        self._play.start(self.game.rules_for(self._game.options), self._config.grace_seconds)

    def pause_game(self, peer: Peer, message: Message) -> None:
        """The owner stops the game's clock: no timers, no moves, bots wait."""
        owner = self._owner(peer)
        self._rate_pause_toggles()
        self._play.pause(owner.name, time.time())

    def resume_game(self, peer: Peer, message: Message) -> None:
        """The owner resumes the game; anyone else seated asks to (a majority resumes it)."""
        member = self._player(peer)
        if not self._roster.is_owner(member):
            self._play.ask_to_resume(member, time.time())
            return
        self._rate_pause_toggles()
        self._play.resume(member.name, time.time())

    def _rate_pause_toggles(self) -> None:
        if not self._pause_toggles.take():
            raise Refused(
                "rate_limited", "Pausing and resuming this fast is not taken; wait a little."
            )

    # --- playing and talking ------------------------------------------------------------

    def play(self, peer: Peer, message: Message) -> None:
        """A player's command for the game (IllegalMove if refused); one who plays has read
        the round's result. With a ``ref``, ``accepted`` goes out before the view."""
        member = self._player(peer)
        now = time.time()
        self._play.seen(member.seat, now)
        events = self._game.command(member.seat, message["cmd"], now)
        ref = message.get("ref")
        if ref is not None and (table := self._game.table) is not None:
            peer.send({"t": p.ACCEPTED, "ref": ref, "version": table.version})
        self._play.changed(events, now)
        member.newcomer = False  # a command of theirs was taken: no short grace any more

    def seen(self, peer: Peer, message: Message) -> None:
        self._play.seen(self._player(peer).seat, time.time())

    def chat(self, peer: Peer, message: Message) -> None:
        """A chat line to everyone in the room (the connection checked the chat rate)."""
        member = self._roster.member_of(peer)
        line = clean_text(message["text"], self._config.max_chat_length)
        if looks_blank(line):  # the deck checks' test: a line nobody would see is no line
            raise Refused("empty_chat", "That chat line shows nothing.")
        seat, name = (None, peer.name) if member is None else (member.seat, member.name)
        self._broadcast.chat(seat, name, line)

    # --- the clock -------------------------------------------------------------------

    def next_wake(self) -> float | None:
        """When a timer is next due: a grace period (none runs while the game is paused), a
        question to the table, a bot, a game deadline, the end of a round's result, an idle
        room."""
        idle_end = None
        if self._idle_since is not None:
            idle_end = self._idle_since + self._config.idle_room_seconds
        graces = [] if self._game.clock.paused else [m.grace_ends() for m in self.members]
        due = (
            *graces,
            self._reclaiming.next_end(),
            self._play.next_due(),
            self._game.due_deadline(),
            self._game.result_pause_ends(),
            self._play.pause_ends(),
            idle_end,
        )
        return min((when for when in due if when is not None), default=None)

    def run_timers(self, now: float) -> None:
        """Whatever is due by ``now``: unanswered questions, graces (whose player is then
        away in a game, or gone), closing an empty room, game ticks, one bot."""
        self._reclaiming.run(now)
        for member in self.members if not self._game.clock.paused else ():
            end = member.grace_ends()
            if end is not None and now >= end:
                self._grace_over(member, now)
                if self.closed:
                    return
        if self._roster.watched:
            self._idle_since = None
        elif self._idle_since is None:
            self._idle_since = now
        elif now >= self._idle_since + self._config.idle_room_seconds:
            self.close("nobody came back")
            return
        self._play.run_timers(now)

    # --- who may ask -----------------------------------------------------------------

    def _player(self, peer: Peer) -> Member:
        member = self._roster.member_of(peer)
        if member is None:
            raise Refused("not_a_player", "Spectators cannot do that.")
        return member

    def _owner(self, peer: Peer) -> Member:
        member = self._player(peer)
        if not self._roster.is_owner(member):
            raise Refused("not_owner", "Only the room's owner may do that.")
        return member

    def _between_games(self) -> None:
        if self._game.playing:
            raise Refused("not_in_lobby", "Not while a game is running.")


Handler = Callable[[Room, Peer, Message], None]

HANDLERS: dict[str, Handler] = {
    kind: getattr(Room, kind) for kind in p.CLIENT_MESSAGES if hasattr(Room, kind)
}
"""Every room request by message type: the room's method of that name (the lobby's
requests are answered by the host)."""
