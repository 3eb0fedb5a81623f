"""Hostile input: thousands of generated frames, and the host stays up for everyone else.

The host runs in a thread with its own event loop; hypothesis drives plain
blocking sockets at it. After every burst of frames the test sends a ping and
waits for its pong, so each frame is known to have been handled: every frame
the protocol refuses must have produced an ``error`` before that pong (or, for
broken framing, a disconnect). Meanwhile a room of bots keeps playing.
"""

from __future__ import annotations

import asyncio
import itertools
import socket
import struct
import threading
import time
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nethelpers import LOOPBACK, Seat, counting, host_config, play_out, table
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from partyhost.net.hosting.host import Host

TIMEOUT = 5.0


class ThreadedHost:
    """A host on its own loop in a thread, so sync tests can hammer it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        config = host_config(
            bot_delay=(0.005, 0.005),
            grace_seconds=0.05,
            heartbeat_interval=2.0,
            messages_per_second=100_000.0,
            message_burst=100_000,
            max_connections=64,
        )
        self.host = Host(config)
        self.run(self.host.start())
        self.port = self.host.port
        self.background: Seat | None = None

    def run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(TIMEOUT * 2)

    def close(self) -> None:
        self.run(self.host.close("test over"))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(TIMEOUT)


@pytest.fixture(scope="module")
def threaded() -> Iterator[ThreadedHost]:
    host = ThreadedHost()
    host.run(_start_background_room(host))
    yield host
    host.close()


async def _start_background_room(threaded: ThreadedHost) -> None:
    """A room that plays on by itself: two bots and a stand-in, with someone watching."""
    seats, code = await table(threaded.port, ["Owner"], start=False, options={"target": 10_000})
    owner = seats[0]
    for _ in range(2):
        await owner.add_bot()
    await owner.expect(p.ROOM, where=lambda r: len(r["seats"]) == 3)
    await owner.start_game()
    await owner.expect(p.VIEW)
    await owner.close()  # past the grace period a stand-in plays the owner's seat
    watcher = await Seat.open(threaded.port, "Watcher")  # bots play for an audience
    await watcher.join_room(code, spectate=True)
    await watcher.expect(p.VIEW)
    threaded.background = watcher


def background_version(threaded: ThreadedHost) -> int:
    assert threaded.host.lobby is not None
    room = next(
        r
        for r in threaded.host.lobby.rooms.values()
        if r.game.id == "counting" and any(m.name == "Owner" for m in r.members)
    )
    assert room.table is not None
    return room.table.version


# --- a blocking wire client ---------------------------------------------------------


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


class WireClient:
    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection((LOOPBACK, port), timeout=TIMEOUT)
        self.decoder = p.FrameDecoder(p.MAX_HOST_FRAME)
        self.pending: list[dict[str, Any]] = []
        self.closed = False
        self.sock.sendall(frame(pack({"t": "hello", "protocol": 1, "name": "Fuzz"})))
        assert self.read()["t"] == p.WELCOME

    def read(self) -> dict[str, Any]:
        """The next frame from the host, skipping its heartbeat pings."""
        while True:
            while not self.pending:
                chunk = self.sock.recv(65536)
                if not chunk:
                    self.closed = True
                    raise ConnectionResetError("host closed the connection")
                bodies = self.decoder.feed(chunk)
                self.pending += [p.decode_body(b, strict_keys=False) for b in bodies]
            message = self.pending.pop(0)
            if message["t"] != p.PING:
                return message

    def until_pong(self, n: int) -> list[dict[str, Any]]:
        """Everything the host sent up to our pong ``n`` (ConnectionResetError if it hung up)."""
        seen: list[dict[str, Any]] = []
        while True:
            message = self.read()
            if message["t"] == p.PONG and message.get("n") == n:
                return seen
            seen.append(message)


_counter = itertools.count(1)
_client: list[WireClient] = []


def wire(threaded: ThreadedHost) -> WireClient:
    if not _client or _client[0].closed:
        _client[:] = [WireClient(threaded.port)]
    return _client[0]


def expectation(body: bytes) -> str | None:
    """The error code the protocol demands for this body, or None if it is valid."""
    try:
        message = p.validate_client_message(p.decode_body(body))
    except p.ProtocolError as refused:
        return refused.code
    return "already_greeted" if message["t"] == p.HELLO else None


# --- strategies -----------------------------------------------------------------------

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text(max_size=30)
    | st.binary(max_size=30)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8) | st.integers(0, 9), inner, max_size=4)
    ),
    max_leaves=12,
)
types = st.sampled_from([*p.CLIENT_MESSAGES, *p.HOST_MESSAGES, "", "x" * 100])
field_names = st.sampled_from(
    sorted({name for fields in p.CLIENT_MESSAGES.values() for name in fields} | {"t", "zz"})
)
shaped = st.builds(
    lambda kind, fields: {"t": kind, **fields},
    types,
    st.dictionaries(field_names, values, max_size=4),
)
plays = st.builds(
    lambda card, v, kind, ref: {
        "t": "play",
        "cmd": {"type": kind, "card": card, "v": v},
        "ref": ref,
    },
    st.integers(-2, 5) | st.text(max_size=3),
    st.integers(-1, 50) | st.none(),
    st.sampled_from(["play", "pass", "seat_left", ""]),
    st.integers(0, 2**31) | st.none(),
)
nested = st.integers(1, 1500).map(lambda depth: b"\x91" * depth + b"\xc0")
bodies = st.one_of(
    st.binary(max_size=64),
    values.map(pack),
    shaped.map(pack),
    plays.map(pack),
    nested,
    st.builds(
        lambda code, data: pack({"t": "chat", "text": msgpack.ExtType(code, data)}),
        st.integers(0, 127),
        st.binary(max_size=8),
    ),
)


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(burst=st.lists(bodies, min_size=1, max_size=6))
def test_every_refused_frame_gets_an_error_and_the_host_stays_up(
    threaded: ThreadedHost, burst: list[bytes]
) -> None:
    client = wire(threaded)
    number = next(_counter)
    client.sock.sendall(
        b"".join(frame(body) for body in burst) + frame(pack({"t": "ping", "n": number}))
    )
    replies = client.until_pong(number)
    codes = [m["code"] for m in replies if m["t"] == p.ERROR]
    assert "internal" not in codes
    wanted = [code for code in map(expectation, burst) if code is not None]
    position = 0
    for code in codes:  # the protocol errors appear in order among any other errors
        if position < len(wanted) and code == wanted[position]:
            position += 1
    assert position == len(wanted), (wanted, codes)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(length=st.integers(p.MAX_CLIENT_FRAME + 1, 2**32 - 1), junk=st.binary(max_size=32))
def test_an_oversized_length_gets_an_error_and_a_disconnect(
    threaded: ThreadedHost, length: int, junk: bytes
) -> None:
    client = WireClient(threaded.port)
    client.sock.sendall(struct.pack(">I", length) + junk)
    assert client.read()["code"] == "frame_too_large"
    with pytest.raises(ConnectionResetError):
        client.read()


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(first=bodies)
def test_anything_but_hello_first_gets_an_error_and_a_disconnect(
    threaded: ThreadedHost, first: bytes
) -> None:
    if expectation(first) == "already_greeted":
        return  # a valid hello is simply welcomed
    with socket.create_connection((LOOPBACK, threaded.port), timeout=TIMEOUT) as sock:
        sock.sendall(frame(first))
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
        decoder = p.FrameDecoder(p.MAX_HOST_FRAME)
        replies = [p.decode_body(b) for b in decoder.feed(received)]
    assert [reply["t"] for reply in replies] == [p.ERROR]


def test_a_seated_fuzzer_sending_random_plays_never_breaks_its_table(
    threaded: ThreadedHost,
) -> None:
    client = WireClient(threaded.port)
    client.sock.sendall(
        frame(pack({"t": "create_room", "game": "counting", "options": {"target": 10_000}}))
    )
    client.sock.sendall(frame(pack({"t": "add_bot"})) + frame(pack({"t": "start_game"})))
    deadline = time.monotonic() + TIMEOUT
    while client.read()["t"] != p.VIEW:
        assert time.monotonic() < deadline
    rng = Rng(5)
    errors = 0
    for n in range(300):
        command = {"type": "play", "card": rng.below(5) - 1, "v": rng.below(4) - 1}
        if rng.below(3) == 0:
            command.pop("v")
        client.sock.sendall(
            frame(pack({"t": "play", "cmd": command, "ref": n}))
            + frame(pack({"t": "ping", "n": 10**6 + n}))
        )
        errors += sum(1 for m in client.until_pong(10**6 + n) if m["t"] == p.ERROR)
    assert errors > 0
    client.sock.close()


def test_the_other_room_played_on_and_a_new_table_plays_a_whole_game(
    threaded: ThreadedHost,
) -> None:
    start = background_version(threaded)
    time.sleep(0.3)
    assert background_version(threaded) > start

    async def fresh_game() -> None:
        seats, _ = await table(threaded.port, ["Ann", "Bob"], options={"target": 20})
        await play_out(seats, counting(), Rng(2))
        for seat in seats:
            await seat.close()

    threaded.run(fresh_game())
    assert not threaded.host._closed.is_set()
