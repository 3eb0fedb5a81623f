"""Friends taking over bots' seats, against a real host on loopback.

A room plays with bots; a friend who joins while the game runs watches, then
takes over a bot's seat (hand and score) where the game's next round starts
(or, in games without rounds, when the game ends).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from nethelpers import Message, Seat, running_host
from partyhost.engine.registry import get_game
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from partyhost.net.hosting.host import Host

FAST: dict[str, dict[str, Any]] = {
    "tshirt": {"target": 1000, "round_results": "no pause"},
    "meme": {"round_results": "no pause"},
    "stealing-home": {"round_results": "no pause"},
    "gridiron": {},
}
"""Options that keep each game short and never stop for a round's result."""


async def autoplay(seat: Seat, game_id: str) -> None:
    """Play ``seat`` with the game's own bot policy for as long as the test runs."""
    game, rng = get_game(game_id), Rng(7)
    while True:
        view = seat.view
        seen = len(seat.log)
        command = game.bot_command(view["view"], rng, view["now"]) if view else None
        if command is not None:
            await seat.play(command)
        with contextlib.suppress(TimeoutError):
            await seat.until(lambda n=seen: len(seat.log) > n, timeout=0.5)


@contextlib.asynccontextmanager
async def bot_room(
    host: Host, game_id: str, bots: int = 2, **options: Any
) -> AsyncIterator[tuple[Seat, str]]:
    """Ann's room of ``game_id`` with ``bots`` bots, started, Ann playing by herself."""
    ann = await Seat.open(host.port, "Ann")
    await ann.create_room(game_id, options={**FAST[game_id], **options})
    code = (await ann.expect(p.JOINED))["code"]
    for _ in range(bots):
        await ann.add_bot(None)
    await ann.expect(p.ROOM, where=lambda room: len(room["seats"]) == bots + 1)
    await ann.start_game()
    await ann.until(lambda: ann.view is not None)
    player = asyncio.create_task(autoplay(ann, game_id))
    try:
        yield ann, code
    finally:
        player.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await player


def notices(seat: Seat) -> list[str]:
    return [str(message["text"]) for message in seat.log if message["t"] == p.NOTICE]


def seated_after(seat: Seat) -> int:
    """Where in ``seat``'s log it was given a seat (a ``joined`` naming one)."""
    return next(
        index
        for index, message in enumerate(seat.log)
        if message["t"] == p.JOINED and message["seat"] is not None
    )


def views_of(seat: Seat, first: int = 0, last: int | None = None) -> list[Message]:
    return [message for message in seat.log[first:last] if message["t"] == p.VIEW]


async def newcomer(host: Host, code: str, name: str) -> tuple[Seat, Message]:
    """``name`` joins the running room; returns it and its ``joined`` (no seat yet)."""
    seat = await Seat.open(host.port, name)
    await seat.join_room(code)
    joined = await seat.expect(p.JOINED)
    return seat, joined


async def test_a_tshirt_newcomer_watches_then_takes_a_bots_seat_at_the_next_round() -> None:
    async with running_host() as host, bot_room(host, "tshirt") as (ann, code):
        bea, joined = await newcomer(host, code, "Bea")
        assert joined["seat"] is None and joined["token"]
        await bea.until(lambda: "You take Bot 1's seat at the next round." in notices(bea))
        round_at_join = (bea.view or {})["view"]["round"]
        await bea.until(lambda: bea.last(p.JOINED)["seat"] is not None, timeout=20)  # type: ignore[index]
        taken = seated_after(bea)
        seat = bea.log[taken]["seat"]
        await ann.until(lambda: "Bea takes over Bot 1's seat." in notices(ann))
        await bea.until(lambda: len(views_of(bea, taken)) > 0)
        first_own = views_of(bea, taken)[0]["view"]
        assert first_own["round"] == round_at_join + 1
        assert first_own["you"] == seat and first_own["hand"]
        # Before the seat was hers, no view showed her a hand.
        assert all(not view["view"].get("hand") for view in views_of(bea, 0, taken))
        room = bea.room or {}
        names = {s["seat"]: s["name"] for s in room["seats"]}
        assert names[seat] == "Bea" and "Bot 1" not in names.values()
        assert room["you"] == seat
