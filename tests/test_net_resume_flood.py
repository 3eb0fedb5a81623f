"""A reconnect loop with a seat's own token must not flood the rest of the table.

Bob's client comes back with his seat token over and over, each connection
taking the seat from the one before, as fast as it can. The seat may be
taken back a few times in a burst and then slowly; past that the newcomer
is told ``rate_limited`` and the connection holding the seat keeps it. The
others hear "Bob is back." a few times, then once per few seconds.
"""

from __future__ import annotations

import asyncio

from nethelpers import Seat, running_host, table
from partyhost.net import protocol as p
from partyhost.net.clients.client import ReconnectingClient
from partyhost.net.config import HostConfig

TAKEOVERS = 40


async def answered(seat: Seat) -> str:
    """``joined`` or the error code the host answered a resume with."""
    await seat.until(lambda: any(m["t"] in (p.JOINED, p.ERROR) for m in seat.log))
    first = next(m for m in seat.log if m["t"] in (p.JOINED, p.ERROR))
    return p.JOINED if first["t"] == p.JOINED else str(first["code"])


async def test_a_reconnect_loop_with_the_seat_token_is_slowed_and_not_told_to_all() -> None:
    async with running_host() as host:
        (ann, bob), _ = await table(host.port, ["Ann", "Bob"])
        token = bob.conn.token
        assert token is not None
        mark = ann.mark()
        answers: list[str] = []
        loop: list[Seat] = []
        for _ in range(TAKEOVERS):
            again = await Seat.open(host.port, "Bob", token=token)
            answers.append(await answered(again))
            if answers[-1] == p.JOINED:
                loop.append(again)
            else:
                await again.close()  # refused: the loop hangs up and tries again
        await asyncio.sleep(0.3)

        taken = answers.count(p.JOINED)
        assert taken <= HostConfig.resume_burst + 2, answers
        assert answers.count("rate_limited") >= TAKEOVERS - taken
        notices = [m["text"] for m in ann.log[mark:] if m["t"] == p.NOTICE]
        about_bob = [text for text in notices if text.startswith("Bob ")]
        assert 1 <= len(about_bob) <= HostConfig.presence_notice_burst + 1, about_bob
        rooms = [m for m in ann.log[mark:] if m["t"] == p.ROOM]
        assert len(rooms) <= 3 * (HostConfig.resume_burst + 2), len(rooms)

        assert not loop[-1].done  # the last to take the seat keeps it
        for seat in (ann, bob, *loop):
            await seat.close()


SLOW_RESUMES = {"resume_burst": 1, "resumes_per_second": 0.5}
"""One seat taken back at once, then one every two seconds."""


async def test_a_refused_resume_says_when_the_seat_may_be_taken_back() -> None:
    async with running_host(**SLOW_RESUMES) as host:
        (ann, bob), _ = await table(host.port, ["Ann", "Bob"])
        token = bob.conn.token
        assert token is not None
        first = await Seat.open(host.port, "Bob", token=token)
        assert await answered(first) == p.JOINED  # the burst of one
        second = await Seat.open(host.port, "Bob", token=token)
        assert await answered(second) == "rate_limited"
        refusal = next(m for m in second.log if m["t"] == p.ERROR)
        assert isinstance(refusal["retry_after"], float)
        assert 0 < refusal["retry_after"] <= 2.0
        assert "try again in 2 s" in refusal["message"]
        assert not p.host_problems(refusal)
        for seat in (ann, bob, first, second):
            await seat.close()


async def test_the_reconnecting_client_waits_as_long_as_the_host_says() -> None:
    async with running_host(**SLOW_RESUMES) as host:
        (ann, bob), _ = await table(host.port, ["Ann", "Bob"], opener=Seat.reconnecting)
        client = bob.conn
        assert isinstance(client, ReconnectingClient) and client.token is not None
        waits: list[float] = []

        async def recorded_sleep(seconds: float) -> None:
            waits.append(seconds)
            await asyncio.sleep(seconds)

        client.sleep = recorded_sleep
        # Bob's link drops twice in a row: the first time his client takes the seat back
        # at once (the burst of one), the second time the host refuses it for now.
        for drop in range(2):
            mark = bob.mark()
            assert client.connection is not None
            client.connection.abort()
            await bob.expect(
                "connection", since=mark, timeout=10, where=lambda m: m["state"] == "restored"
            )
            if drop == 0:
                await bob.expect(p.JOINED, since=mark)
        told = await bob.expect(
            "connection", since=mark, timeout=10, where=lambda m: "retry_after" in m
        )
        assert told["state"] == "reconnecting" and told["retry_after"] > 0
        ann_mark = ann.mark()
        after_wait = bob.log.index(told)
        await bob.expect(
            "connection", since=after_wait, timeout=10, where=lambda m: m["state"] == "restored"
        )
        await bob.expect(p.JOINED, since=after_wait, timeout=10)
        assert waits == [told["retry_after"]], "one wait, as long as the host said, then one ask"
        assert not any(m["t"] == p.ERROR for m in bob.log[mark:]), "the refusal is handled"
        back = await ann.expect(p.ROOM, since=ann_mark, where=lambda r: r["seats"][1]["connected"])
        assert back["seats"][1]["name"] == "Bob"
        for seat in (ann, bob):
            await seat.close()
