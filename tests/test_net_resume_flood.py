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
