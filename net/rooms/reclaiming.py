"""Asking the table "Ann is back?" when a visitor wants an absent player's seat by name.

A part of :class:`~partyhost.net.rooms.room.Room`. A name proves nothing, so a
visitor who joins under the name of a seated person who is not connected is
never simply given the seat. Only the name as that person wrote it may ask
(``names.written_alike``); a look-alike is ``name_in_use``. The question goes
to the room's owner, or to a connected seated person when the owner is the
absent one (``reclaim_ask``); the visitor waits in the room without a seat
(``reclaim_waiting``). No answer in time is no. A yes is handed back to the
room, which gives the seat (:meth:`.Seating.reclaim`); every other ending turns
the visitor away with ``reclaim_refused``.

The open questions are bounded (:class:`Reclaims`): one per visitor, one per seat,
:data:`MAX_OPEN` per room, and none about a seat the table has just said no about,
so a stream of visitors cannot bury the table in dialogs.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

from partyhost.net import protocol as p
from partyhost.net.names import written_alike
from partyhost.net.protocol import Refused
from partyhost.net.rooms.members import Member
from partyhost.net.rooms.roombroadcast import RoomBroadcast
from partyhost.net.rooms.roomqueue import Peer
from partyhost.net.rooms.roster import Roster

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


class Reclaims:
    """The open questions of one room; the room's task is the only caller."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        """How long the table has to answer."""
        self._asks: dict[int, Ask] = {}
        self._numbers = itertools.count(1)
        self._said_no: dict[int, float] = {}
        """Member id -> until when its seat may not be asked about (the table said no)."""

    def open(self, asker: Peer, member_id: int, approver_id: int, now: float) -> Ask:
        """A new question; Refused when the seat is already asked for or the room has enough."""
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
        ask = Ask(next(self._numbers), asker, member_id, approver_id, now + self.seconds)
        self._asks[ask.ask_id] = ask
        return ask

    def said_no(self, ask: Ask, now: float) -> None:
        """The table answered ``ask`` no: its seat rests from questions for a while."""
        self._said_no[ask.member_id] = now + self.seconds

    def asking(self, peer: Peer) -> bool:
        """Whether ``peer`` waits for an answer here."""
        return any(ask.asker is peer for ask in self._asks.values())

    def answer(self, ask_id: int, approver_id: int) -> Ask | None:
        """The question ``ask_id`` if ``approver_id`` was asked it, closed; else None."""
        ask = self._asks.get(ask_id)
        if ask is None or ask.approver_id != approver_id:
            return None
        return self._asks.pop(ask_id)

    def withdraw(self, peer: Peer) -> Ask | None:
        """Close the question ``peer`` asked (it left or dropped), if any."""
        ask = next((ask for ask in self._asks.values() if ask.asker is peer), None)
        if ask is not None:
            del self._asks[ask.ask_id]
        return ask

    def about(self, member_id: int) -> list[Ask]:
        """Close every question about ``member_id``'s seat (its player came back, or left)."""
        found = [ask for ask in self._asks.values() if ask.member_id == member_id]
        for ask in found:
            del self._asks[ask.ask_id]
        return found

    def expired(self, now: float) -> list[Ask]:
        """Close and return the questions nobody answered by ``now``."""
        found = [ask for ask in self._asks.values() if now >= ask.ends]
        for ask in found:
            del self._asks[ask.ask_id]
        return found

    def clear(self) -> list[Ask]:
        """Close every question (the room closes)."""
        found = list(self._asks.values())
        self._asks.clear()
        return found

    def next_end(self) -> float | None:
        return min((ask.ends for ask in self._asks.values()), default=None)

    def left(self, ask: Ask, now: float) -> float:
        """Seconds left to answer ``ask``."""
        return round(max(0.0, ask.ends - now), 1)


class Reclaiming:
    """The questions to one room's table about its absent seats, from asking to answer."""

    def __init__(
        self,
        code: str,
        roster: Roster,
        broadcast: RoomBroadcast,
        seconds: float,
    ) -> None:
        self._code = code
        self._roster = roster
        self._broadcast = broadcast
        self.asks = Reclaims(seconds)
        """The open questions; the room reads who waits and when the first runs out."""

    def ask(self, peer: Peer, member: Member) -> None:
        """``peer`` wants ``member``'s seat (its player is not connected): ask the table.

        Refused when the name is not written as ``member``'s, when nobody is there to
        ask, or when the seat or the room already has its questions open.
        """
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
        ask = self.asks.open(peer, member.member_id, approver.member_id, now)
        question = {"name": member.name, "seat": member.seat, "seconds": self.asks.left(ask, now)}
        self._broadcast.notice(
            f"Someone says they are {member.name}; {approver.name} is asked to confirm."
        )
        approver.peer.send({"t": p.RECLAIM_ASK, "ask": ask.ask_id, **question})
        peer.send({"t": p.RECLAIM_WAITING, "code": self._code, **question})

    def _approver(self, member: Member) -> Member | None:
        """Who confirms that ``member``'s player is back: the owner if here and not them,
        else any seated person who is here."""
        owner = self._roster.owner
        if owner is not None and owner is not member and _here(owner):
            return owner
        return next(
            (m for m in self._roster.seated if m.human and m is not member and _here(m)), None
        )

    def answer(self, by: Member, ask_id: int, yes: bool) -> tuple[Peer, Member] | None:
        """``by`` answers question ``ask_id``. On a yes, the visitor and the seat to give
        them; otherwise the visitor is turned away and the answer is None."""
        ask = self.asks.answer(ask_id, by.member_id)
        if ask is None:
            raise Refused("no_such_ask", "That question is settled already, or was not yours.")
        member = self._roster.member_by_id(ask.member_id)
        if member is None or member.left:
            self._turn_away(ask, "That seat is gone.")
            return None
        if not yes:
            self.asks.said_no(ask, time.time())
            self._turn_away(ask, f"{by.name} did not confirm that you are {member.name}.")
            self._broadcast.notice(f"{by.name} did not let the visitor take {member.name}'s seat.")
            return None
        if ask.asker.closed:
            return None
        self._broadcast.notice(f"{by.name} confirmed that {member.name} is back.")
        return ask.asker, member

    def withdraw(self, peer: Peer) -> bool:
        """``peer`` stops waiting for an answer (it left, or dropped); False if it was not."""
        ask = self.asks.withdraw(peer)
        if ask is None:
            return False
        self._broadcast.send_out(peer, "left")
        return True

    def run(self, now: float) -> None:
        """Questions nobody answered in time are answered no."""
        for ask in self.asks.expired(now):
            member = self._roster.member_by_id(ask.member_id)
            name = member.name if member is not None else "that player"
            self._turn_away(ask, f"Nobody at the table confirmed in time that you are {name}.")
            self._broadcast.notice(f"Nobody confirmed in time that the visitor is {name}.")

    def settle_about(self, member: Member, why: str) -> None:
        """``member``'s seat is no longer to be asked for (its player is back, or it is
        gone): every visitor asking for it is turned away with ``why``."""
        for ask in self.asks.about(member.member_id):
            self._turn_away(ask, why)

    def clear(self, why: str) -> None:
        """The room closes: every visitor still waiting is turned away with ``why``."""
        for ask in self.asks.clear():
            self._turn_away(ask, why)

    def _turn_away(self, ask: Ask, why: str) -> None:
        """The visitor of ``ask`` gets no seat: back to the lobby with ``why``."""
        peer = ask.asker
        peer.room = None
        if not peer.closed:
            peer.send(p.error("reclaim_refused", why))


def _here(member: Member) -> bool:
    """Whether ``member``'s player is connected now."""
    return member.peer is not None and not member.peer.closed
