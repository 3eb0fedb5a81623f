"""Asking the table "Ann is back?" when a visitor wants an absent player's seat by name.

A part of :class:`~partyhost.net.rooms.room.Room`. A name proves nothing, so a
visitor who joins under the name of a seated person who is not connected is
never simply given the seat. Only the name as that person wrote it may ask
(``names.written_alike``); a look-alike is ``name_in_use``. The question goes
to the room's owner, or to a connected seated person when the owner is the
absent one (``reclaim_ask``); the visitor waits in the room without a seat
(``reclaim_waiting``). No answer in time is no. A yes is handed back to the
room, which gives the seat (:meth:`.Room.reclaim_answer`); every other ending turns
the visitor away with ``reclaim_refused``.

The open questions are bounded: one per visitor, one per seat,
:data:`MAX_OPEN` per room, and none about a seat the table has just said no about,
so a stream of visitors cannot bury the table in dialogs.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from partyhost.net import protocol as p
from partyhost.net.names import written_alike
from partyhost.net.protocol import Refused
from partyhost.net.rooms.roombroadcast import RoomBroadcast
from partyhost.net.rooms.roomqueue import Peer
from partyhost.net.rooms.roster import Member, Roster

MAX_OPEN = 3
"""Questions one room has open at once."""


@dataclass(frozen=True)
class Ask:
    """One open question: is the visitor on ``asker`` the absent player of ``member_id``?"""

    ask_id: int
    asker: Peer
    member_id: int
    approver_id: int
    """The member who is asked (the owner, or a seated person when the owner is the absent one)."""
    ends: float
    """When no answer counts as no (host time)."""


@dataclass(eq=False)
class Reclaiming:
    """The questions to one room's table about its absent seats, from asking to answer."""

    roster: Roster
    broadcast: RoomBroadcast
    seconds: float
    """How long the table has to answer."""
    _asks: dict[int, Ask] = field(default_factory=dict, init=False)
    _numbers: Iterator[int] = field(default_factory=lambda: itertools.count(1), init=False)
    _said_no: dict[int, float] = field(default_factory=dict, init=False)
    """Member id -> until when its seat may not be asked about (the table said no)."""

    def asking(self, peer: Peer) -> bool:
        return any(ask.asker is peer for ask in self._asks.values())

    def next_end(self) -> float | None:
        """When the soonest open question runs out (None: none is open)."""
        return min((ask.ends for ask in self._asks.values()), default=None)

    def ask(self, peer: Peer, member: Member) -> None:
        """``peer`` wants ``member``'s seat (its player is not connected): ask the table;
        Refused unless the name is written as ``member``'s and someone may be asked."""
        if not written_alike(peer.written_name, member.name) or member.seat is None:
            raise Refused(
                "name_in_use",
                f"The name {member.name} is taken by a seat whose player is away. To take "
                "that seat back, type the name exactly as that player first wrote it; "
                "else pick another name.",
            )
        approver = self._approver(member)
        if approver is None or approver.peer is None:
            raise Refused(
                "reclaim_refused",
                f"Nobody at this table is connected to confirm that you are {member.name}."
                " Come back with your seat token, or join under another name.",
            )
        now = time.time()
        self._check_open(member.member_id, now)
        ask = Ask(
            next(self._numbers), peer, member.member_id, approver.member_id, now + self.seconds
        )
        self._asks[ask.ask_id] = ask
        question = {"name": member.name, "seat": member.seat, "seconds": round(self.seconds, 1)}
        self.broadcast.notice(
            f"Someone says they are {member.name}; {approver.name} is asked to confirm."
        )
        approver.peer.send({"t": p.RECLAIM_ASK, "ask": ask.ask_id, **question})
        peer.send({"t": p.RECLAIM_WAITING, "code": self.broadcast.code, **question})

    def _check_open(self, member_id: int, now: float) -> None:
        """Refused when the seat is already asked for, or was refused just now, or the
        room has enough questions open."""
        self._said_no = {member: until for member, until in self._said_no.items() if until > now}
        if member_id in self._said_no:
            wait = max(1, round(self._said_no[member_id] - now))
            raise Refused(
                "reclaim_refused",
                f"The table has just said no to someone asking for that seat; try again in"
                f" {wait} s, or come back with your seat token.",
            )
        if any(ask.member_id == member_id for ask in self._asks.values()):
            raise Refused(
                "reclaim_refused",
                "Someone else is already asking for that seat; try again in a moment.",
            )
        if len(self._asks) >= MAX_OPEN:
            raise Refused(
                "reclaim_refused", "This table has enough questions to answer; try again later."
            )

    def _approver(self, member: Member) -> Member | None:
        """Who confirms that ``member``'s player is back: the owner if here and not them,
        else any seated person who is here."""
        owner = self.roster.owner
        if owner is not None and owner is not member and owner.here:
            return owner
        return next((m for m in self.roster.seated if m.human and m is not member and m.here), None)

    def answer(self, by: Member, ask_id: int, yes: bool) -> tuple[Peer, Member] | None:
        """``by`` answers question ``ask_id``. On a yes, the visitor and the seat to give
        them; otherwise the visitor is turned away and the answer is None."""
        ask = self._asks.get(ask_id)
        if ask is None or ask.approver_id != by.member_id:
            raise Refused("no_such_ask", "That question is settled already, or was not yours.")
        del self._asks[ask_id]
        member = self.roster.member_by_id(ask.member_id)
        if member is None or member.left:
            self._turn_away(ask, "That seat is gone.")
            return None
        if not yes:
            self._said_no[ask.member_id] = time.time() + self.seconds  # the seat rests a while
            self._turn_away(ask, f"{by.name} did not confirm that you are {member.name}.")
            self.broadcast.notice(f"{by.name} did not let the visitor take {member.name}'s seat.")
            return None
        if ask.asker.closed:
            return None
        self.broadcast.notice(f"{by.name} confirmed that {member.name} is back.")
        return ask.asker, member

    def withdraw(self, peer: Peer) -> bool:
        """``peer`` stops waiting for an answer (it left, or dropped); False if it was not."""
        if not self._close(lambda ask: ask.asker is peer):
            return False
        self.broadcast.send_out(peer, "left")
        return True

    def run(self, now: float) -> None:
        """Questions nobody answered in time are answered no."""
        for ask in self._close(lambda ask: now >= ask.ends):
            member = self.roster.member_by_id(ask.member_id)
            name = member.name if member is not None else "that player"
            self._turn_away(ask, f"Nobody at the table confirmed in time that you are {name}.")
            self.broadcast.notice(f"Nobody confirmed in time that the visitor is {name}.")

    def settle(self, why: str, member: Member | None = None) -> None:
        """``member``'s seat is no longer to be asked for (its player is back, or it is
        gone), or the room closes (None): every visitor asking is turned away with ``why``."""
        for ask in self._close(lambda ask: member is None or ask.member_id == member.member_id):
            self._turn_away(ask, why)

    def _close(self, which: Callable[[Ask], bool]) -> list[Ask]:
        found = [ask for ask in self._asks.values() if which(ask)]
        for ask in found:
            del self._asks[ask.ask_id]
        return found

    def _turn_away(self, ask: Ask, why: str) -> None:
        """The visitor of ``ask`` gets no seat: back to the lobby with ``why``."""
        peer = ask.asker
        peer.room = None
        if not peer.closed:
            peer.send(p.error("reclaim_refused", why))
