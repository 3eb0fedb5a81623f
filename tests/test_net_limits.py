"""Every resource limit of the host, hit on purpose against a small configured value.

Each :class:`~partyhost.net.config.HostConfig` limit has its own tests: the host is
started with a tiny limit so hitting it is quick, the client that passes it
gets the exact error code (and a message naming the limit), and the host goes
on serving everyone else. Limits tested elsewhere are listed in docs/limits.md.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from nethelpers import LOOPBACK, Seat, connect, running_host, table
from partyhost.net import protocol as p
from partyhost.net.clients.client import ConnectionFailed, build
from partyhost.net.hosting.host import Host

TIMEOUT = 5.0
Message = dict[str, Any]


class Wire:
    """A bare client on asyncio streams: sends exact frames, reads every reply but pings."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int, name: str | None = "Wire", source: str = LOOPBACK) -> Wire:
        """Connected from address ``source``; greeted (``welcome`` read) unless ``name`` is None."""
        async with asyncio.timeout(TIMEOUT):
            reader, writer = await asyncio.open_connection(LOOPBACK, port, local_addr=(source, 0))
        wire = cls(reader, writer)
        if name is not None:
            wire.send(build.hello(p.PROTOCOL_VERSION, name))
            welcome = await wire.read()
            assert welcome is not None and welcome["t"] == p.WELCOME, welcome
        return wire

    def send(self, *messages: Message) -> None:
        """All ``messages`` in one write, so the host reads them together."""
        self.writer.write(b"".join(p.encode(message) for message in messages))

    async def read(self) -> Message | None:
        """The next message from the host, or None once it has closed the connection."""
        async with asyncio.timeout(TIMEOUT):
            while True:
                try:
                    header = await self.reader.readexactly(p.HEADER.size)
                    (length,) = p.HEADER.unpack(header)
                    body = await self.reader.readexactly(length)
                except (asyncio.IncompleteReadError, ConnectionError):
                    return None
                message: Message = p.decode_body(body, strict_keys=False)
                if message["t"] != p.PING:
                    return message

    async def close(self) -> None:
        self.writer.close()
        try:
            async with asyncio.timeout(TIMEOUT):
                await self.writer.wait_closed()
        except (OSError, TimeoutError):
            pass


async def eventually(condition: Callable[[], bool], timeout: float = TIMEOUT) -> None:
    """Wait (polling) until ``condition()`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition never held"
        await asyncio.sleep(0.02)


async def room_codes(seat: Seat) -> set[str]:
    """The codes of the open rooms, as the lobby lists them to ``seat`` now."""
    mark = seat.mark()
    await seat.list_rooms()
    rooms = await seat.expect(p.ROOMS, since=mark)
    return {room["code"] for room in rooms["rooms"]}


async def still_serves(host: Host, name: str = "Later") -> None:
    """A newcomer connects, lists rooms and is answered: the host is fine."""
    later = await Seat.open(host.port, name)
    await room_codes(later)
    await later.close()


async def create(seat: Seat) -> Message:
    """``seat`` creates a counting room; returns the first reply (joined or error)."""
    mark = seat.mark()
    await seat.create_room("counting")
    await seat.until(lambda: any(m["t"] in (p.JOINED, p.ERROR) for m in seat.log[mark:]))
    return next(m for m in seat.log[mark:] if m["t"] in (p.JOINED, p.ERROR))


# --- lobby and room limits ----------------------------------------------------------


async def test_max_rooms_refuses_one_more_room_with_too_many_rooms() -> None:
    async with running_host(max_rooms=2) as host:
        ann, bob, cat = [await Seat.open(host.port, n) for n in ("Ann", "Bob", "Cat")]
        assert (await create(ann))["t"] == p.JOINED
        assert (await create(bob))["t"] == p.JOINED
        refused = await create(cat)
        assert refused["code"] == "too_many_rooms"
        assert refused["message"] == "This host has its maximum of 2 rooms."
        assert len(await room_codes(cat)) == 2
        mark = bob.mark()
        await bob.leave_room()  # his room closes: a slot is free again
        await bob.expect(p.LEFT, since=mark)
        assert (await create(cat))["t"] == p.JOINED
        for seat in (ann, bob, cat):
            await seat.close()


async def test_max_connections_refuses_one_more_client_with_host_full_and_hangs_up() -> None:
    async with running_host(max_connections=2) as host:
        ann = await Seat.open(host.port, "Ann")
        bob = await Seat.open(host.port, "Bob")
        with pytest.raises(ConnectionFailed) as refused:
            await connect(host.port, "Cat")
        assert refused.value.code == "host_full"
        assert "full (2 connections at most)" in str(refused.value)
        raw = await Wire.open(host.port, name=None)  # the refusal comes before any hello
        error = await raw.read()
        assert error is not None and error["code"] == "host_full"
        assert await raw.read() is None  # and then the host hangs up
        await raw.close()
        await room_codes(ann)  # those already in are served as before
        await bob.close()
        await eventually(lambda: len(host.connections) == 1)
        cat = await Seat.open(host.port, "Cat")  # a freed slot is usable again
        await room_codes(cat)
        for seat in (ann, cat):
            await seat.close()


async def test_max_spectators_refuses_one_more_watcher_with_too_many_spectators() -> None:
    async with running_host(max_spectators=1) as host:
        seats, code = await table(host.port, ["Ann"], start=False)
        ann = seats[0]
        cat, dan, eve = [await Seat.open(host.port, n) for n in ("Cat", "Dan", "Eve")]
        await cat.join_room(code, spectate=True)
        assert (await cat.expect(p.JOINED))["seat"] is None
        await dan.join_room(code, spectate=True)
        refused = await dan.expect(p.ERROR)
        assert refused["code"] == "too_many_spectators"
        assert refused["message"] == "This room has its maximum of 1 spectators."
        mark = dan.mark()
        await dan.join_room(code)  # a seat is still fine
        assert (await dan.expect(p.JOINED, since=mark))["seat"] == 1
        await cat.leave_room()
        await ann.expect(p.ROOM, where=lambda r: r["spectators"] == 0 and len(r["seats"]) == 2)
        await eve.join_room(code, spectate=True)
        assert (await eve.expect(p.JOINED))["seat"] is None
        for seat in (ann, cat, dan, eve):
            await seat.close()


# --- rates --------------------------------------------------------------------------


async def test_chat_per_second_and_chat_burst_drop_the_lines_past_the_burst() -> None:
    def from_own_address(port: int, name: str) -> Any:
        return Seat.open(port, name, source="127.0.0.2" if name == "Bob" else LOOPBACK)

    async with running_host(chat_per_second=0.2, chat_burst=2) as host:
        seats, _ = await table(host.port, ["Ann", "Bob"], start=False, opener=from_own_address)
        ann, bob = seats
        for n in range(4):
            await ann.chat(f"line {n}")
        await ann.until(lambda: sum(m["t"] == p.ERROR for m in ann.log) == 2)
        errors = [m for m in ann.log if m["t"] == p.ERROR]
        assert {e["code"] for e in errors} == {"rate_limited"}
        assert "chat limit: 0.2 a second, bursts of 2" in errors[0]["message"]
        mark = ann.mark()
        await bob.chat("bob is not limited by ann")
        await ann.expect(p.CHAT_LINE, since=mark, where=lambda line: line["name"] == "Bob")
        heard = [m["text"] for m in bob.log if m["t"] == p.CHAT_LINE and m["name"] == "Ann"]
        assert heard == ["line 0", "line 1"]
        for seat in seats:
            await seat.close()


async def test_messages_per_second_and_message_burst_drop_the_frames_past_the_burst() -> None:
    async with running_host(messages_per_second=2.0, message_burst=3) as host:
        wire = await Wire.open(host.port)
        await asyncio.sleep(0.6)  # the hello took a token; let the bucket fill up again
        wire.send(*(build.play({"type": "x"}, ref=ref) for ref in range(1, 9)))
        replies = [await wire.read() for _ in range(8)]
        by_code: dict[str, set[int]] = {}
        for reply in replies:
            assert reply is not None and reply["t"] == p.ERROR
            by_code.setdefault(reply["code"], set()).add(reply["ref"])
        assert by_code == {"not_in_room": {1, 2, 3}, "rate_limited": {4, 5, 6, 7, 8}}
        limited = next(r for r in replies if r is not None and r["code"] == "rate_limited")
        assert "at most 2 a second, bursts of 3" in limited["message"]
        wire.send(build.ping(7))  # pings are never limited
        assert await wire.read() == {"t": p.PONG, "n": 7}
        await asyncio.sleep(0.6)  # tokens come back at the configured rate
        wire.send(build.list_rooms())
        assert (await wire.read() or {}).get("t") == p.ROOMS
        other = await Wire.open(host.port, "Other", source="127.0.0.2")  # another address
        other.send(build.list_rooms())
        assert (await other.read() or {}).get("t") == p.ROOMS
        await other.close()
        await wire.close()


# --- idle rooms -----------------------------------------------------------------------


async def test_idle_room_seconds_closes_a_room_nobody_is_connected_to() -> None:
    idle = 0.4
    async with running_host(idle_room_seconds=idle, grace_seconds=60.0) as host:
        kept_seats, kept = await table(host.port, ["Bob"], start=False)
        watched_seats, watched = await table(host.port, ["Dan"], start=False)
        cat = await Seat.open(host.port, "Cat")
        await cat.join_room(watched, spectate=True)
        await cat.expect(p.JOINED)
        await watched_seats[0].close()  # only a spectator is left connected there
        ann = await Seat.open(host.port, "Ann")
        await ann.create_room("counting")
        joined = await ann.expect(p.JOINED)
        gone, token = joined["code"], joined["token"]
        started = time.monotonic()
        await ann.close()  # Ann keeps her seat (grace), but nobody is connected
        bob = kept_seats[0]
        assert await room_codes(bob) == {kept, watched, gone}
        async with asyncio.timeout(TIMEOUT):
            while gone in await room_codes(bob):
                await asyncio.sleep(0.05)
        assert time.monotonic() - started >= idle  # closed for idleness, not at once
        back = await Seat.open(host.port, "Ann", token=token)
        assert (await back.expect(p.ERROR))["code"] == "token_unknown"
        assert back.conn.welcome["resumed"] is False
        await asyncio.sleep(idle * 3)  # rooms with someone connected outlive the limit
        assert await room_codes(bob) == {kept, watched}
        for seat in (bob, cat, back):
            await seat.close()


# --- sizes ----------------------------------------------------------------------------


async def test_max_client_frame_refuses_a_bigger_frame_with_frame_too_large_and_hangs_up() -> None:
    async with running_host(max_client_frame=1024) as host:
        wire = await Wire.open(host.port)
        under = build.chat("x" * 900)
        assert len(p.encode(under)) - p.HEADER.size <= 1024
        wire.send(under)  # fits: handled (and refused only for having no room)
        assert (await wire.read() or {}).get("code") == "not_in_room"
        over = build.chat("x" * 1100)
        size = len(p.encode(over)) - p.HEADER.size
        wire.send(over)
        refused = await wire.read()
        assert refused is not None and refused["code"] == "frame_too_large"
        assert refused["message"] == f"Frame of {size} bytes is over the 1024-byte limit."
        assert await wire.read() is None
        await wire.close()
        await still_serves(host)


async def test_messages_sent_just_before_an_oversized_frame_are_still_handled() -> None:
    """The last good frames and the bad length arrive in one read: both are answered."""
    async with running_host(max_client_frame=1024) as host:
        wire = await Wire.open(host.port)
        wire.writer.write(p.encode(build.chat("last words")) + p.HEADER.pack(5000))
        answered = await wire.read()
        assert answered is not None and answered["code"] == "not_in_room"  # the chat was read
        refused = await wire.read()
        assert refused is not None and refused["code"] == "frame_too_large"
        assert await wire.read() is None
        await wire.close()


async def test_max_name_length_cuts_names_and_numbers_them_within_the_limit() -> None:
    async with running_host(max_name_length=8) as host:
        first = await Seat.open(host.port, "Bartholomew the Great")
        assert first.conn.welcome["limits"]["max_name"] == 8
        owners, code = await table(host.port, ["Owner"], start=False)
        await first.join_room(code)
        await first.expect(p.JOINED)
        second = await Seat.open(host.port, "Bartholomew")
        await second.join_room(code)
        await second.expect(p.JOINED)
        room = await second.expect(p.ROOM)
        names = [seat["name"] for seat in room["seats"]]
        assert names == ["Owner", "Bartholo", "Bartho 2"]  # cut, then numbered within 8
        for seat in (first, second, *owners):
            await seat.close()


async def test_a_hello_with_a_name_past_the_wire_cap_is_refused_and_hung_up() -> None:
    async with running_host(max_name_length=8) as host:
        wire = await Wire.open(host.port, name=None)
        wire.send(build.hello(p.PROTOCOL_VERSION, "x" * 201))
        refused = await wire.read()
        assert refused is not None and refused["code"] == "bad_message"
        assert "at most 200 characters" in refused["message"]
        assert await wire.read() is None  # a refused hello ends the connection
        await wire.close()
        await still_serves(host)


async def test_max_chat_length_cuts_long_lines() -> None:
    async with running_host(max_chat_length=10) as host:
        seats, _ = await table(host.port, ["Ann", "Bob"], start=False)
        ann, bob = seats
        assert ann.conn.welcome["limits"]["max_chat"] == 10
        await ann.chat("hello there, everyone")
        assert (await bob.expect(p.CHAT_LINE))["text"] == "hello ther"
        for seat in seats:
            await seat.close()


async def test_a_chat_line_past_the_wire_cap_is_refused_and_the_player_stays() -> None:
    async with running_host(max_chat_length=10) as host:
        seats, _ = await table(host.port, ["Ann", "Bob"], start=False)
        ann, bob = seats
        mark = ann.mark()
        await ann.chat("x" * (p.MAX_CHAT_LENGTH * 4 + 1))
        refused = await ann.expect(p.ERROR, since=mark)
        assert refused["code"] == "bad_message"
        assert f"at most {p.MAX_CHAT_LENGTH * 4} characters" in refused["message"]
        mark = bob.mark()
        await ann.chat("still here")  # not fatal once greeted
        assert (await bob.expect(p.CHAT_LINE, since=mark))["text"] == "still here"
        for seat in seats:
            await seat.close()
