"""A stand-in host for testing screens without a network.

:class:`FakeHost` is a connection factory; each connection it hands out is
the client library's typed request API (:class:`~partyhost.net.clients.client.Requests`)
over a queue instead of a socket: it records what the client sends, checks
it as the real host would, and answers lobby and room requests the way a host
would (game commands are left to the test, which pushes views built from
:mod:`tuikit.samples`).
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

from partyhost.net.clients.client import ConnectionLost, Requests
from partyhost.net.protocol import ProtocolError, validate_client_message

from tuikit.samples import (
    sample_room,
    sample_rooms,
    sample_welcome,
    seat_entry,
    tshirt_view,
    view_frame,
)
from tuikit.samples_history import (
    RUNNING_ID,
    sample_past_games,
    sample_replay,
    sample_standings,
)

Frame = dict[str, Any]


class FakeConnection(Requests):
    """One scripted connection: ``sent`` records messages, ``push`` delivers host frames."""

    def __init__(self, host: FakeHost, name: str) -> None:
        self.host = host
        self.name = name
        self.welcome = host.welcome
        self.sent: list[Frame] = []
        self.closed = False
        self._inbox: asyncio.Queue[Frame | None] = asyncio.Queue()

    def push(self, *frames: Frame) -> None:
        for frame in frames:
            self._inbox.put_nowait(frame)

    def drop(self) -> None:
        """End the stream, as a host that went away without a word."""
        self._inbox.put_nowait(None)

    async def send(self, message: Frame) -> None:
        self.write(message)

    def write(self, message: Frame) -> None:
        if self.closed:
            raise ConnectionLost("closed")
        self.sent.append(message)
        try:
            validate_client_message(copy.deepcopy(message))
        except ProtocolError as refused:
            self.host.refused.append(message)
            self.push({"t": "error", "code": refused.code, "message": refused.message})
            return
        self.push(*self.host.answer(self, message))

    async def recv(self) -> Frame:
        frame = await self._inbox.get()
        if frame is None:
            self._inbox.put_nowait(None)
            raise ConnectionLost("the fake host went away")
        return frame

    async def close(self) -> None:
        self.closed = True
        self.drop()

    def sent_types(self) -> list[str]:
        return [str(frame.get("t")) for frame in self.sent]


class FakeHost:
    """A connection factory whose host answers lobby and room requests from memory."""

    def __init__(
        self,
        *,
        refuse: BaseException | None = None,
        rooms: list[Frame] | None = None,
        welcome: Frame | None = None,
    ) -> None:
        self.refuse = refuse
        self.welcome = welcome or sample_welcome()
        self.rooms = rooms if rooms is not None else sample_rooms()
        self.room: Frame | None = None
        self.connections: list[FakeConnection] = []
        self.refused: list[Frame] = []
        """Messages the real host would refuse as malformed (none, if the client is right)."""
        self.calls: list[tuple[str, int, str]] = []
        self.tokens: dict[str, str] = {}
        """Seat tokens ``resume_seat`` takes back to a room (token -> room code)."""

    async def __call__(self, host: str, port: int, name: str) -> FakeConnection:
        self.calls.append((host, port, name))
        if self.refuse is not None:
            raise self.refuse
        connection = FakeConnection(self, name)
        self.connections.append(connection)
        return connection

    @property
    def last(self) -> FakeConnection:
        return self.connections[-1]

    def answer(self, connection: FakeConnection, message: Frame) -> list[Frame]:
        kind = message.get("t")
        if kind == "list_rooms":
            return [{"t": "rooms", "rooms": copy.deepcopy(self.rooms)}]
        if kind == "resume_seat":
            code = self.tokens.get(str(message["token"]))
            if code is None:
                return [{"t": "error", "code": "token_unknown", "message": "No such seat."}]
            self.room = sample_room(you=2, status="playing")
            self.room["code"] = code
            joined = {"t": "joined", "code": code, "seat": 2, "token": message["token"]}
            return [joined, copy.deepcopy(self.room)]
        if kind in ("list_past_games", "get_standings", "get_replay"):
            return self._past(message)
        if kind in ("create_room", "join_room"):
            spectate = bool(message.get("spectate"))
            you = None if spectate else (0 if kind == "create_room" else 4)
            seats = [seat_entry(0, connection.name, ready=True)] if kind == "create_room" else None
            self.room = sample_room(you=you, seats=seats)
            if kind == "join_room" and not spectate:
                self.room["seats"].append(seat_entry(4, connection.name))
            code = str(message.get("code", "KQZD"))
            self.room["code"] = code
            return [
                {"t": "joined", "code": code, "seat": you, "token": "tok"},
                copy.deepcopy(self.room),
            ]
        if self.room is None:
            return []
        return self._room_request(connection, message)

    def _past(self, message: Frame) -> list[Frame]:
        """The host's memory: sample past games, tonight's standings, game 1's replay in pages."""
        kind = message["t"]
        if kind == "list_past_games":
            return [{"t": "past_games", "night": None, "games": sample_past_games()}]
        if kind == "get_standings":
            return [sample_standings()]
        if message["id"] == RUNNING_ID:
            text = "Game 2 (What Do You Meme? in room HTWX) is still being played."
            return [{"t": "error", "code": "game_running", "message": text}]
        info, steps = sample_replay()
        first, count = message.get("first") or 0, message.get("count") or 40
        page = steps[first : first + count]
        return [
            {
                "t": "replay",
                "id": 1,
                "info": info,
                "first": first,
                "steps": page,
                "total": len(steps),
            }
        ]

    def _room_request(self, connection: FakeConnection, message: Frame) -> list[Frame]:
        room = self.room
        assert room is not None
        kind = message.get("t")
        if kind == "leave_room":
            self.room = None
            return [{"t": "left", "code": room["code"], "reason": "left"}]
        if kind == "chat":
            return [
                {
                    "t": "chat_line",
                    "seat": room["you"],
                    "name": connection.name,
                    "text": message["text"],
                    "at": 0.0,
                }
            ]
        if kind == "set_ready":
            for entry in room["seats"]:
                if entry["seat"] == room["you"]:
                    entry["ready"] = bool(message["ready"])
        elif kind == "add_bot":
            seat = max(entry["seat"] for entry in room["seats"]) + 1
            room["seats"].append(seat_entry(seat, f"Bot {seat}", ready=True, bot=True))
        elif kind in ("kick", "remove_bot"):
            room["seats"] = [e for e in room["seats"] if e["seat"] != message["seat"]]
        elif kind == "set_options":
            room["options"] = dict(message["options"])
        elif kind == "start_game":
            room["status"] = "playing"
            return [copy.deepcopy(room), view_frame(tshirt_view(you=room["you"], judge=1))]
        else:
            return []
        return [copy.deepcopy(room)]
