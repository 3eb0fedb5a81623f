"""Friends taking over bots' seats: a newcomer waits, then plays a bot's seat from a round on.

A part of :class:`~partyhost.net.rooms.room.Room`, for the room option
``friends_take_bots``. A person joining a running game with a bot in it
watches (with a seat token, no seat) until a round ends or the game does, then
takes the next bot's seat as it stands. Until then they get the public view
only, so the seat's hidden cards reach them only once the seat is theirs.
"""

from __future__ import annotations

from collections.abc import Sequence

from partyhost.engine.core import FRIENDS_TAKE_BOTS, Event, no_rounds
from partyhost.net import protocol as p
from partyhost.net.credentials import new_token, token_hash
from partyhost.net.protocol import Refused
from partyhost.net.rooms.members import Member
from partyhost.net.rooms.roombroadcast import RoomBroadcast
from partyhost.net.rooms.roomgame import RoomGame
from partyhost.net.rooms.roomqueue import Peer
from partyhost.net.rooms.roomrecords import RoomRecords
from partyhost.net.rooms.roster import Roster
from partyhost.net.rooms.seating import SeatTokens


class Takeovers:
    """Who waits for a bot's seat in one room, and handing the seats over."""

    def __init__(
        self,
        code: str,
        tokens: SeatTokens,
        *,
        roster: Roster,
        game: RoomGame,
        broadcast: RoomBroadcast,
        records: RoomRecords,
    ) -> None:
        self._code = code
        self._tokens = tokens
        self._roster = roster
        self._game = game
        self._broadcast = broadcast
        self._records = records
        self._given: dict[int, str] = {}
        """Per waiting member id, the token handed out (sent again with the seat)."""
        self._told: dict[int, str] = {}
        """Per waiting member id, what they were last told of their wait (told once)."""

    # --- reading ---------------------------------------------------------------

    @property
    def _on(self) -> bool:
        """Whether the running game hands bots' seats to newcomers (the room's option)."""
        rules = self._game.rules or {}
        return self._game.playing and rules.get(FRIENDS_TAKE_BOTS.name) is True

    @property
    def _no_rounds(self) -> bool:
        """Whether the game has no rounds (its seats change hands only when it ends)."""
        return self._game.game.round_over is no_rounds

    def _bots(self) -> list[Member]:
        """The bots dealt into the running game, in seat order."""
        return [m for m in self._roster.seated if m.bot and self._game.in_game(m.seat)]

    def _promised(self, waiter: Member) -> Member | None:
        """The bot whose seat ``waiter`` gets if nobody ahead of them leaves."""
        bots = self._bots()
        place = self._roster.waiting.index(waiter)
        return bots[place] if place < len(bots) else None

    # --- coming and going ----------------------------------------------------------

    def wait(self, peer: Peer) -> bool:
        """Let a newcomer wait for a bot's seat; False when the room has none to hand over
        (or the name is a seated person's, which :mod:`.seating` settles)."""
        if not self._on or not self._bots() or self._roster.person_named(peer.name):
            return False
        try:
            self._roster.add_spectator(peer)
        except Refused:
            return False  # the room's spectators are at their cap: the newcomer sits down
        token = new_token()
        name = self._roster.fresh_name(peer.name)
        member = self._roster.new_member(name, None, token_hash(token))
        self._roster.add_waiting(member)
        self._given[member.member_id] = token
        self._tokens.remember_token(token_hash(token), self._code, member.member_id)
        self._records.save()
        self._attach(peer, member, token)
        return True

    def resume(self, peer: Peer, member_id: int, token: str) -> bool:
        """A waiting person back with their token (after a restart, or a dropped link)."""
        member = self._roster.waiting_by_id(member_id)
        if member is None:
            return False
        old = member.release()
        if old is not None and old is not peer:
            self._roster.drop_spectator(old)
            self._broadcast.replaced(old)
        self._roster.add_spectator(peer)
        self._given[member_id] = token
        self._attach(peer, member, token)
        return True

    def _attach(self, peer: Peer, member: Member, token: str) -> None:
        member.peer = peer
        self._told.pop(member.member_id, None)  # a new link hears it again
        self._broadcast.welcome(peer, None, token)
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

    def lost(self, peer: Peer) -> bool:
        """A waiting person's link dropped: they keep their place (their token brings them
        back); False if ``peer`` was not waiting."""
        member = self._roster.waiting_of(peer)
        if member is None:
            return False
        member.release()
        self._roster.drop_spectator(peer)
        self._broadcast.room()
        return True

    def leave(self, peer: Peer) -> bool:
        """A waiting person leaves: nothing else happens; False if ``peer`` was not waiting."""
        member = self._roster.waiting_of(peer)
        if member is None:
            return False
        self._forget(member)
        self._records.save()
        self._roster.drop_spectator(peer)
        self._broadcast.send_out(peer, "left")
        self._broadcast.room()
        self._tell_all()
        return True

    def _forget(self, member: Member) -> None:
        self._roster.drop_waiting(member)
        self._given.pop(member.member_id, None)
        self._told.pop(member.member_id, None)
        if member.token_hash is not None:
            self._tokens.forget_token(member.token_hash)

    def _tell_all(self) -> None:
        for member in self._roster.waiting:
            self._tell_wait(member)

    # --- the round's start -------------------------------------------------------------

    def after_change(self, events: Sequence[Event], over: bool) -> None:
        """Hand bots' seats over if ``events`` ended a round or the game is ``over``."""
        if not self._roster.waiting:
            return
        if not over and not (self._on and self._game.game.round_over(events)):
            return
        rules = self._game.rules or {}
        if rules.get(FRIENDS_TAKE_BOTS.name) is True:
            for waiter in [m for m in self._roster.waiting if m.peer is not None]:
                bots = self._bots()
                if not bots:
                    break
                self._take_over(waiter, bots[0])
        if over:
            self._end_waits()
        else:
            self._tell_all()

    def _take_over(self, waiter: Member, bot: Member) -> None:
        peer = waiter.peer
        assert peer is not None
        bot_name = bot.name
        self._told.pop(waiter.member_id, None)
        self._roster.replace(bot, waiter)
        waiter.newcomer = self._game.playing
        self._roster.drop_spectator(peer)
        self._records.save()
        self._broadcast.notice(f"{waiter.name} takes over {bot_name}'s seat.")
        token = self._given.pop(waiter.member_id, None)
        self._broadcast.welcome(peer, waiter.seat, token, chat=False)

    def _end_waits(self) -> None:
        """The game is over: whoever still waits watches (an absent one is forgotten)."""
        waiting = self._roster.waiting
        for member in waiting:
            if member.peer is not None:
                member.peer.send(
                    {"t": p.NOTICE, "text": "No bot's seat was left for you: you watch."}
                )
            self._forget(member)
        self._records.save()
        self._broadcast.room()
