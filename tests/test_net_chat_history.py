"""A room keeps its recent chat for those who arrive or come back."""

from __future__ import annotations

from nethelpers import Seat, running_host, table
from partyhost.net import protocol as p
from partyhost.net.rooms.roombroadcast import RECENT_CHAT_LINES
from test_net_rejoin import presence_of


async def test_a_newcomer_reads_the_chat_said_before_it_arrived() -> None:
    async with running_host() as host:
        (ann, bob), code = await table(host.port, ["Ann", "Bob"], start=False)
        await ann.chat("hello")
        await bob.expect(p.CHAT_LINE)
        cat = await Seat.open(host.port, "Cat")
        await cat.join_room(code)
        line = await cat.expect(p.CHAT_LINE)
        assert (line["name"], line["text"]) == ("Ann", "hello")
        assert cat.log.index(line) > cat.log.index(cat.last(p.JOINED))  # type: ignore[arg-type]


async def test_a_player_who_reconnects_reads_what_was_said_while_away() -> None:
    async with running_host() as host:
        (ann, bob), _ = await table(host.port, ["Ann", "Bob"])
        token = bob.conn.token
        assert token is not None
        await ann.chat("before")
        await bob.expect(p.CHAT_LINE)
        bob.conn.abort()
        await ann.expect(p.ROOM, where=presence_of(1, "disconnected"))
        await ann.chat("while you were out")
        back = await Seat.open(host.port, "Bob")
        await back.resume_seat(token)
        await back.expect(p.JOINED)
        await back.until(lambda: len([m for m in back.log if m["t"] == p.CHAT_LINE]) == 2)
        said = [m["text"] for m in back.log if m["t"] == p.CHAT_LINE]
        assert said == ["before", "while you were out"]


async def test_the_kept_chat_is_only_the_newest_lines() -> None:
    async with running_host(chat_burst=200, chat_per_second=100.0) as host:
        (ann, bob), code = await table(host.port, ["Ann", "Bob"], start=False)
        for number in range(RECENT_CHAT_LINES + 10):
            await ann.chat(f"line {number}")
        await bob.until(
            lambda: len([m for m in bob.log if m["t"] == p.CHAT_LINE]) == RECENT_CHAT_LINES + 10
        )
        cat = await Seat.open(host.port, "Cat")
        await cat.join_room(code)
        await cat.until(
            lambda: len([m for m in cat.log if m["t"] == p.CHAT_LINE]) == RECENT_CHAT_LINES
        )
        said = [m["text"] for m in cat.log if m["t"] == p.CHAT_LINE]
        assert said[0] == "line 10" and said[-1] == f"line {RECENT_CHAT_LINES + 9}"
