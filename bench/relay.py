"""The floor for ``host_load.py``: a bare asyncio msgpack relay.

Same framing as partyhost (4-byte length + msgpack map) and the same fan-out:
every frame a client sends is answered by a view frame to every client in its
room, each packed for its seat. The views are those of real recorded games,
one trace per game (``host_load.py`` records them and passes the file); a
client's ``hello`` names its room and game, and the room replays that game's
trace, so in a mixed run frames have the shapes and sizes of the real host's
for every game and the load process does the same work for both targets. It
keeps the host's heartbeat too (a ``ping`` to every client every 5 s, answered
with ``pong``), each client at its own phase, so the load process answers as
many pings for both. No rules, no journal, no validation
beyond decoding: whatever the real host costs above this is the price of
being a host.

Run: ``python bench/relay.py PORT TRACE_FILE`` (prints ``ready`` when listening).
The file is a msgpack map from game id to trace; a trace is a list of steps,
each a list of per-seat ``{view, events}``. A ``hello`` without a game gets the
first trace.
"""

from __future__ import annotations

import asyncio
import random
import socket
import struct
import sys
import time
from pathlib import Path
from typing import Any

import msgpack

HEADER = struct.Struct(">I")
HEARTBEAT = 5.0
"""Seconds between pings to one client (the host's default ``heartbeat_interval``)."""


Trace = list[list[dict[str, Any]]]


class RelayRoom:
    def __init__(self, trace: Trace) -> None:
        self.members: list[RelayProtocol] = []
        self.version = 0
        self.trace = trace


class RelayProtocol(asyncio.Protocol):
    rooms: dict[str, RelayRoom] = {}
    traces: dict[str, Trace] = {}

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.room: RelayRoom | None = None
        self.pings = 0
        self.heartbeat: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        loop = asyncio.get_running_loop()
        self.heartbeat = loop.call_later(random.uniform(0, HEARTBEAT), self.ping)

    def ping(self) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        self.pings += 1
        body = msgpack.packb({"t": "ping", "n": self.pings}, use_bin_type=True)
        self.transport.write(HEADER.pack(len(body)) + body)
        self.heartbeat = asyncio.get_running_loop().call_later(HEARTBEAT, self.ping)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while len(self.buffer) >= HEADER.size:
            (length,) = HEADER.unpack_from(self.buffer)
            if len(self.buffer) < HEADER.size + length:
                return
            body = bytes(self.buffer[HEADER.size : HEADER.size + length])
            del self.buffer[: HEADER.size + length]
            self.handle(msgpack.unpackb(body, raw=False))

    def send_view(self, room: RelayRoom, seat_index: int) -> None:
        step = room.trace[room.version % len(room.trace)]
        frame = step[seat_index % len(step)]
        view = {
            "t": "view",
            "version": room.version,
            "view": frame["view"],
            "events": frame["events"],
            "now": time.time(),
        }
        body = msgpack.packb(view, use_bin_type=True)
        if self.transport is not None:
            self.transport.write(HEADER.pack(len(body)) + body)

    def handle(self, message: dict[str, Any]) -> None:
        if message.get("t") == "hello":
            game = str(message.get("game") or next(iter(self.traces)))
            key = str(message["room"])
            if key not in self.rooms:
                self.rooms[key] = RelayRoom(self.traces[game])
            self.room = self.rooms[key]
            self.room.members.append(self)
            self.send_view(self.room, len(self.room.members) - 1)
            return
        room = self.room
        if room is None or message.get("t") == "pong":
            return
        room.version += 1
        for index, member in enumerate(room.members):
            member.send_view(room, index)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        if self.room is not None and self in self.room.members:
            self.room.members.remove(self)


async def serve(port: int) -> None:
    loop = asyncio.get_running_loop()
    server = await loop.create_server(RelayProtocol, "127.0.0.1", port, backlog=2048)
    print("ready", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    RelayProtocol.traces = msgpack.unpackb(Path(sys.argv[2]).read_bytes(), raw=False)
    asyncio.run(serve(int(sys.argv[1])))
