"""What a room tells the people in it: views, the room's state, notices.

A mixin of :class:`~partyhost.net.room.Room`. Each connected seat gets its own
view (``game.view(state, seat)``) and only the events ``Event.for_seat``
allows it; spectators share one public frame. Every view frame carries the
host's clock (``now``) so clients can count down to deadlines despite clock
skew. Nothing here awaits: frames are queued on each connection, which drops
itself if it falls too far behind.

After a change the frames are built together (:class:`~partyhost.net.protocol.ViewFrames`):
what the seats' views and events share is packed once, not once per seat.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from partyhost.engine.core import Event, Game
from partyhost.net import protocol as p
from partyhost.net.members import Member, Peer
from partyhost.net.ratelimit import TokenBucket
from partyhost.net.table import Table

log = logging.getLogger(__name__)


class RoomMessages:
    """Building and sending the frames a room sends (state lives in Room)."""

    code: str
    game: Game
    deck_name: str
    options: dict[str, Any]
    bot_takeover: bool
    password_hash: str | None
    status: str
    members: list[Member]
    spectators: dict[Peer, TokenBucket]
    table: Table | None
    game_seats: set[int]
    owner_id: int | None

    @property
    def seated(self) -> list[Member]:
        """Members who have not left, in seat order."""
        return [member for member in self.members if not member.left]

    @property
    def owner(self) -> Member | None:
        return next((m for m in self.members if m.member_id == self.owner_id), None)

    def _view_seat(self, seat: int | None) -> int | None:
        """The seat whose view ``seat`` gets: its own if it plays, else the public one."""
        return seat if seat is not None and seat in self.game_seats else None

    def view_message(self, seat: int | None, events: Sequence[Event]) -> dict[str, Any]:
        assert self.table is not None
        seat = self._view_seat(seat)
        shown = [event.for_seat(seat) for event in events]
        return {
            "t": p.VIEW,
            "version": self.table.version,
            "view": self.table.view(seat),
            "events": [event for event in shown if event is not None],
            "now": time.time(),
        }

    def send_views(self, events: Sequence[Event] = ()) -> None:
        """Every connected seat its own view frame, spectators the public one.

        Equal to sending ``view_message(seat, events)`` to each, but built
        together so the parts they share are packed once.
        """
        table = self.table
        if table is None:
            return
        seated = [
            (member.peer, self._view_seat(member.seat))
            for member in self.members
            if member.peer is not None and not member.left
        ]
        spectators = list(self.spectators)
        if not seated and not spectators:
            return
        views: dict[int | None, dict[str, Any]] = {}
        for _, seat in seated:
            if seat not in views:
                views[seat] = table.view(seat)
        if spectators and None not in views:
            views[None] = table.view(None)
        now = time.time()
        try:
            frames = p.ViewFrames(table.version, list(views.values()), now)
        except Exception:  # a part that cannot be packed: find out whose, view by view
            frames = p.ViewFrames(table.version, [], now)
        built: dict[int | None, bytes | None] = {}
        for seat, view in views.items():
            try:
                built[seat] = frames.frame(view, self._seat_events(frames, events, seat))
            except Exception:
                log.exception("room %s: cannot encode the view for seat %s", self.code, seat)
                built[seat] = None
        for peer, seat in seated:
            frame = built[seat]
            if frame is not None:
                peer.send_frame(frame)
        spectator_frame = built.get(None)
        if spectator_frame is not None:
            for peer in spectators:
                peer.send_frame(spectator_frame)

    @staticmethod
    def _seat_events(
        frames: p.ViewFrames, events: Sequence[Event], seat: int | None
    ) -> list[bytes]:
        """The events ``seat`` may see, packed; those it sees like others are packed once."""
        packed: list[bytes] = []
        for index, event in enumerate(events):
            if event.to is not None and (seat is None or seat not in event.to):
                continue
            if seat is not None and seat in event.private:
                shown = event.for_seat(seat)
                assert shown is not None
                packed.append(frames.pack(shown))
            else:
                packed.append(frames.event(index, event.kind, event.data))
        return packed

    def recipients(self) -> list[Peer]:
        peers = [m.peer for m in self.members if m.peer is not None]
        return peers + list(self.spectators)

    def notice(self, text: str) -> None:
        frame = p.encode({"t": p.NOTICE, "text": text})
        for peer in self.recipients():
            peer.send_frame(frame)

    def room_message(self, you: Member | None) -> dict[str, Any]:
        owner = self.owner
        try:
            rules = self.game.rules_for(self.options)
        except Exception:
            rules = {}
        return {
            "t": p.ROOM,
            "code": self.code,
            "game": self.game.id,
            "game_name": self.game.name,
            "deck": self.deck_name,
            "options": self.options,
            "rules": rules,
            "bot_takeover": self.bot_takeover,
            "has_password": self.password_hash is not None,
            "owner": owner.seat if owner is not None else None,
            "you": you.seat if you is not None else None,
            "status": self.status,
            "seats": [member.describe() for member in self.seated],
            "spectators": len(self.spectators),
            "min_players": self.game.min_players,
            "max_players": self.game.max_players,
        }

    def broadcast_room(self) -> None:
        for member in self.members:
            if member.peer is not None:
                member.peer.send(self.room_message(member))
        if self.spectators:
            frame = p.encode(self.room_message(None))
            for peer in list(self.spectators):
                peer.send_frame(frame)

    def summary(self) -> dict[str, Any]:
        """This room as the lobby's ``rooms`` list shows it."""
        owner = self.owner
        return {
            "code": self.code,
            "game": self.game.id,
            "game_name": self.game.name,
            "deck": self.deck_name,
            "seats": len(self.seated),
            "max_seats": self.game.max_players,
            "status": self.status,
            "has_password": self.password_hash is not None,
            "owner_name": owner.name if owner is not None else None,
            "spectators": len(self.spectators),
        }
