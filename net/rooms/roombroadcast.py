"""What a room tells the people in it: views, the room's state, notices, chat.

A part of :class:`~partyhost.net.rooms.room.Room` that changes no other part.
Each seat gets its own view and only the events ``Event.for_seat`` allows it;
spectators share the public frame. Frames are queued on each connection,
never awaited: one that falls too far behind drops itself.
"""

from __future__ import annotations

import itertools
import logging
import operator
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from partyhost.engine.core import Event
from partyhost.net import protocol as p
from partyhost.net.deckshelf import decks_in_play
from partyhost.net.rooms.roomgame import RoomGame
from partyhost.net.rooms.roomqueue import Peer
from partyhost.net.rooms.roster import Member, Roster

log = logging.getLogger(__name__)

RECENT_CHAT_LINES = 50
RECENT_CHAT_BYTES = 32 * 1024
"""The chat a room keeps for those who arrive or reconnect: its newest lines, bounded in
number and in encoded size (a line is at most a few hundred bytes)."""


@dataclass(eq=False)
class RoomBroadcast:
    """Builds and sends every frame a room sends to more than its asker."""

    code: str
    roster: Roster
    game: RoomGame
    max_pause: float = float("inf")
    """Seconds an owner's pause lasts at most (``HostConfig.max_pause_seconds``)."""
    _recent_chat: deque[bytes] = field(default_factory=deque, init=False)
    _recent_chat_bytes: int = field(default=0, init=False)
    _recent: deque[tuple[int, Event]] = field(
        default_factory=lambda: deque(maxlen=p.LOG_EVENTS), init=False
    )
    """The game's newest events with the version each change made, kept for those who
    arrive or come back: their first view carries them as ``log``, so it does not start
    blank (a reloaded page, a phone that slept). Each keeps its version, so what it
    shows is judged by the state it happened in, not the one the newcomer arrives in."""

    # --- views -----------------------------------------------------------------

    def first_view(self, seat: int | None) -> dict[str, Any]:
        """A newcomer's or returner's view frame: the table as it is, no events, and the
        room's recent events as ``log``, each as this seat may see it."""
        table = self.game.table
        assert table is not None
        seat = self.game.view_seat(seat)
        log = []
        for version, change in itertools.groupby(self._recent, key=operator.itemgetter(0)):
            log.append({"version": version, "events": [e.for_seat(seat) for _, e in change]})
        return {
            "t": p.VIEW,
            "version": table.version,
            "view": table.view(seat),
            "events": [],
            "now": self.game.clock.now(time.time()),
            "log": log,
        }

    def views(self, events: Sequence[Event] = ()) -> None:
        """Every connected seat its own view frame, spectators the public one, built together
        so their shared parts are packed once; the events are kept for :meth:`first_view`."""
        table = self.game.table
        if table is None:
            return
        self._recent.extend((table.version, event) for event in events)
        watching = [
            (member.peer, self.game.view_seat(member.seat))
            for member in self.roster.members
            if member.peer is not None and not member.left
        ]
        watching += [(peer, None) for peer in self.roster.spectators]
        if not watching:
            return
        views = {seat: table.view(seat) for seat in dict.fromkeys(seat for _, seat in watching)}
        now = self.game.clock.now(time.time())
        try:
            frames = p.ViewFrames(table.version, list(views.values()), now)
        except Exception:  # a part that cannot be packed: find out whose, view by view
            frames = p.ViewFrames(table.version, [], now)
        built: dict[int | None, bytes | None] = {}
        for seat, view in views.items():
            try:
                built[seat] = frames.frame(view, self.seat_events(frames, events, seat))
            except Exception:
                log.exception("room %s: cannot encode the view for seat %s", self.code, seat)
                built[seat] = None
        for peer, seat in watching:
            frame = built[seat]
            if frame is not None:
                peer.send_frame(frame)

    @staticmethod
    def seat_events(frames: p.ViewFrames, events: Sequence[Event], seat: int | None) -> list[bytes]:
        """The events ``seat`` may see, packed; those it sees like others are packed once."""
        packed: list[bytes] = []
        for index, event in enumerate(events):
            if seat is not None and seat in event.private:
                packed.append(frames.pack(event.for_seat(seat)))
            else:
                packed.append(frames.event(index, event.kind, event.data))
        return packed

    # --- the room and its talk ------------------------------------------------

    def notice(self, text: str) -> None:
        self._to_everyone({"t": p.NOTICE, "text": text})

    def chat(self, seat: int | None, name: str, text: str) -> None:
        """A chat line to everyone now, kept for those who arrive or come back later."""
        line = {"t": p.CHAT_LINE, "seat": seat, "name": name, "text": text, "at": time.time()}
        frame = self._to_everyone(line)
        self._recent_chat.append(frame)  # the newest lines, bounded in number and bytes
        self._recent_chat_bytes += len(frame)
        while len(self._recent_chat) > RECENT_CHAT_LINES or (
            self._recent_chat_bytes > RECENT_CHAT_BYTES
        ):
            self._recent_chat_bytes -= len(self._recent_chat.popleft())

    def welcome(self, peer: Peer, seat: int | None, token: str | None, chat: bool = True) -> None:
        """A newcomer's or returner's first frames: ``joined`` with its seat and token, the
        room, its view and (unless it watched until now) the recent chat, oldest first."""
        peer.send({"t": p.JOINED, "code": self.code, "seat": seat, "token": token})
        self.room()
        if self.game.table is not None:
            peer.send(self.first_view(seat))
        if chat:
            for frame in self._recent_chat:
                peer.send_frame(frame)

    def send_out(self, peer: Peer, reason: str) -> None:
        """``peer`` is out of the room, and told so (``left`` with ``reason``)."""
        peer.room = None
        peer.send({"t": p.LEFT, "code": self.code, "reason": reason})

    def _to_everyone(self, message: dict[str, Any]) -> bytes:
        frame = p.encode(message)
        members = [m.peer for m in self.roster.members if m.peer is not None]
        for peer in (*members, *self.roster.spectators):
            peer.send_frame(frame)
        return frame

    def room_message(self, you: Member | None) -> dict[str, Any]:
        """The room's state as ``you`` (None: a spectator) is shown it: the seats shown are
        the seated members and those who left a game still on the table (``gone``); the
        pause, an owner's; ``pause``, the table reading a round's result (until when, who
        has not read it, and where the game's clock stands meanwhile)."""
        game, owner = self.game.game, self.roster.owner
        room_game, clock, hold = self.game, self.game.clock, self.game.result_pause
        try:
            rules = game.rules_for(room_game.options)
        except Exception:
            rules = {}
        paused = None
        if clock.paused_at is not None:
            since = clock.paused_wall if clock.paused_wall is not None else time.time()
            paused = {
                "by": clock.paused_by,
                "at": clock.paused_at,
                "until": since + self.max_pause,
                "asking": sorted(room_game.resume_asks),
            }
        return {
            "t": p.ROOM,
            **self._shared(),
            "options": room_game.options,
            "rules": rules,
            "bot_takeover": room_game.bot_takeover,
            "owner": owner.seat if owner is not None else None,
            "you": you.seat if you is not None else None,
            "seats": [
                member.describe(time.time(), clock.paused_wall)
                for member in self.roster.members
                if not member.left or (not room_game.in_lobby and room_game.in_game(member.seat))
            ],
            "paused": paused,
            "min_players": game.min_players,
            "max_players": game.max_players,
            "pause": None
            if hold is None
            else {"until": hold.until, "waiting": sorted(hold.waiting), "at": clock.stopped_at},
        }

    def _shared(self) -> dict[str, Any]:
        """What the room message and the lobby's summary both show of the room."""
        game, room_game = self.game.game, self.game
        return {
            "code": self.code,
            "game": game.id,
            "game_name": game.name,
            "deck": room_game.deck_name,
            "decks": decks_in_play(room_game.deck_name, room_game.deck_data),
            "has_password": room_game.password_hash is not None,
            "status": self.game.status,
            "spectators": len(self.roster.spectators),
        }

    def room(self) -> None:
        """Everyone the room's state: each member with its own ``you``."""
        for member in self.roster.members:
            if member.peer is not None:
                member.peer.send(self.room_message(member))
        spectators = self.roster.spectators
        if spectators:
            frame = p.encode(self.room_message(None))
            for peer in spectators:
                peer.send_frame(frame)

    def summary(self) -> dict[str, Any]:
        """This room as the lobby's ``rooms`` list shows it."""
        owner = self.roster.owner
        return {
            **self._shared(),
            "seats": len(self.roster.seated),
            "max_seats": self.game.game.max_players,
            "owner_name": owner.name if owner is not None else None,
        }
