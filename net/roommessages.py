"""What a room tells the people in it: views, the room's state, notices.

A mixin of :class:`~partyhost.net.room.Room`. Each connected seat gets its own
view (``game.view(state, seat)``) and only the events ``Event.for_seat``
allows it; spectators share one public frame. Nothing here awaits: frames are
queued on each connection, which drops itself if it falls too far behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from partyhost.engine.core import Event, Game
from partyhost.net import protocol as p
from partyhost.net.members import Member, Peer
from partyhost.net.ratelimit import TokenBucket
from partyhost.net.table import Table


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

    def view_message(self, seat: int | None, events: Sequence[Event]) -> dict[str, Any]:
        assert self.table is not None
        if seat is not None and seat not in self.game_seats:
            seat = None
        shown = [event.for_seat(seat) for event in events]
        return {
            "t": p.VIEW,
            "version": self.table.version,
            "view": self.table.view(seat),
            "events": [event for event in shown if event is not None],
        }

    def send_views(self, events: Sequence[Event] = ()) -> None:
        if self.table is None:
            return
        for member in self.members:
            if member.peer is not None and not member.left:
                member.peer.send(self.view_message(member.seat, events))
        if self.spectators:
            frame = p.encode(self.view_message(None, events))
            for peer in list(self.spectators):
                peer.send_frame(frame)

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
