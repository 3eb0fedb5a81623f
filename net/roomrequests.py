"""Turns each item of a room's queue into one call on the :class:`~partyhost.net.room.Room`.

Client messages arrive here already validated (``protocol.validate_client_message``):
each handler only picks the message's fields and calls the room method that
does the job. The room decides who may do what; a refusal (``Refused``, or
the game's ``IllegalMove``) becomes an ``error`` to the sender only, carrying
the ``ref`` of a ``play`` so the client can match it to its command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from partyhost.engine.core import IllegalMove
from partyhost.net import protocol as p
from partyhost.net.room import Room
from partyhost.net.roomqueue import (
    CloseRoom,
    Gone,
    Join,
    Peer,
    Refused,
    Request,
    Resume,
    RoomItem,
)

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
}
"""Every room request by message type (the lobby's are handled by the host)."""


def handle(room: Room, item: RoomItem) -> None:
    """Do what ``item`` asks of ``room``; a refusal goes back to the asker only."""
    if isinstance(item, Request):
        request(room, item.peer, item.message)
    elif isinstance(item, Join):
        _answering(item.peer, None, lambda: room.join(item.peer, item.spectate))
    elif isinstance(item, Resume):
        _answering(item.peer, None, lambda: room.resume(item.peer, item.member_id, item.token))
    elif isinstance(item, Gone):
        room.connection_lost(item.peer)
    elif isinstance(item, CloseRoom):
        room.close_by_host()


def request(room: Room, peer: Peer, message: dict[str, Any]) -> None:
    """One client message for the room."""
    kind = message["t"]
    ref = message.get("ref") if kind == p.PLAY else None

    def call() -> None:
        if not room.has(peer):
            raise Refused("not_in_room", "You are not in that room any more.")
        handler = HANDLERS.get(kind)
        if handler is None:
            raise Refused("bad_message", f"'{kind}' is not a room request.")
        handler(room, peer, message)

    _answering(peer, ref, call)


def _answering(peer: Peer, ref: Any, call: Callable[[], None]) -> None:
    try:
        call()
    except (Refused, IllegalMove) as refused:
        peer.send(p.error(refused.code, refused.message, ref))


def _optional_bool(value: Any) -> bool | None:
    return None if value is None else bool(value)
