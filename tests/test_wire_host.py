"""What a third-party client sees on the wire, checked against a real host on loopback.

Each test sends raw frames (tests/rawwire.py) and checks the host's answers,
their order and their types against what docs/protocol.md promises.
"""

from __future__ import annotations

from nethelpers import running_host
from partyhost.net import protocol as p
from rawwire import RawClient, packed


async def test_a_map_with_an_integer_key_is_a_bad_message_and_the_connection_stays_open() -> None:
    async with running_host() as host:
        client = await RawClient.open(host.port)
        await client.hello("Ann")
        await client.send_body(packed({"t": p.LIST_ROOMS, 1: "one"}))
        await client.send_body(packed({"t": p.PLAY, "cmd": {"type": "x", 2: 3}}))
        await client.send_body(b"\xc1")
        await client.send({"t": p.LIST_ROOMS})
        first, second, third, rooms = await client.take(4)
        assert (first["code"], second["code"]) == ("bad_message", "bad_message")
        assert "keys must be text" in first["message"]
        assert third["code"] == "bad_frame"
        assert rooms["t"] == p.ROOMS
        await client.close()
