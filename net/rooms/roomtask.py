"""The one task that changes a room: queue items in arrival order, then whatever timer is due.

Client messages arrive validated, so a handler only picks fields; the room
decides who may do what. A refusal goes back to the sender only; a failure
handling one item is logged and the room carries on: no client can stop a
room. After each item its frames go out behind the journal's commit.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from partyhost.engine.core import IllegalMove
from partyhost.net import protocol as p
from partyhost.net.protocol import Refused
from partyhost.net.rooms.outbox import Outgoing
from partyhost.net.rooms.room import Room
from partyhost.net.rooms.roomqueue import (
    CloseRoom,
    Gone,
    Join,
    Observer,
    Peer,
    Request,
    Resume,
    RoomItem,
    Stop,
)

log = logging.getLogger(__name__)

Handler = Callable[[Room, Peer, dict[str, Any]], None]

HANDLERS: dict[str, Handler] = {
    p.LEAVE_ROOM: lambda room, peer, message: room.leave(peer),
    p.SET_READY: lambda room, peer, message: room.set_ready(peer, bool(message["ready"])),
    p.SET_OPTIONS: lambda room, peer, message: room.set_options(
        peer, message["options"], _optional_bool(message.get("bot_takeover"))
    ),
    p.START_GAME: lambda room, peer, message: room.start_game(peer),
    p.KICK: lambda room, peer, message: room.kick(peer, message["seat"]),
    p.ADD_BOT: lambda room, peer, message: room.add_bot(peer, message.get("level")),
    p.REMOVE_BOT: lambda room, peer, message: room.remove_bot(peer, message["seat"]),
    p.REPLACE_WITH_BOT: lambda room, peer, message: room.replace_with_bot(peer, message["seat"]),
    p.GIVE_OWNERSHIP: lambda room, peer, message: room.give_ownership(peer, message["seat"]),
    p.PAUSE_GAME: lambda room, peer, message: room.pause(peer),
    p.RESUME_GAME: lambda room, peer, message: room.resume_game(peer),
    p.CHAT: lambda room, peer, message: room.chat(peer, message["text"]),
    p.PLAY: lambda room, peer, message: room.play(peer, message["cmd"], message.get("ref")),
    p.SEEN: lambda room, peer, message: room.seen(peer),
    p.RECLAIM_ANSWER: lambda room, peer, message: room.answer_reclaim(
        peer, message["ask"], bool(message["yes"])
    ),
}
"""Every room request by message type (the lobby's are answered by the host)."""


def start(room: Room, outgoing: Outgoing, observer: Observer) -> asyncio.Task[None]:
    """Run ``room`` in its own task on the running loop."""
    task = run(room, outgoing, observer)
    return asyncio.get_running_loop().create_task(task, name=f"room {room.code}")


async def run(room: Room, outgoing: Outgoing, observer: Observer) -> None:
    """Handle queued items and timers until the room closes or the host stops it."""
    room.bots.arm_all(time.time())  # the task starts: bots may think (if anyone watches)
    while not room.closed:
        item = await room.next_item()
        if isinstance(item, Stop):
            return
        try:
            if item is not None:
                handle(room, item)
            if not room.closed:
                room.run_timers(time.time())
        except Exception:
            log.exception("room %s failed handling %r", room.code, item)
        outgoing.flush()
        if isinstance(item, Request):
            observer.handled(item)


def handle(room: Room, item: RoomItem) -> None:
    """Do what ``item`` asks of ``room``; a refusal goes back to the asker only."""
    peer = item.peer if isinstance(item, Join | Resume | Request) else None
    ref = None
    try:
        if isinstance(item, Request):
            kind = item.message["t"]
            ref = item.message.get("ref") if kind == p.PLAY else None
            if kind == p.LEAVE_ROOM and room.withdraw(item.peer):
                return  # a visitor stops waiting for the table's answer
            if not room.has(item.peer):
                raise Refused("not_in_room", "You are not in that room any more.")
            HANDLERS[kind](room, item.peer, item.message)
        elif isinstance(item, Join):
            room.join(item.peer, item.spectate)
        elif isinstance(item, Resume):
            room.resume(item.peer, item.member_id, item.token)
        elif isinstance(item, Gone):
            room.connection_lost(item.peer)
        elif isinstance(item, CloseRoom):
            room.close_by_host()
    except Refused as refused:  # its own frame: some say when to try again
        if isinstance(item, Join | Resume) and item.peer.room is room:
            item.peer.room = None  # no seat and not watching: in no room
        if peer is not None:
            peer.send(refused.frame(ref))
    except IllegalMove as illegal:
        if peer is not None:
            peer.send(p.error(illegal.code, illegal.message, ref))


def _optional_bool(value: Any) -> bool | None:
    return None if value is None else bool(value)
