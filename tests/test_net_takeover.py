"""Friends taking over bots' seats, against a real host on loopback.

A room plays with bots; a friend who joins while the game runs watches, then
takes over a bot's seat (hand and score) where the game's next round starts
(or, in games without rounds, when the game ends).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from nethelpers import Message, Seat, host_config, running_host
from partyhost.engine.core import Event
from partyhost.engine.registry import get_game
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from partyhost.net.clients.client import ConnectionLost
from partyhost.net.hosting.host import Host

FAST: dict[str, dict[str, Any]] = {
    "tshirt": {"target": 3000, "round_results": "no pause"},
    "meme": {"round_results": "no pause"},
    "stealing-home": {"round_results": "no pause"},
    "scramble": {"match": "best-of-3", "round_results": "no pause"},
    "gridiron": {},
}
"""Options that keep each game short and never stop for a round's result."""


async def autoplay(seat: Seat, game_id: str) -> None:
    """Play ``seat`` with the game's own bot policy for as long as the test runs (in a race,
    at a person's pace: the bot policy finds a Scramble grid at once)."""
    game, rng = get_game(game_id), Rng(7)
    while True:
        await asyncio.sleep(PACE.get(game_id, 0.0))
        view = seat.view
        seen = len(seat.log)
        command = game.bot_command(view["view"], rng, view["now"]) if view else None
        if command is not None:
            with contextlib.suppress(ConnectionLost):  # a restart: the link comes back
                await seat.play(command)
        with contextlib.suppress(TimeoutError):
            await seat.until(lambda n=seen: len(seat.log) > n, timeout=0.5)


@contextlib.asynccontextmanager
async def bot_room(
    host: Host,
    game_id: str,
    bots: int = 2,
    opener: Callable[[int, str], Awaitable[Seat]] = Seat.open,
    **options: Any,
) -> AsyncIterator[tuple[Seat, str]]:
    """Ann's room of ``game_id`` with ``bots`` bots, started, Ann playing by herself."""
    ann = await opener(host.port, "Ann")
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


def round_ended(game_id: str, view: Message) -> bool:
    """Whether the events of a ``view`` frame end a round, as the game tells."""
    events = [Event(str(e["kind"]), e) for e in view["events"]]
    return get_game(game_id).round_over(events)


def seated(seat: Seat) -> int | None:
    """The seat ``seat`` was last given (None: it watches)."""
    joined = seat.last(p.JOINED)
    return None if joined is None else joined["seat"]


def views_of(seat: Seat, first: int = 0, last: int | None = None) -> list[Message]:
    return [message for message in seat.log[first:last] if message["t"] == p.VIEW]


async def newcomer(
    host: Host, code: str, name: str, spectate: bool = False, reconnecting: bool = False
) -> tuple[Seat, Message]:
    """``name`` joins the running room; returns it and its ``joined`` (no seat yet)."""
    opener = Seat.reconnecting if reconnecting else Seat.open
    seat = await opener(host.port, name)
    await seat.join_room(code, spectate=spectate)
    joined = await seat.expect(p.JOINED)
    return seat, joined


PACE = {"scramble": 0.3}
"""Seconds a player of ours waits before each move, where the bots' pace is not enough."""

NEXT_ROUND = {
    "tshirt": "round",
    "meme": "turn",
    "stealing-home": "round",
    "scramble": "game_number",
}
"""The view key each game counts its rounds (or turns) by."""


@pytest.mark.parametrize("game_id", sorted(NEXT_ROUND))
async def test_a_newcomer_watches_then_takes_a_bots_seat_when_the_next_round_starts(
    game_id: str,
) -> None:
    key = NEXT_ROUND[game_id]
    pace = 0.02 if game_id in PACE else 0.0  # racing bots that think, but briefly
    async with running_host(bot_pace=pace) as host, bot_room(host, game_id) as (ann, code):
        await pause(ann)  # however fast the table, she comes while this round runs
        bea, joined = await newcomer(host, code, "Bea")
        assert joined["seat"] is None and joined["token"]
        await bea.until(lambda: "You take Bot 1's seat at the next round." in notices(bea))
        at_join = views_of(bea)[0]["view"][key]  # the table as it was when she came
        await ann.resume_game()
        await bea.until(lambda: seated(bea) is not None, timeout=20)
        taken = seated_after(bea)
        seat = bea.log[taken]["seat"]
        await ann.until(lambda: "Bea takes over Bot 1's seat." in notices(ann))
        await bea.until(lambda: len(views_of(bea, taken)) > 0)
        first_own = views_of(bea, taken)[0]["view"]
        assert first_own[key] > at_join
        # She took the seat where the first round since she came ended, not later.
        ended = [round_ended(game_id, view) for view in views_of(bea, 0, taken)]
        assert ended[-1] and not any(ended[:-1])
        assert first_own["you"] == seat
        # Before the seat was hers, she saw what a spectator sees: no seat's own cards.
        assert all(view["view"].get("you") is None for view in views_of(bea, 0, taken))
        room = bea.room or {}
        names = {s["seat"]: s["name"] for s in room["seats"]}
        assert names[seat] == "Bea" and "Bot 1" not in names.values()
        assert room["you"] == seat


async def test_a_tshirt_newcomer_gets_the_bots_hand_and_score() -> None:
    async with running_host(bot_pace=0.0) as host, bot_room(host, "tshirt") as (ann, code):
        await pause(ann)
        bea, _ = await newcomer(host, code, "Bea")
        await bea.until(lambda: bea.view is not None)
        await ann.resume_game()
        await bea.until(lambda: seated(bea) is not None, timeout=20)
        taken = seated_after(bea)
        await bea.until(lambda: len(views_of(bea, taken)) > 0)
        before = views_of(bea, 0, taken)[-1]["view"]
        own = views_of(bea, taken)[0]["view"]
        assert own["hand"] and not before["hand"]
        seat = bea.log[taken]["seat"]
        score = {row["seat"]: row["score"] for row in before["players"]}
        assert {row["seat"]: row["score"] for row in own["players"]}[seat] == score[seat]


async def test_a_gridiron_newcomer_takes_a_bots_seat_when_the_game_ends() -> None:
    async with running_host(bot_pace=0.0) as host, bot_room(host, "gridiron") as (ann, code):
        await pause(ann)  # she comes while the game runs, however fast it goes
        bea, joined = await newcomer(host, code, "Bea")
        assert joined["seat"] is None
        assert "You take Bot 1's seat when this game ends." in notices(bea)
        await ann.resume_game()
        await bea.until(lambda: seated(bea) is not None, timeout=30)
        room = bea.room or {}
        assert room["status"] == p.OVER and room["you"] == seated(bea)
        assert "Bea takes over Bot 1's seat." in notices(ann)
        assert all(view["view"].get("you") is None for view in views_of(bea, 0, seated_after(bea)))


async def pause(owner: Seat) -> None:
    await owner.pause_game()
    await owner.until(lambda: bool((owner.room or {}).get("paused")))


def turn_of(seat: Seat) -> int:
    return int((seat.view or {})["view"]["turn"])


async def test_with_the_option_off_a_newcomer_only_watches() -> None:
    async with (
        running_host(bot_pace=0.0) as host,
        bot_room(host, "meme", friends_take_bots=False) as (ann, code),
    ):
        bea = await Seat.open(host.port, "Bea")
        await bea.join_room(code)
        refused = await bea.expect(p.ERROR)
        assert refused["code"] == "game_in_progress"
        mark = bea.mark()
        await bea.join_room(code, spectate=True)
        assert (await bea.expect(p.JOINED, since=mark))["seat"] is None
        await bea.until(lambda: bea.view is not None)
        first = turn_of(bea)
        await bea.until(lambda: turn_of(bea) >= first + 2, timeout=20)
        assert seated(bea) is None and not any("takes over" in text for text in notices(ann))
        names = [s["name"] for s in (bea.room or {})["seats"]]
        assert names == ["Ann", "Bot 1", "Bot 2"]


async def test_a_spectator_never_takes_a_bots_seat() -> None:
    async with running_host(bot_pace=0.0) as host, bot_room(host, "meme") as (ann, code):
        bea, _joined = await newcomer(host, code, "Bea", spectate=True)
        await bea.until(lambda: bea.view is not None)
        first = turn_of(bea)
        await bea.until(lambda: turn_of(bea) >= first + 2, timeout=20)
        assert seated(bea) is None and not any("takes over" in text for text in notices(ann))


async def test_two_newcomers_for_one_bot_the_first_gets_it_the_second_watches() -> None:
    async with running_host(bot_pace=0.0) as host, bot_room(host, "meme", bots=1) as (ann, code):
        await pause(ann)  # nobody moves: both wait for the same turn's end
        bea, _ = await newcomer(host, code, "Bea")
        cy, _ = await newcomer(host, code, "Cy")
        assert "You take Bot 1's seat at the next round." in notices(bea)
        await cy.until(lambda: any("promised" in text for text in notices(cy)))
        bea_again, _ = await newcomer(host, code, "Bea")
        assert host.lobby is not None
        waiting = host.lobby.rooms[code].waiting
        assert [m.name for m in waiting] == ["Bea", "Cy", "Bea 2"]  # one name, one person
        await bea_again.leave_room()
        await bea_again.expect(p.LEFT)
        await ann.resume_game()
        await bea.until(lambda: seated(bea) is not None, timeout=20)
        player = asyncio.create_task(autoplay(bea, "meme"))
        try:
            taken_turn = turn_of(cy)
            await cy.until(lambda: turn_of(cy) >= taken_turn + 2, timeout=20)
        finally:
            player.cancel()
        assert seated(cy) is None
        assert [s["name"] for s in (cy.room or {})["seats"]] == ["Ann", "Bea"]
        assert "Bea takes over Bot 1's seat." in notices(cy)
        assert sum("promised" in text for text in notices(cy)) == 1  # told once, not each turn


async def test_a_newcomer_who_leaves_while_waiting_changes_nothing() -> None:
    async with running_host(bot_pace=0.0) as host, bot_room(host, "meme") as (ann, code):
        await pause(ann)
        bea, _ = await newcomer(host, code, "Bea")
        await bea.until(lambda: bea.view is not None)
        await bea.leave_room()
        await bea.expect(p.LEFT)
        await ann.resume_game()
        first = turn_of(ann)
        await ann.until(lambda: turn_of(ann) >= first + 2, timeout=20)
        assert [s["name"] for s in (ann.room or {})["seats"]] == ["Ann", "Bot 1", "Bot 2"]
        room = host.lobby.rooms[code] if host.lobby is not None else None
        assert room is not None and room.waiting == ()


async def test_a_restart_during_the_wait_keeps_it(tmp_path: Path) -> None:
    first = Host(host_config(data_dir=tmp_path, bot_pace=0.0))
    await first.start()
    port = first.port
    async with bot_room(first, "meme", opener=Seat.reconnecting) as (ann, code):
        bea, joined = await newcomer(first, code, "Bea", reconnecting=True)
        assert joined["seat"] is None and joined["token"]
        mark = bea.mark()
        await first.close("restarting")
        second = Host(host_config(data_dir=tmp_path, port=port, bot_pace=0.0))
        await second.start()
        try:
            await bea.expect(
                "connection", since=mark, timeout=20, where=lambda m: m["state"] == "restored"
            )
            await bea.until(lambda: seated(bea) is not None, timeout=20)
            assert bea.last(p.JOINED) == {
                "t": p.JOINED,
                "code": code,
                "seat": seated(bea),
                "token": joined["token"],
            }
            await ann.until(lambda: "Bea takes over Bot 1's seat." in notices(ann), timeout=20)
        finally:
            await second.close("test over")
