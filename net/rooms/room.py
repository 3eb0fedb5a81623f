"""A room: the members, spectators, settings and game of one table, and every change to them.

Each method checks who asks, then hands the work to the part whose job it is
(docs/architecture.md lists them). Only the room's task calls it, one queue
item or timer at a time, so there are no locks and claims are ordered by their
arrival. A room nobody is connected to closes after ``idle_room_seconds``
(after a restart, counted from the restart).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Protocol

from partyhost.engine.core import Command, Game
from partyhost.engine.playertext import clean_text, looks_blank
from partyhost.net import protocol as p
from partyhost.net.address import local_address
from partyhost.net.addresslimits import TokenBucket
from partyhost.net.config import HostConfig
from partyhost.net.protocol import Refused
from partyhost.net.rooms.hostbots import bot_level
from partyhost.net.rooms.journaledgame import Ceiling, Table
from partyhost.net.rooms.members import Member
from partyhost.net.rooms.reclaiming import Reclaiming
from partyhost.net.rooms.roombroadcast import RoomBroadcast
from partyhost.net.rooms.roomgame import RoomGame, RoomSettings
from partyhost.net.rooms.roomplay import RoomBots, RoomPlay
from partyhost.net.rooms.roomqueue import Peer, RoomItem
from partyhost.net.rooms.roomrecords import RoomRecords
from partyhost.net.rooms.roster import BanList, Roster
from partyhost.net.rooms.seating import Seating, SeatTokens
from partyhost.net.store.database import Store
from partyhost.net.store.records import RoomRecord, StoredRoom

log = logging.getLogger(__name__)


class RoomServices(SeatTokens, Protocol):
    """What a room needs from the host around it."""

    @property
    def config(self) -> HostConfig: ...

    @property
    def store(self) -> Store: ...

    def room_closed(self, room: Room) -> None: ...


class Room:
    """A table of friends: members, spectators, settings and maybe a game."""

    def __init__(self, services: RoomServices, record: RoomRecord, game: Game, deck: Any) -> None:
        self._services = services
        self._config = config = services.config
        self.code = code = record.code
        self.closed = False
        """Set once by :meth:`close`; a closed room takes nothing more."""
        self._queue: asyncio.Queue[RoomItem] = asyncio.Queue()
        self._settings = settings = RoomSettings.of(record)
        self._roster = roster = Roster(config, record.owner, record.next_member)
        ceiling = Ceiling(config.max_game_commands, config.max_game_journal_bytes)
        self._game = room_game = RoomGame(game, deck, record, services.store, ceiling)
        door = local_address(config.host) if config.ssh_port is not None else None
        self._banned = BanList(door, record.banned_names or (), record.banned_addresses or ())
        """Kept with the room's record: a kick outlives a restart of the host."""
        self._records = RoomRecords(services.store, code, settings, roster, room_game, self._banned)
        self._bots = RoomBots(code, config, roster, room_game)
        self._broadcast = RoomBroadcast(code, settings, roster, room_game, config.max_pause_seconds)
        self._play = RoomPlay(
            room_game,
            roster,
            self._bots,
            self._broadcast,
            self._records,
            config.max_pause_seconds,
        )
        self._pause_toggles = TokenBucket(
            config.pause_toggles_per_second, config.pause_toggle_burst
        )
        """Pauses and resumes of this room's game: an owner toggling costs no flood."""
        self._reclaiming = Reclaiming(code, roster, self._broadcast, config.reclaim_answer_seconds)
        self._seating = Seating(
            code,
            config,
            services,
            settings=settings,
            roster=roster,
            game=room_game,
            bots=self._bots,
            broadcast=self._broadcast,
            play=self._play,
            records=self._records,
            reclaiming=self._reclaiming,
        )
        self._play.at_round_start = self._seating.after_change
        self._idle_since: float | None = None
        """When the last person connected left (None: someone is here)."""

    @classmethod
    def restore(
        cls, services: RoomServices, stored: StoredRoom, game: Game, deck: Any, now: float
    ) -> Room:
        """Rebuild a room from the store; its people have the grace period to return."""
        room = cls(services, stored.room, game, deck)
        for record in stored.members:
            room._roster.restore(record, now, room._bots.brain, room._config.grace_seconds)
        room._game.rebuild(stored.commands)
        room._records.game_over()  # in case the host stopped before marking it over
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
        return self._settings.deck_data

    @property
    def password_hash(self) -> str | None:
        return self._settings.password_hash

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
        """People without a seat waiting to take over a bot's (:mod:`.seating`)."""
        return self._roster.waiting

    @property
    def bots(self) -> RoomBots:
        """When the room's bots act (its task wakes them; tests pin its ``jitter``)."""
        return self._bots

    def has(self, peer: Peer) -> bool:
        """Whether ``peer`` is in this room (seated or watching) and the room is open; a
        visitor waiting for the table to confirm who they are is not in it yet."""
        return peer.room is self and not self.closed and not self._reclaiming.asking(peer)

    def summary(self) -> dict[str, Any]:
        """This room as the lobby's ``rooms`` list shows it."""
        return self._broadcast.summary()

    def save(self) -> None:
        self._records.save()

    # --- the queue -------------------------------------------------------------

    def post(self, item: RoomItem) -> None:
        """Queue ``item`` for the room's task (from a connection or the host)."""
        self._queue.put_nowait(item)

    async def next_item(self) -> RoomItem | None:
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

    # --- people coming and going ---------------------------------------------------

    def join(self, peer: Peer, spectate: bool) -> None:
        """A newcomer takes the next seat, or watches (refused: the room task clears its room)."""
        if peer.closed:
            return  # gone before its turn in the queue
        if self.closed:
            raise Refused("no_such_room", "That room has just closed.")
        self._banned.check(peer.name, peer.peer_host)
        self._seating.join(peer, spectate)

    def resume(self, peer: Peer, member_id: int, token: str) -> None:
        """A player is back with their seat token: same seat, fresh room and view."""
        if self.closed or not self._seating.resume(peer, member_id, token):
            raise Refused("token_unknown", "That seat is no longer yours; join a room again.")

    def connection_lost(self, peer: Peer) -> None:
        if self._reclaiming.withdraw(peer):
            return
        member = self._roster.member_of(peer)
        self._seating.lost(peer)
        self._play.seen(None if member is None else member.seat, time.time())

    def withdraw(self, peer: Peer) -> bool:
        """A visitor waiting for the table's answer gives up (``leave_room``); False if
        ``peer`` was not waiting."""
        return self._reclaiming.withdraw(peer)

    def answer_reclaim(self, peer: Peer, ask: int, yes: bool) -> None:
        """The one asked "Ann is back?" answers; on a yes the visitor gets the seat."""
        by = self._player(peer)
        granted = self._reclaiming.answer(by, ask, yes)
        if granted is not None:
            visitor, member = granted
            self._seating.reclaim(visitor, member, by)

    def leave(self, peer: Peer) -> None:
        """The asker leaves for good (a player's seat is freed, or played on in a game)."""
        member = self._roster.member_of(peer)
        if member is None:
            self._seating.leave_watching(peer)
        else:
            self._remove(member, "left")

    def kick(self, peer: Peer, seat: int) -> None:
        """The owner sends someone else away."""
        owner = self._owner(peer)
        target = self._roster.member_at(seat)
        if target is None or target is owner:
            raise Refused("bad_seat", f"No one else sits in seat {seat}.")
        if target.human:
            self._banned.ban(target.name, None if target.peer is None else target.peer.peer_host)
        self._remove(target, "kicked")

    def add_bot(self, peer: Peer, level: str | None) -> None:
        """The owner seats a bot of ``level`` (None: the default level)."""
        self._owner(peer)
        self._seating.seat_bot(bot_level(level))

    def replace_with_bot(self, peer: Peer, seat: int) -> None:
        """The owner has a bot play a disconnected or away player's seat now."""
        owner = self._owner(peer)
        if not self._game.playing:
            raise Refused("not_playing", "No game is running in this room.")
        self._seating.stand_in_now(seat, owner, time.time())

    def give_ownership(self, peer: Peer, seat: int) -> None:
        """The owner hands the room to another person who is here."""
        self._seating.give_ownership(seat, self._owner(peer))

    def remove_bot(self, peer: Peer, seat: int) -> None:
        self._owner(peer)
        target = self._roster.member_at(seat)
        if target is None:
            raise Refused("bad_seat", f"No one sits in seat {seat}.")
        if not target.bot:
            raise Refused("not_a_bot", f"{target.name} is not a bot.")
        self._remove(target, "removed")

    def _remove(self, member: Member, reason: str) -> None:
        self._play.seen(member.seat, time.time())
        if not self._seating.remove(member, reason, time.time()):
            self.close("everyone left")

    def close_by_host(self) -> None:
        """The host's console closes the room; everyone in it is told why."""
        if self.closed:
            return
        self._broadcast.notice("The host closed this room.")
        self.close("closed by the host", "closed_by_host")

    def close(self, reason: str, told: str = "room_closed") -> None:
        """End the room: everyone gets ``left`` with reason ``told``, the store forgets it."""
        if self.closed:
            return
        self.closed = True
        self._seating.clear_out(told)
        self._records.forget()
        self._services.room_closed(self)
        log.info("room %s closed: %s", self.code, reason)

    # --- between games --------------------------------------------------------------

    def set_ready(self, peer: Peer, ready: bool) -> None:
        member = self._player(peer)
        self._between_games()
        member.ready = ready
        self._records.save()
        self._broadcast.room()

    def set_options(self, peer: Peer, options: dict[str, Any], bot_takeover: bool | None) -> None:
        """The owner changes game options (the game checks them); everyone else readies again."""
        self._owner(peer)
        self._between_games()
        merged = {**self._settings.options, **options}
        self.game.rules_for(merged)  # raises IllegalMove("bad_option", ...)
        self._settings.choose(merged, bot_takeover)
        for member in self._roster.seated:
            if not self._roster.is_owner(member):
                member.ready = False
        self._records.save()
        self._broadcast.room()

    def start_game(self, peer: Peer) -> None:
        """The owner deals a game to everyone seated."""
        self._owner(peer)
        self._between_games()
        game = self.game
        game.check_player_count(len(self._roster.seated))  # raises IllegalMove("player_count")
        self._play.start(game.rules_for(self._settings.options), self._config.grace_seconds)

    def pause(self, peer: Peer) -> None:
        """The owner stops the game's clock: no timers, no moves, bots wait."""
        owner = self._owner(peer)
        self._rate_pause_toggles()
        self._play.pause(owner.name, time.time())

    def resume_game(self, peer: Peer) -> None:
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

    def play(self, peer: Peer, command: Command, ref: int | None = None) -> None:
        """A player's command for the game; raises IllegalMove if the game refuses it.

        Someone who plays while the table reads a round's result has read it.
        With a ``ref``, an accepted command is acknowledged (``accepted``) before its view.
        """
        member = self._player(peer)
        now = time.time()
        self._play.seen(member.seat, now)
        events = self._game.command(member.seat, command, now)
        if ref is not None and (table := self._game.table) is not None:
            peer.send({"t": p.ACCEPTED, "ref": ref, "version": table.version})
        self._play.changed(events, now)
        member.acted()

    def seen(self, peer: Peer) -> None:
        """A player has read the round's result; the table goes on once everyone has."""
        self._play.seen(self._player(peer).seat, time.time())

    def chat(self, peer: Peer, text: str) -> None:
        """A chat line to everyone in the room (the chat rate was checked per address before)."""
        member = self._roster.member_of(peer)
        line = clean_text(text, self._config.max_chat_length)
        if looks_blank(line):  # the deck checks' test: a line nobody would see is no line
            raise Refused("empty_chat", "That chat line shows nothing.")
        seat, name = (None, peer.name) if member is None else (member.seat, member.name)
        self._broadcast.chat(seat, name, line)

    # --- the clock -------------------------------------------------------------------

    def next_wake(self) -> float | None:
        """When a timer is next due: a grace period, a question to the table, a bot, a game
        deadline, the end of a round's result, an idle room."""
        idle_end = None
        if self._idle_since is not None:
            idle_end = self._idle_since + self._config.idle_room_seconds
        due = (
            self._seating.next_grace_end(),
            self._reclaiming.next_end(),
            self._bots.next_due(),
            self._game.due_deadline(),
            self._game.result_pause_ends(),
            self._play.pause_ends(),
            idle_end,
        )
        return min((when for when in due if when is not None), default=None)

    def run_timers(self, now: float) -> None:
        """Whatever is due by ``now``: graces, unanswered questions, closing an empty room,
        game ticks, one bot."""
        self._reclaiming.run(now)
        if not self._seating.run_graces(now):
            self.close("everyone left")
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
