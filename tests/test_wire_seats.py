"""Seat limits as a client meets them over a real host: joining agrees with starting."""

from __future__ import annotations

from nethelpers import running_host
from partyhost.engine.gsm.stealing_home.state import MAX_PLAYERS
from partyhost.net import protocol as p
from rawwire import RawClient


async def test_a_running_stealing_home_game_seats_no_more_players_than_may_start_it() -> None:
    """Ten seats (the rulebook says "two or more players"), at the start and later.

    Friends do not take bots' seats in this room: a newcomer to a full room is refused
    until a seat is free (tests/test_net_takeover.py covers the room that hands seats over).
    """
    assert MAX_PLAYERS == 10
    async with running_host(bot_delay=(60.0, 60.0)) as host:
        ann = await RawClient.open(host.port)
        await ann.greet("Ann")
        await ann.create_room("stealing-home", options={"friends_take_bots": False})
        await ann.until(p.ROOM)
        code = ann.last(p.JOINED)["code"]
        for count in range(MAX_PLAYERS - 1):
            await ann.add_bot()
            await ann.until(p.ROOM, count=count + 2)
        await ann.add_bot()
        await ann.until(p.ERROR)
        full = ann.last(p.ERROR)
        assert (full["code"], full["message"]) == ("room_full", "All 10 seats are taken.")
        await ann.start_game()
        await ann.until(p.VIEW)
        bob = await RawClient.open(host.port)
        await bob.greet("Bob")
        await bob.join_room(code)
        await bob.until(p.ERROR)
        assert bob.last(p.ERROR)["code"] == "room_full"
        await ann.remove_bot(MAX_PLAYERS - 1)
        removed = f"Bot {MAX_PLAYERS - 1} was removed."
        await ann.wait_for(lambda: any(f.get("text") == removed for f in ann.received), removed)
        await bob.join_room(code)
        await bob.until(p.VIEW)
        assert bob.last(p.JOINED)["seat"] == MAX_PLAYERS
        view = bob.last(p.VIEW)["view"]
        assert view["you"] == MAX_PLAYERS
        assert len([row for row in view["scores"] if not row["left"]]) == MAX_PLAYERS
        for client in (ann, bob):
            await client.close()
