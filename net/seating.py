"""Seats changing hands: players dropping, going away, leaving, and the owner's chair.

Functions of a :class:`~partyhost.net.room.Room`, run only by its task. The
rules of who keeps what (RULINGS.md, "Common to every game"): a disconnected
player keeps the seat for the grace period; past it the seat is "away" and a
bot stands in (room setting, default on) or the game is told ``seat_away``;
leaving for good during a game is ``seat_left``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from partyhost.net import protocol as p
from partyhost.net.hostbots import DEFAULT_LEVEL, BotBrain, thinking_delay
from partyhost.net.members import Member, Peer

if TYPE_CHECKING:
    from partyhost.net.room import Room


def detach(room: Room, member: Member, reason: str) -> None:
    """Tell the member's connection it is out of the room, and forget the token."""
    peer = member.peer
    if peer is not None:
        peer.member, peer.room = None, None
        peer.send({"t": p.LEFT, "code": room.code, "reason": reason})
        member.peer = None
    if member.token_hash is not None:
        room.services.forget_token(member.token_hash)


def peer_gone(room: Room, peer: Peer) -> None:
    """A connection closed: a spectator is gone, a player's grace period starts."""
    if peer in room.spectators:
        del room.spectators[peer]
        room.broadcast_room()
        return
    member = peer.member
    if member is None or member.peer is not peer:
        return
    member.peer = None
    member.disconnected_at = time.time()
    room.notice(f"{member.name} lost their connection.")
    room.broadcast_room()


def stand_in(room: Room, member: Member, now: float) -> None:
    """Let an in-host bot play ``member``'s seat from that seat's view."""
    delay = thinking_delay(room.game, DEFAULT_LEVEL, room.config.bot_delay)
    member.brain = BotBrain(member.bot_seed, delay)
    if room.watched:
        member.brain.arm(now, room.config.bot_delay, room.jitter)


def grace_over(room: Room, member: Member, now: float) -> None:
    """A player stayed away past the grace period."""
    member.disconnected_at = None
    if room.status != p.PLAYING:
        remove(room, member, "disconnected", now)
        return
    member.away = True
    if room.bot_takeover:
        room.notice(f"{member.name} is away; a bot plays for them until they return.")
        stand_in(room, member, now)
    else:
        room.notice(f"{member.name} is away.")
        if member.seat is not None and room.table is not None:
            events = room.table.system("seat_away", member.seat, now)
            if events is not None:
                member.engine_away = True
                room.changed(events, now)
    if member.member_id == room.owner_id:
        hand_over(room)
    room.broadcast_room()


def back(room: Room, member: Member, now: float) -> None:
    """A player returned: the stand-in stops, or the game hears ``seat_back``."""
    member.disconnected_at = None
    if not member.away:
        return
    member.away = False
    if not member.bot:
        member.brain = None
    if member.engine_away and member.seat is not None and room.table is not None:
        member.engine_away = False
        events = room.table.system("seat_back", member.seat, now)
        if events is not None:
            room.changed(events, now)


def remove(room: Room, member: Member, reason: str, now: float) -> None:
    """A member leaves for good (left, kicked, removed, disconnected in the lobby)."""
    detach(room, member, reason)
    member.disconnected_at = None
    if room.status == p.LOBBY:
        member.left = True
        room.renumber()
    else:
        member.left, member.ready, member.brain = True, False, None
        if room.status == p.PLAYING and member.seat in room.game_seats:
            _leave_game(room, member, now)
    verb = {"kicked": "was kicked", "removed": "was removed"}.get(reason, "left")
    room.notice(f"{member.name} {verb}.")
    if member.member_id == room.owner_id:
        hand_over(room)
    if not any(m.human for m in room.seated):
        room.close("everyone left")
        return
    room.save()
    room.broadcast_room()


def _leave_game(room: Room, member: Member, now: float) -> None:
    assert room.table is not None and member.seat is not None
    events = room.table.system("seat_left", member.seat, now)
    if events is not None:
        room.changed(events, now)
        return
    # The game cannot drop this seat now: keep it played rather than stall the table.
    if room.bot_takeover:
        stand_in(room, member, now)
    else:
        events = room.table.system("seat_away", member.seat, now)
        if events is not None:
            room.changed(events, now)


def hand_over(room: Room) -> None:
    """Give the room to the first connected human, else any human still seated."""
    humans = [m for m in room.seated if m.human and m.member_id != room.owner_id]
    present = [m for m in humans if m.peer is not None and not m.away]
    candidates = present or humans
    if not candidates:
        room.owner_id = None
        return
    room.owner_id = candidates[0].member_id
    room.notice(f"{candidates[0].name} now owns the room.")
