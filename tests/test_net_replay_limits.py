"""Replays cost the host little, and show a private table only to its own people.

Each test is an attack on a real host over TCP, from the typed client API:
asking for a long game's replay must not hold every step in the host's
memory; asking for many replays must neither fill the cache past its byte
budget nor keep the host's cores busy (builds are rated per address); a
password room's finished game opens only for its players' seat tokens or the
password; and game numbers cannot be counted to find other parties' games.
"""

from __future__ import annotations

from typing import Any

from nethelpers import Seat, counting, play_out, running_host, table
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from partyhost.net.clients.client import build
from partyhost.net.hosting.host import Host
from partyhost.net.store.footprint import footprint

STRANGER = "127.0.0.2"
"""A guest on another machine than the players (the tables' clients use 127.0.0.1)."""


async def finished(port: int, names: list[str], seed: int, target: int = 12) -> list[Seat]:
    seats, _ = await table(port, names, options={"target": target})
    await play_out(seats, counting(), Rng(seed))
    for seat in seats:
        await seat.until(lambda s=seat: s.room is not None and s.room["status"] == p.OVER)
    return seats


async def listed(seat: Seat) -> list[dict[str, Any]]:
    mark = seat.mark()
    await seat.list_past_games()
    return list((await seat.expect(p.PAST_GAMES, since=mark))["games"])


async def answer(seat: Seat, message: dict[str, Any]) -> dict[str, Any]:
    """The host's answer to ``message``: a ``replay`` page or an ``error``."""
    mark = seat.mark()
    await seat.send(message)
    await seat.until(lambda: any(m["t"] in (p.REPLAY, p.ERROR) for m in seat.log[mark:]))
    return next(m for m in seat.log[mark:] if m["t"] in (p.REPLAY, p.ERROR))


def lobby_of(host: Host) -> Any:
    assert host.lobby is not None
    return host.lobby


async def test_a_long_games_replay_never_holds_every_step_in_the_hosts_memory() -> None:
    fast = {"messages_per_second": 1000.0, "message_burst": 5000}  # a long game, played quickly
    async with running_host(replay_cache_mib=64.0, **fast) as host:
        seats = await finished(host.port, ["Ann", "Bob"], seed=3, target=2500)
        (game,) = await listed(seats[0])
        first = await answer(seats[0], build.get_replay(game["id"], first=0, count=1))
        total = first["total"]
        assert total > 250, "long enough for several checkpoints"
        lobby_of(host).past_games.forget_replays()
        pages = 0
        await seats[1].get_replay(game["id"], first=0, count=1)
        await seats[1].expect(p.REPLAY)
        (replay,) = lobby_of(host).past_games.kept_replays()
        # What the kept replay holds, walked object by object (its deck is shared with the
        # game's other uses and left out): the host's other allocations do not count.
        held = footprint(replay, shared=[replay.game])
        steps = 0
        while steps < total:  # what every step weighs packed, page by page
            page = await answer(seats[1], build.get_replay(game["id"], first=steps, count=200))
            steps += len(page["steps"])
            pages += len(p.encode({"steps": page["steps"]}))
        assert held < pages, f"the kept replay holds {held} bytes; all its steps pack to {pages}"


async def test_the_replay_cache_keeps_to_its_byte_budget() -> None:
    budget = 0.4  # MiB: two or three of these games' replays, not four
    async with running_host(replay_cache_mib=budget, replay_build_address_burst=20) as host:
        ann = (await finished(host.port, ["Ann", "Bob"], seed=1, target=60))[0]
        for seed in (2, 3, 4):
            await finished(host.port, ["Cy", "Di"], seed=seed, target=60)
        games = await listed(ann)
        assert len(games) == 4
        past = lobby_of(host).past_games
        kept = []
        for game in games:
            page = await answer(ann, build.get_replay(game["id"], first=0, count=1))
            assert page["t"] == p.REPLAY
            assert past.cached_bytes <= past.cache_budget == int(budget * 2**20)
            replays = past.kept_replays()
            # What the kept replays really hold, their decks' copies included, walked here.
            held = footprint(replays, shared=[replay.game for replay in replays])
            assert held <= past.cache_budget, f"{len(replays)} kept replays hold {held} bytes"
            kept.append(len(replays))
        assert 0 < max(kept) < 4, "replays within the budget are kept, the oldest dropped"


async def test_replay_builds_are_rated_per_address_and_kept_replays_still_come() -> None:
    async with running_host(
        replay_cache_mib=0.0,  # nothing kept: every request is a build
        replay_builds_per_address_per_second=0.01,
        replay_build_address_burst=2,
    ) as host:
        await finished(host.port, ["Ann", "Bob"], seed=5)
        flooder = await Seat.open(host.port, "Zed", source=STRANGER)
        (game,) = await listed(flooder)
        asked = build.get_replay(game["id"], first=0, count=1)
        assert (await answer(flooder, asked))["t"] == p.REPLAY
        assert (await answer(flooder, asked))["t"] == p.REPLAY
        refused = await answer(flooder, asked)
        assert refused["t"] == p.ERROR and refused["code"] == "rate_limited"
        await flooder.close()
        again = await Seat.open(host.port, "Zed", source=STRANGER)  # a new connection: no refill
        refused = await answer(again, asked)
        assert refused["t"] == p.ERROR and refused["code"] == "rate_limited"
        other = await Seat.open(host.port, "Cy")  # another address has its own builds
        assert (await answer(other, asked))["t"] == p.REPLAY


async def password_game(port: int, password: str) -> tuple[list[Seat], list[str]]:
    """Ann and Bob finish a game in a password room; their seat tokens."""
    ann = await Seat.open(port, "Ann")
    await ann.create_room("counting", options={"target": 12}, password=password)
    joined = [await ann.expect(p.JOINED)]
    bob = await Seat.open(port, "Bob")
    await bob.join_room(joined[0]["code"], password=password)
    joined.append(await bob.expect(p.JOINED))
    await bob.set_ready()
    bob_seat = joined[1]["seat"]
    await ann.expect(
        p.ROOM, where=lambda room: any(s["seat"] == bob_seat and s["ready"] for s in room["seats"])
    )
    await ann.start_game()
    for seat in (ann, bob):
        await seat.until(lambda s=seat: s.view is not None)
    await play_out([ann, bob], counting(), Rng(7))
    for seat in (ann, bob):
        await seat.until(lambda s=seat: s.room is not None and s.room["status"] == p.OVER)
    return [ann, bob], [str(j["token"]) for j in joined]


async def test_a_password_rooms_game_replays_only_for_its_players_or_the_password() -> None:
    async with running_host() as host:
        _, tokens = await password_game(host.port, "hush")
        stranger = await Seat.open(host.port, "Zed", source=STRANGER)
        (game,) = await listed(stranger)
        assert game["locked"] is True
        for attempt in (
            build.get_replay(game["id"]),
            build.get_replay(game["id"], password="HUSH"),
            build.get_replay(game["id"], token="0" * 32),
        ):
            refused = await answer(stranger, attempt)
            assert refused["t"] == p.ERROR and refused["code"] == "replay_locked", attempt
            assert "hush" not in str(refused)
        with_password = await answer(stranger, build.get_replay(game["id"], password="hush"))
        assert with_password["t"] == p.REPLAY
        later = await answer(stranger, build.get_replay(game["id"], first=1, password="hush"))
        assert later["t"] == p.REPLAY and later["first"] == 1
        wrong = await answer(stranger, build.get_replay(game["id"], first=1, password="nope"))
        assert wrong["t"] == p.ERROR and wrong["code"] == "replay_locked", "opened for hush only"
        returning = await Seat.open(host.port, "Bob", source=STRANGER)  # Bob, from home
        with_token = await answer(returning, build.get_replay(game["id"], token=tokens[1]))
        assert with_token["t"] == p.REPLAY and with_token["total"] == with_password["total"]
        refused = await answer(returning, build.get_replay(game["id"]))  # kept: still locked
        assert refused["t"] == p.ERROR and refused["code"] == "replay_locked"


async def test_game_numbers_cannot_be_counted() -> None:
    async with running_host() as host:
        await finished(host.port, ["Ann", "Bob"], seed=1)
        ann = (await finished(host.port, ["Ann", "Bob"], seed=2))[0]
        numbers = sorted(game["id"] for game in await listed(ann))
        assert len(numbers) == 2 and numbers[0] > 2**20 and numbers[1] - numbers[0] != 1
        for guess in (1, 2, 3, numbers[0] + 1, numbers[1] - 1):
            refused = await answer(ann, build.get_replay(guess))
            assert refused["t"] == p.ERROR and refused["code"] == "no_such_game"
