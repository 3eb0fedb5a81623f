"""The floor for ``host_load.py``: a bare asyncio msgpack relay.

Same framing as partyhost (4-byte length + msgpack map) and the same fan-out:
every frame a client sends is answered by a ~1 KiB view frame to every client
in its room. No rules, no journal, no validation beyond decoding: whatever the
real host costs above this is the price of being a host.

Run: ``python bench/relay.py PORT`` (prints ``ready`` when listening).
"""

from __future__ import annotations

import asyncio
import struct
import sys
from typing import Any

import msgpack

HEADER = struct.Struct(">I")
FILLER = "x" * 900


class RelayProtocol(asyncio.Protocol):
    rooms: dict[str, list[RelayProtocol]] = {}

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.room: str | None = None
        self.version = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while len(self.buffer) >= HEADER.size:
            (length,) = HEADER.unpack_from(self.buffer)
            if len(self.buffer) < HEADER.size + length:
                return
            body = bytes(self.buffer[HEADER.size : HEADER.size + length])
            del self.buffer[: HEADER.size + length]
            self.handle(msgpack.unpackb(body, raw=False))

    def handle(self, message: dict[str, Any]) -> None:
        if message.get("t") == "hello":
            self.room = str(message["room"])
            self.rooms.setdefault(self.room, []).append(self)
            return
        if self.room is None:
            return
        members = self.rooms[self.room]
        version = int(message.get("v", 0)) + 1
        for member in members:
            view = {"t": "view", "version": version, "view": {"seat": id(member), "pad": FILLER}}
            body = msgpack.packb(view, use_bin_type=True)
            if member.transport is not None:
                member.transport.write(HEADER.pack(len(body)) + body)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.room is not None and self in self.rooms.get(self.room, []):
            self.rooms[self.room].remove(self)


async def serve(port: int) -> None:
    loop = asyncio.get_running_loop()
    server = await loop.create_server(RelayProtocol, "127.0.0.1", port, backlog=2048)
    print("ready", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(serve(int(sys.argv[1])))
