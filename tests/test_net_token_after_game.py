"""A seat token after the game ended: kept within the grace period, forgotten past it.

Between games an expired grace period removes the player (docs/protocol.md,
"Reconnecting"): a player who drops once the game is over and stays away longer
than the grace is no longer in the room, so the token they come back with is
unknown. One who is back within the grace keeps the seat. The chaos bench counts
on this rule (a bot's seat freed after the end is no divergence), so a real host
pins it here.
"""

from __future__ import annotations

from typing import Any

from nethelpers import Seat, counting, play_out, running_host, seat_number, table
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p


def notice(text: str) -> Any:
    return lambda message: message["text"] == text


def presence_of(seat: int, presence: str) -> Any:
    return lambda room: any(s["seat"] == seat and s["presence"] == presence for s in room["seats"])


async def over(seats: list[Seat], seed: int) -> None:
    """Play the room's game to its end; every seat sees the room over."""
    await play_out(seats, counting(), Rng(seed))
    for seat in seats:
        await seat.until(lambda s=seat: s.room is not None and s.room["status"] == p.OVER)


async def test_a_player_away_past_the_grace_after_the_game_loses_the_seat_and_its_token() -> None:
    async with running_host(grace_seconds=0.3) as host:
        seats, _ = await table(host.port, ["Ann", "Bob"], options={"target": 12})
        ann, bob = seats
        await over(seats, seed=4)
        token = bob.conn.token
        assert token is not None
        mark = ann.mark()
        bob.conn.abort()
        await ann.expect(p.NOTICE, since=mark, where=notice("Bob left."))

        back = await Seat.open(host.port, "Bob", token=token)
        assert back.conn.welcome["resumed"] is False
        assert (await back.expect(p.ERROR))["code"] == "token_unknown"
        assert back.last(p.JOINED) is None
        await back.close()
        await ann.close()


async def test_a_player_back_within_the_grace_after_the_game_keeps_the_seat() -> None:
    async with running_host(grace_seconds=60.0) as host:
        seats, _ = await table(host.port, ["Ann", "Bob"], options={"target": 12})
        ann, bob = seats
        await over(seats, seed=4)
        token, seat = bob.conn.token, seat_number(bob)
        assert token is not None
        mark = ann.mark()
        bob.conn.abort()
        await ann.expect(p.ROOM, since=mark, where=presence_of(seat, "disconnected"))

        back = await Seat.open(host.port, "Bob", token=token)
        assert back.conn.welcome["resumed"] is True
        joined = await back.expect(p.JOINED)
        assert (joined["seat"], joined["token"]) == (seat, token)
        assert (await back.expect(p.ROOM))["status"] == p.OVER
        await ann.expect(p.ROOM, since=mark, where=presence_of(seat, "connected"))
        await back.close()
        await ann.close()
