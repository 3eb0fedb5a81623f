"""Seats changing hands: people coming in, dropping, staying away, coming back, leaving,
and friends taking over bots' seats.

A part of :class:`~partyhost.net.rooms.room.Room`. A disconnected player keeps
the seat for the grace period; past it the seat is away and a bot stands in
(or the game is told ``seat_away``). A seat token always takes its seat back;
a name alone only asks the table (:mod:`.reclaiming`). The owner's chair passes
on when its holder leaves or goes away, never by name. Every change is
journaled, so a restarted host keeps each grace period where it was.

With the room option ``friends_take_bots``, a person joining a running game with
a bot in it waits (watching, with a seat token but no seat) until a round ends
or the game does, then takes the next bot's seat as it stands. Until then they
get the public view only, so the seat's hidden cards reach them only once the
seat is theirs.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from partyhost.engine.core import FRIENDS_TAKE_BOTS, Event, Game, no_rounds
from partyhost.net import protocol as p
from partyhost.net.addresslimits import TokenBucket
from partyhost.net.config import HostConfig
from partyhost.net.credentials import new_token, token_hash
from partyhost.net.protocol import Refused, RetryLater
from partyhost.net.rooms.hostbots import DEFAULT_LEVEL
from partyhost.net.rooms.members import Member
from partyhost.net.rooms.reclaiming import Reclaiming
from partyhost.net.rooms.roombroadcast import RoomBroadcast
from partyhost.net.rooms.roomgame import RoomGame, RoomSettings
from partyhost.net.rooms.roomplay import RoomBots, RoomPlay
from partyhost.net.rooms.roomqueue import Peer
from partyhost.net.rooms.roomrecords import RoomRecords
from partyhost.net.rooms.roster import Roster


class SeatTokens(Protocol):
    """The host's index of seat tokens, by which players come back to their seat."""

    def remember_token(self, token_hash: str, code: str, member_id: int) -> None: ...

    def forget_token(self, token_hash: str) -> None: ...


@dataclass(eq=False)
class Seating:
    """Who comes in, who goes, and what happens to their seats, for one room.

    Methods that can leave a room without people return False then: the room
    closes itself.
    """

    code: str
    config: HostConfig
    tokens: SeatTokens
    settings: RoomSettings
    roster: Roster
    game: RoomGame
    bots: RoomBots
    broadcast: RoomBroadcast
    play: RoomPlay
    records: RoomRecords
    reclaiming: Reclaiming
    _resumes: dict[int, TokenBucket] = field(default_factory=dict, init=False)
    """Per member id: how often its seat may be taken back with a token (a reconnect
    loop must not take the seat over many times a second)."""
    _presence_told: dict[int, TokenBucket] = field(default_factory=dict, init=False)
    """Per member id: how often the table may hear that its player dropped or came back."""
    _given: dict[int, str] = field(default_factory=dict, init=False)
    """Per member id waiting for a bot's seat, the token handed out (sent again with it)."""
    _told: dict[int, str] = field(default_factory=dict, init=False)
    """Per member id waiting for a bot's seat, what they were last told of their wait."""

    # --- coming in -----------------------------------------------------------

    def join(self, peer: Peer, spectate: bool) -> None:
        """A newcomer watches, waits for a bot's seat, or sits down (or asks the table)."""
        if spectate:
            self.roster.add_spectator(peer)
            self._welcome(peer, None, None)
        elif not self._wait(peer):
            self._seat_person(peer)

    def _seat_person(self, peer: Peer) -> None:
        """A new seat, or a question to the table if a person of that name is not connected.

        A connected player's seat is never taken: during a game the newcomer is refused,
        between games they get a seat of their own under a name made unique.
        """
        member = self.roster.person_named(peer.name)
        if member is None:
            self._take_seat(peer)
        elif member.peer is None or member.peer.closed:
            self.reclaiming.ask(peer, member)
        elif self.game.playing:
            raise Refused(
                "name_in_use",
                f"{member.name} is at this table and connected. If that is you, your old "
                "connection has not dropped yet: try again in a few seconds; else pick "
                "another name.",
            )
        else:
            self._take_seat(peer)

    def _take_seat(self, peer: Peer) -> None:
        """Seat a person at the next free seat, with a new seat token."""
        token = new_token()
        member = self._sit(peer.name, token_hash(token))
        self.tokens.remember_token(token_hash(token), self.code, member.member_id)
        self.records.save()
        self.broadcast.notice(f"{member.name} joined.")  # the newcomer gets `joined` first
        member.peer = peer
        self._welcome(peer, member, token)

    def seat_bot(self, level: str) -> None:
        """Seat a bot of ``level`` (always ready) at the next free seat."""
        count = sum(1 for m in self.roster.seated if m.bot) + 1
        member = self._sit(f"Bot {count}", None, level)
        self.records.save()
        article = "an" if level[0] in "aeiou" else "a"
        kind = "a bot" if level == DEFAULT_LEVEL else f"{article} {level} bot"
        self.broadcast.notice(f"{member.name} ({kind}) joined.")
        self.broadcast.room()

    def _sit(self, wanted: str, hashed_token: str | None, level: str | None = None) -> Member:
        """A new member (a bot if it has a ``level``) at the next free seat, dealt into a
        running game; Refused unless a newcomer can have a seat now."""
        game: Game = self.game.game
        if self.game.playing and not game.joins_mid_game:
            raise Refused(
                "game_in_progress", f"{game.name} takes no players mid-game; spectate instead."
            )
        if not game.has_free_seat(len(self.roster.seated)):
            raise Refused("room_full", f"All {game.max_players} seats are taken.")
        name = self.roster.fresh_name(wanted)
        seat = self.roster.next_seat(self.game.in_lobby)
        member = self.roster.new_member(name, seat, hashed_token, bot_level=level)
        if level is not None:
            member.brain = self.bots.brain(level, member.bot_seed)
        member.newcomer = level is None and self.game.playing
        now = time.time()
        if self.game.playing and self.game.table is not None:
            events = self.game.seat_joined(seat, now)
            self.roster.add(member)
            self.play.changed(events, now)
        else:
            self.roster.add(member)
        self.roster.claim_if_ownerless(member)
        return member

    def resume(self, peer: Peer, member_id: int, token: str) -> bool:
        """The player of ``member_id`` is back on ``peer`` with the seat token: same seat (or
        place in the wait for a bot's), fresh view. False if that member has no seat here.

        The seat's first token wins over one given when the seat was taken back by name:
        that one stops working. Past the seat's resume rate the newcomer is refused
        (``rate_limited``) and whoever holds the seat keeps it.
        """
        if self._resume_waiting(peer, member_id, token):
            return True
        member = self.roster.member_by_id(member_id)
        if member is None or member.left:
            return False
        self._check_resume_rate(member)
        self.reclaiming.settle_about(member, f"{member.name} came back with their own seat token.")
        if token_hash(token) == member.token_hash:
            self._forget_second_token(member)
        old = member.release()
        if old is not None and old is not peer:
            self.broadcast.replaced(old)
        self._return(peer, member, token)
        return True

    def _check_resume_rate(self, member: Member) -> None:
        config = self.config
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

    def _tell_presence(self, member: Member, text: str) -> None:
        """Tell the table that ``member`` dropped or came back: a few times in a row, then
        once per ``presence_notice_seconds`` (the room message shows every change anyway)."""
        config = self.config
        fresh = TokenBucket(1.0 / config.presence_notice_seconds, config.presence_notice_burst)
        if self._presence_told.setdefault(member.member_id, fresh).take():
            self.broadcast.notice(text)

    # --- taking a seat back by name ------------------------------------------------

    def reclaim(self, peer: Peer, member: Member, approver: Member) -> None:
        """The visitor the table vouched for takes ``member``'s seat back, with a new token.

        The seat's first token still works and wins: using it takes the seat back and
        ends the new one. If the seat owned the room, the chair goes to ``approver``.
        """
        old = member.release()
        if old is not None:  # closed, its ``Gone`` still queued
            old.room = None
        if self.roster.is_owner(member):
            if approver.peer is not None and not approver.left:
                self.roster.make_owner(approver)
                self.broadcast.notice(f"{approver.name} now owns the room.")
            else:
                self._hand_over()
        self._forget_second_token(member)
        token = new_token()
        member.second_token_hash = token_hash(token)
        self.tokens.remember_token(member.second_token_hash, self.code, member.member_id)
        self._return(peer, member, token)

    def _forget_second_token(self, member: Member) -> None:
        if member.second_token_hash is not None:
            self.tokens.forget_token(member.second_token_hash)
            member.second_token_hash = None

    def _return(self, peer: Peer, member: Member, token: str) -> None:
        """Seat ``member``'s player on ``peer``; the others hear first, then it gets ``joined``."""
        now = time.time()
        member.end_grace()
        if member.away and member.come_back():
            self._system("seat_back", member, now)
        self.records.save()
        self._tell_presence(member, f"{member.name} is back.")
        member.peer = peer
        self._welcome(peer, member, token)

    def _welcome(self, peer: Peer, member: Member | None, token: str | None) -> None:
        """Send a newcomer (or returner) everything it needs: seat, room, fresh view."""
        self.broadcast.welcome(peer, None if member is None else member.seat, token)
        self.bots.arm_all(time.time())  # bots play only while someone is watching

    # --- dropping and staying away --------------------------------------------------

    def lost(self, peer: Peer) -> None:
        """A connection closed: a spectator is gone, a player's grace period starts, one
        waiting for a bot's seat keeps their place (their token brings them back)."""
        waiter = self.roster.waiting_of(peer)
        if waiter is not None:
            waiter.release()
        if self.roster.drop_spectator(peer):
            self.broadcast.room()
            return
        member = self.roster.member_of(peer)
        if member is None:
            return
        config = self.config
        grace = config.grace_seconds
        if member.newcomer:  # a newcomer who never acted has a short grace period
            grace = min(config.ghost_grace_seconds, grace)
        member.disconnect(time.time(), grace)
        self.records.save()
        self._tell_presence(member, f"{member.name} lost connection.")
        self.broadcast.room()

    def next_grace_end(self) -> float | None:
        """When the first running grace period ends (none runs while the game is paused)."""
        if self.game.clock.paused:
            return None
        ends = [member.grace_ends() for member in self.roster.members]
        return min((end for end in ends if end is not None), default=None)

    def run_graces(self, now: float) -> bool:
        """Everyone whose grace period ran out by ``now`` is away (in a game) or gone."""
        if self.game.clock.paused:
            return True
        for member in self.roster.members:
            end = member.grace_ends()
            if end is not None and now >= end and not self._grace_over(member, now):
                return False
        return True

    def _grace_over(self, member: Member, now: float) -> bool:
        member.end_grace()
        if not self.game.playing:
            return self.remove(member, "disconnected", now)
        member.go_away()
        if self.settings.bot_takeover:
            self.broadcast.notice(f"{member.name} is away; a bot plays for them until they return.")
            self.bots.stand_in(member, now)
        else:
            self.broadcast.notice(f"{member.name} is away.")
            if self._system("seat_away", member, now):
                member.engine_away = True
        if self.roster.is_owner(member):
            self._hand_over()
        self.records.save()
        self.broadcast.room()
        return True

    def stand_in_now(self, seat: int, by: Member, now: float) -> None:
        """The owner ``by`` puts a bot in the seat of a person who is not here, now.

        A seat the game had set aside (``seat_away``) is dealt back in first, so the
        bot plays it; the person can still come back to it.
        """
        member = self.roster.member_at(seat)
        if member is None or member.bot or not self.game.in_game(seat):
            raise Refused("bad_seat", f"No player of this game sits in seat {seat}.")
        if member.peer is not None:
            raise Refused(
                "player_connected",
                f"{member.name} is connected; only an absent player's seat can go to a bot.",
            )
        if member.playing_bot:
            raise Refused("bad_seat", f"A bot already plays for {member.name}.")
        member.end_grace()
        if member.away and member.come_back():
            self._system("seat_back", member, now)
        member.go_away()
        self.bots.stand_in(member, now)
        self.records.save()
        self.broadcast.notice(f"{by.name} put a bot in {member.name}'s seat until they return.")
        self.broadcast.room()

    def give_ownership(self, seat: int, by: Member) -> None:
        """The owner ``by`` hands the room to the person in ``seat``, who must be here."""
        member = self.roster.member_at(seat)
        if member is None or member is by or member.bot:
            raise Refused("bad_seat", f"No other person sits in seat {seat}.")
        if member.peer is None:
            raise Refused(
                "not_connected", f"{member.name} is not connected; hand the room to someone here."
            )
        self.roster.make_owner(member)
        self.records.save()
        self.broadcast.notice(f"{by.name} handed the room to {member.name}.")
        self.broadcast.room()

    # --- leaving -----------------------------------------------------------------

    def remove(self, member: Member, reason: str, now: float) -> bool:
        """A member leaves for good (left, kicked, removed, disconnected in the lobby)."""
        self._detach(member, reason)
        member.leave()
        if self.game.in_lobby:
            self.roster.renumber()
        elif self.game.playing and self.game.in_game(member.seat):
            self._leave_game(member, now)
        verb = {"kicked": "was kicked", "removed": "was removed"}.get(reason, "left")
        self.broadcast.notice(f"{member.name} {verb}.")
        if self.roster.is_owner(member):
            self._hand_over()
        if not self.roster.has_humans:
            return False
        self.records.save()
        self.broadcast.room()
        return True

    def leave_watching(self, peer: Peer) -> None:
        """A spectator, or someone waiting for a bot's seat, leaves."""
        waiter = self.roster.waiting_of(peer)
        if waiter is not None:
            self._forget_waiter(waiter)
            self.records.save()
        self.roster.drop_spectator(peer)
        self.broadcast.send_out(peer, "left")
        self.broadcast.room()
        if waiter is not None:
            self._tell_waiters()

    def clear_out(self, reason: str) -> None:
        """The room closes: every connection in it is told ``reason``, every token forgotten."""
        self.reclaiming.clear("That room has closed.")
        for member in self.roster.members:
            self._detach(member, reason)
        for peer in self.roster.clear_spectators():
            self.broadcast.send_out(peer, reason)

    def _leave_game(self, member: Member, now: float) -> None:
        if self._system("seat_left", member, now):
            return
        # The game cannot drop this seat now: keep it played rather than stall the table.
        if self.settings.bot_takeover:
            self.bots.stand_in(member, now)
        else:
            self._system("seat_away", member, now)

    def _system(self, kind: str, member: Member, now: float) -> bool:
        """Tell the game ``kind`` about ``member``'s seat; True if it took it."""
        if member.seat is None:
            return False
        events = self.game.system(kind, member.seat, now)
        if events is None:
            return False
        self.play.changed(events, now)
        return True

    def _detach(self, member: Member, reason: str) -> None:
        """Tell the member's connection it is out of the room, and forget the token."""
        peer = member.release()
        if peer is not None:
            self.broadcast.send_out(peer, reason)
        if member.token_hash is not None:
            self.tokens.forget_token(member.token_hash)
        self._forget_second_token(member)
        self.reclaiming.settle_about(member, f"{member.name}'s seat is gone.")

    def _hand_over(self) -> None:
        owner = self.roster.hand_over()
        if owner is not None:
            self.broadcast.notice(f"{owner.name} now owns the room.")

    # --- waiting for a bot's seat -------------------------------------------------

    @property
    def _takeovers_on(self) -> bool:
        """Whether the running game hands bots' seats to newcomers (the room's option)."""
        rules = self.game.rules or {}
        return self.game.playing and rules.get(FRIENDS_TAKE_BOTS.name) is True

    @property
    def _no_rounds(self) -> bool:
        """Whether the game has no rounds (its seats change hands only when it ends)."""
        return self.game.game.round_over is no_rounds

    def _dealt_bots(self) -> list[Member]:
        """The bots dealt into the running game, in seat order."""
        return [m for m in self.roster.seated if m.bot and self.game.in_game(m.seat)]

    def _promised(self, waiter: Member) -> Member | None:
        """The bot whose seat ``waiter`` gets if nobody ahead of them leaves."""
        bots = self._dealt_bots()
        place = self.roster.waiting.index(waiter)
        return bots[place] if place < len(bots) else None

    def _wait(self, peer: Peer) -> bool:
        """Let a newcomer wait for a bot's seat; False when the room has none to hand over
        (or the name is a seated person's: that is settled like any other join)."""
        if not self._takeovers_on or not self._dealt_bots() or self.roster.person_named(peer.name):
            return False
        try:
            self.roster.add_spectator(peer)
        except Refused:
            return False  # the room's spectators are at their cap: the newcomer sits down
        token = new_token()
        name = self.roster.fresh_name(peer.name)
        member = self.roster.new_member(name, None, token_hash(token))
        self.roster.add_waiting(member)
        self._given[member.member_id] = token
        self.tokens.remember_token(token_hash(token), self.code, member.member_id)
        self.records.save()
        self._attach_waiter(peer, member, token)
        return True

    def _resume_waiting(self, peer: Peer, member_id: int, token: str) -> bool:
        """A waiting person back with their token (after a restart, or a dropped link)."""
        member = self.roster.waiting_by_id(member_id)
        if member is None:
            return False
        old = member.release()
        if old is not None and old is not peer:
            self.roster.drop_spectator(old)
            self.broadcast.replaced(old)
        self.roster.add_spectator(peer)
        self._given[member_id] = token
        self._attach_waiter(peer, member, token)
        return True

    def _attach_waiter(self, peer: Peer, member: Member, token: str) -> None:
        member.peer = peer
        self._told.pop(member.member_id, None)  # a new link hears it again
        self.broadcast.welcome(peer, None, token)
        self._tell_wait(member)

    def _tell_wait(self, member: Member) -> None:
        if member.peer is None:
            return
        bot = self._promised(member)
        if bot is None:
            text = "Every bot's seat is promised: you watch, and take the next one that is free."
        else:
            when = "when this game ends" if self._no_rounds else "at the next round"
            text = f"You take {bot.name}'s seat {when}."
        if self._told.get(member.member_id) != text:
            self._told[member.member_id] = text
            member.peer.send({"t": p.NOTICE, "text": text})

    def _forget_waiter(self, member: Member) -> None:
        self.roster.drop_waiting(member)
        self._given.pop(member.member_id, None)
        self._told.pop(member.member_id, None)
        if member.token_hash is not None:
            self.tokens.forget_token(member.token_hash)

    def _tell_waiters(self) -> None:
        for member in self.roster.waiting:
            self._tell_wait(member)

    def after_change(self, events: Sequence[Event], over: bool) -> None:
        """Hand bots' seats over if ``events`` ended a round or the game is ``over``."""
        if not self.roster.waiting:
            return
        if not over and not (self._takeovers_on and self.game.game.round_over(events)):
            return
        rules = self.game.rules or {}
        if rules.get(FRIENDS_TAKE_BOTS.name) is True:
            for waiter in [m for m in self.roster.waiting if m.peer is not None]:
                bots = self._dealt_bots()
                if not bots:
                    break
                self._take_over(waiter, bots[0])
        if over:
            self._end_waits()
        else:
            self._tell_waiters()

    def _take_over(self, waiter: Member, bot: Member) -> None:
        peer = waiter.peer
        assert peer is not None
        bot_name = bot.name
        self._told.pop(waiter.member_id, None)
        self.roster.replace(bot, waiter)
        waiter.newcomer = self.game.playing
        self.roster.drop_spectator(peer)
        self.records.save()
        self.broadcast.notice(f"{waiter.name} takes over {bot_name}'s seat.")
        token = self._given.pop(waiter.member_id, None)
        self.broadcast.welcome(peer, waiter.seat, token, chat=False)

    def _end_waits(self) -> None:
        """The game is over: whoever still waits watches (an absent one is forgotten)."""
        waiting = self.roster.waiting
        for member in waiting:
            if member.peer is not None:
                member.peer.send(
                    {"t": p.NOTICE, "text": "No bot's seat was left for you: you watch."}
                )
            self._forget_waiter(member)
        self.records.save()
        self.broadcast.room()
