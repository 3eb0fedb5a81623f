"""Questions to the table: "Ann is back?", asked when a visitor wants an absent seat by name.

A part of :class:`~partyhost.net.rooms.room.Room`. A name alone proves nothing,
so a visitor who joins under the name of a seated person who is not connected
gets the seat only when someone at the table says yes. This module only keeps
the questions that are open: who asks, for which seat, who answers, and until
when. :class:`~partyhost.net.rooms.seating.Seating` asks and settles them.

The questions are bounded: one per visitor (a connection waits in one room at
a time), one per seat, and :data:`MAX_OPEN` per room; and once the table has
said no about a seat, nobody may ask about it again for as long as a question
may stay open. A stream of visitors cannot bury the table in dialogs.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from partyhost.net.protocol import Refused
from partyhost.net.rooms.roomqueue import Peer

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
