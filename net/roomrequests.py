"""What a room does with each request; called only from the room's own task.

Each handler checks who is asking (member, owner, spectator), refuses with an
``error`` to the sender only, or changes the room and tells everyone.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from partyhost.engine.core import BOT_LEVELS, IllegalMove
from partyhost.net import protocol as p
from partyhost.net import roomhistory, seating
from partyhost.net.credentials import new_token, token_hash
from partyhost.net.hostbots import DEFAULT_LEVEL, BotBrain, thinking_delay
from partyhost.net.members import Member, Peer
from partyhost.net.names import clean_text, unique_name
from partyhost.net.ratelimit import TokenBucket
from partyhost.net.table import Table

if TYPE_CHECKING:
    from partyhost.net.room import Room

log = logging.getLogger(__name__)


class Refused(Exception):
    """A request the room will not do: becomes an ``error`` to its sender."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _joined(room: Room, seat: int | None, token: str | None) -> dict[str, Any]:
    return {"t": p.JOINED, "code": room.code, "seat": seat, "token": token}


def _welcome_in(room: Room, peer: Peer, member: Member | None, token: str | None) -> None:
    """Send a newcomer (or returner) everything it needs: seat, room, fresh view."""
    peer.send(_joined(room, member.seat if member else None, token))
    room.broadcast_room()
    if room.table is not None:
        peer.send(room.view_message(member.seat if member else None, ()))
    room.arm_bots(time.time())  # bots play only while someone is watching


def join(room: Room, peer: Peer, spectate: bool) -> None:
    if peer.closed:
        return  # gone before its turn in the queue
    try:
        if room.closed:
            raise Refused("no_such_room", "That room has just closed.")
        if spectate:
            _spectate(room, peer)
        else:
            _take_seat(room, peer)
    except Refused as refused:
        if peer.room is room:
            peer.room = None
        peer.send(p.error(refused.code, refused.message))


def _spectate(room: Room, peer: Peer) -> None:
    if len(room.spectators) >= room.config.max_spectators:
        limit = room.config.max_spectators
        raise Refused("too_many_spectators", f"This room has its maximum of {limit} spectators.")
    room.spectators[peer] = TokenBucket(room.config.chat_per_second, room.config.chat_burst)
    peer.room, peer.member = room, None
    _welcome_in(room, peer, None, None)


def _check_capacity(room: Room) -> None:
    if room.status == p.PLAYING and not room.game.joins_mid_game:
        raise Refused(
            "game_in_progress", f"{room.game.name} takes no players mid-game; spectate instead."
        )
    if len(room.seated) >= room.game.max_players:
        raise Refused("room_full", f"All {room.game.max_players} seats are taken.")


def _next_seat(room: Room) -> int:
    if room.status == p.LOBBY:
        return len(room.seated)
    return max((m.seat for m in room.members if m.seat is not None), default=-1) + 1


def _seat_member(room: Room, member: Member) -> None:
    """Add ``member`` to the room (and to a running game, if there is one)."""
    now = time.time()
    if room.status == p.PLAYING and room.table is not None and member.seat is not None:
        events = room.table.system("seat_joined", member.seat, now)
        if events is None:
            raise Refused("game_in_progress", "The game cannot seat anyone right now.")
        room.members.append(member)
        room.game_seats.add(member.seat)
        room.changed(events, now)
    else:
        room.members.append(member)
    if room.owner is None and member.human:
        room.owner_id = member.member_id


def _take_seat(room: Room, peer: Peer) -> None:
    _check_capacity(room)
    name = unique_name(peer.name, [m.name for m in room.seated], room.config.max_name_length)
    token = new_token()
    member = room.new_member(name, _next_seat(room), token_hash(token), bot=False)
    _seat_member(room, member)
    member.peer = peer
    peer.room, peer.member = room, member
    room.services.remember_token(token_hash(token), room, member.member_id)
    room.save()
    room.notice(f"{name} joined.")
    _welcome_in(room, peer, member, token)


def resume(room: Room, peer: Peer, member_id: int, token: str) -> None:
    """A player is back with their token: same seat, fresh room and view."""
    member = next((m for m in room.members if m.member_id == member_id), None)
    if room.closed or member is None or member.left:
        peer.room = None
        peer.send(p.error("token_unknown", "That seat is no longer yours; join a room again."))
        return
    old = member.peer
    if old is not None and old is not peer:
        old.member, old.room = None, None
        old.send({"t": p.LEFT, "code": room.code, "reason": "replaced"})
        old.close("replaced by a newer connection")
    member.peer = peer
    peer.room, peer.member = room, member
    seating.back(room, member, time.time())
    room.notice(f"{member.name} is back.")
    _welcome_in(room, peer, member, token)


# --- requests from members and spectators -----------------------------------


def handle(room: Room, peer: Peer, message: dict[str, Any]) -> None:
    kind = message["t"]
    ref = message.get("ref") if kind == p.PLAY else None
    try:
        if peer.room is not room or room.closed:
            raise Refused("not_in_room", "You are not in that room any more.")
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise Refused("bad_message", f"'{kind}' is not a room request.")
        handler(room, peer, message)
    except Refused as refused:
        peer.send(p.error(refused.code, refused.message, ref))
    except IllegalMove as illegal:
        peer.send(p.error(illegal.code, illegal.message, ref))


def _player(peer: Peer) -> Member:
    if peer.member is None:
        raise Refused("not_a_player", "Spectators cannot do that.")
    return peer.member


def _owner(room: Room, peer: Peer) -> Member:
    member = _player(peer)
    if member.member_id != room.owner_id:
        raise Refused("not_owner", "Only the room's owner may do that.")
    return member


def _between_games(room: Room) -> None:
    if room.status == p.PLAYING:
        raise Refused("not_in_lobby", "Not while a game is running.")


def _leave(room: Room, peer: Peer, message: dict[str, Any]) -> None:
    if peer.member is None:
        room.spectators.pop(peer, None)
        peer.room = None
        peer.send({"t": p.LEFT, "code": room.code, "reason": "left"})
        room.broadcast_room()
        return
    seating.remove(room, peer.member, "left", time.time())


def _set_ready(room: Room, peer: Peer, message: dict[str, Any]) -> None:
    member = _player(peer)
    _between_games(room)
    member.ready = bool(message["ready"])
    room.save()
    room.broadcast_room()


def _set_options(room: Room, peer: Peer, message: dict[str, Any]) -> None:
    _owner(room, peer)
    _between_games(room)
    merged = {**room.options, **message["options"]}
    room.game.rules_for(merged)  # raises IllegalMove("bad_option", ...)
    room.options = merged
    if message.get("bot_takeover") is not None:
        room.bot_takeover = bool(message["bot_takeover"])
    for member in room.seated:
        if member.member_id != room.owner_id:
            member.ready = False
    room.save()
    room.broadcast_room()


def _start(room: Room, peer: Peer, message: dict[str, Any]) -> None:
    _owner(room, peer)
    _between_games(room)
    game = room.game
    players = room.seated
    if not game.min_players <= len(players) <= game.max_players:
        raise Refused(
            "player_count",
            f"{game.name} needs {game.min_players} to {game.max_players} players; "
            f"this room has {len(players)}.",
        )
    rules = game.rules_for(room.options)
    seed = secrets.randbits(63)
    room.renumber()
    seats = [m.seat for m in room.members if m.seat is not None]
    try:
        table = Table.rebuild(game, room.deck, seats, rules, seed, room.journal, room.code)
    except IllegalMove as refused:
        raise Refused("cannot_start", refused.message) from None
    except Exception:
        log.exception("room %s: %s setup failed", room.code, game.id)
        raise Refused("cannot_start", "The game could not be set up with this deck.") from None
    room.table, room.seed, room.rules, room.start_seats = table, seed, rules, seats
    room.game_seats = set(seats)
    room.status = p.PLAYING
    now = time.time()
    for member in room.members:
        member.ready, member.away, member.engine_away = False, False, False
        if member.human:
            member.brain = None
            if member.peer is None:  # not here: the grace period starts with the game
                member.disconnected_at = now
    room.journal.start_game(room.record(), room.member_records())
    roomhistory.game_started(room, now)
    room.notice(f"{game.name} begins!")
    room.broadcast_room()
    room.changed((), now)


def _kick(room: Room, peer: Peer, message: dict[str, Any]) -> None:
    owner = _owner(room, peer)
    target = room.member_at(message["seat"])
    if target is None or target is owner:
        raise Refused("bad_seat", f"No one else sits in seat {message['seat']}.")
    seating.remove(room, target, "kicked", time.time())


def _bot_level(message: dict[str, Any]) -> str:
    level = message.get("level")
    if level is None:
        return DEFAULT_LEVEL
    if level not in BOT_LEVELS:
        choices = f"{', '.join(BOT_LEVELS[:-1])} or {BOT_LEVELS[-1]}"
        raise Refused("bad_level", f"'{level}' is not a bot level: choose {choices}.")
    return str(level)


def _add_bot(room: Room, peer: Peer, message: dict[str, Any]) -> None:
    _owner(room, peer)
    level = _bot_level(message)
    _check_capacity(room)
    count = sum(1 for m in room.seated if m.bot) + 1
    name = unique_name(f"Bot {count}", [m.name for m in room.seated], room.config.max_name_length)
    member = room.new_member(name, _next_seat(room), None, bot=True)
    member.ready, member.bot_level = True, level
    delay = thinking_delay(room.game, level, room.config.bot_delay)
    member.brain = BotBrain(member.bot_seed, delay)
    _seat_member(room, member)
    room.save()
    article = "an" if level[0] in "aeiou" else "a"
    kind = "a bot" if level == DEFAULT_LEVEL else f"{article} {level} bot"
    room.notice(f"{name} ({kind}) joined.")
    room.broadcast_room()


def _remove_bot(room: Room, peer: Peer, message: dict[str, Any]) -> None:
    _owner(room, peer)
    target = room.member_at(message["seat"])
    if target is None:
        raise Refused("bad_seat", f"No one sits in seat {message['seat']}.")
    if not target.bot:
        raise Refused("not_a_bot", f"{target.name} is not a bot.")
    seating.remove(room, target, "removed", time.time())


def _chat(room: Room, peer: Peer, message: dict[str, Any]) -> None:
    member = peer.member
    bucket = member.chat if member is not None else room.spectators.get(peer)
    if bucket is None or not bucket.take():
        rate, burst = room.config.chat_per_second, room.config.chat_burst
        raise Refused(
            "rate_limited",
            f"You are chatting too fast (chat limit: {rate:g} a second, bursts of {burst}); "
            "wait a moment.",
        )
    text = clean_text(message["text"], room.config.max_chat_length)
    if not text:
        raise Refused("empty_chat", "That chat line was empty.")
    frame = p.encode(
        {
            "t": p.CHAT_LINE,
            "seat": member.seat if member is not None else None,
            "name": member.name if member is not None else peer.name,
            "text": text,
            "at": time.time(),
        }
    )
    for recipient in room.recipients():
        recipient.send_frame(frame)


def _play(room: Room, peer: Peer, message: dict[str, Any]) -> None:
    member = _player(peer)
    if room.table is None or room.status != p.PLAYING or member.seat is None:
        raise Refused("not_playing", "No game is running in this room.")
    now = time.time()
    events = room.table.command(member.seat, message["cmd"], now)
    room.changed(events, now)


_HANDLERS: dict[str, Callable[[Room, Peer, dict[str, Any]], None]] = {
    p.LEAVE_ROOM: _leave,
    p.SET_READY: _set_ready,
    p.SET_OPTIONS: _set_options,
    p.START_GAME: _start,
    p.KICK: _kick,
    p.ADD_BOT: _add_bot,
    p.REMOVE_BOT: _remove_bot,
    p.CHAT: _chat,
    p.PLAY: _play,
}
