"""What a third-party client sees on the wire, checked against a real host on loopback.

Each test sends raw frames (tests/rawwire.py) and checks the host's answers,
their order and their types against what docs/protocol.md promises.
"""

from __future__ import annotations

from typing import Any

from nethelpers import Seat, counting, play_out, running_host, table
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from rawwire import RawClient, packed


async def test_a_map_with_an_integer_key_is_a_bad_message_and_the_connection_stays_open() -> None:
    async with running_host() as host:
        client = await RawClient.open(host.port)
        await client.greet("Ann")
        await client.send_body(packed({"t": p.LIST_ROOMS, 1: "one"}))
        await client.send_body(packed({"t": p.PLAY, "cmd": {"type": "x", 2: 3}}))
        await client.send_body(b"\xc1")
        await client.list_rooms()
        first, second, third, rooms = await client.take(4)
        assert (first["code"], second["code"]) == ("bad_message", "bad_message")
        assert "keys must be text" in first["message"]
        assert third["code"] == "bad_frame"
        assert rooms["t"] == p.ROOMS
        await client.close()


async def test_welcome_limits_give_times_and_rates_as_floats_whatever_the_config_holds() -> None:
    whole = {"heartbeat_interval": 5, "grace_seconds": 120, "chat_per_second": 1}
    async with running_host(messages_per_second=50, **whole) as host:
        client = await RawClient.open(host.port)
        limits = (await client.greet("Ann"))["limits"]
        await client.close()
    assert limits["heartbeat_interval"] == 5.0 and isinstance(limits["heartbeat_interval"], float)
    for name in ("grace_seconds", "chat_per_second", "messages_per_second"):
        assert isinstance(limits[name], float), name
    assert p.host_problems({"t": p.WELCOME, **_welcome_fields(limits)}) == []


def _welcome_fields(limits: dict[str, object]) -> dict[str, object]:
    return {
        "protocol": 1,
        "host": "h",
        "host_id": "0" * 32,
        "resumed": False,
        "games": [],
        "limits": limits,
        "web_door": None,
    }


async def test_every_frame_the_host_sends_matches_its_declaration() -> None:
    """A session that draws every host message type; each frame is checked field by field."""
    # Pings come often, so one arrives; a loaded machine's stall must not drop a client.
    async with running_host(heartbeat_interval=0.2, heartbeat_misses=25) as host:
        ann, bob, eve = [await RawClient.open(host.port) for _ in range(3)]
        await ann.greet("Ann")
        await ann.list_rooms()
        options = {"target": 500, "first_judge": 1}
        await ann.create_room("tshirt", options=options)
        await ann.until(p.JOINED)
        code = ann.last(p.JOINED)["code"]
        await ann.list_rooms()
        await ann.until(p.ROOMS, count=2)
        for _ in range(2):
            await ann.add_bot("hard")
        await bob.greet("Bob")
        await bob.join_room(code.lower(), spectate=True)
        await ann.start_game()
        await ann.until(p.VIEW, count=2)
        await ann.play(ann.last(p.VIEW)["view"]["legal"][0], ref=6)
        await ann.until(p.ACCEPTED)
        await ann.play({"type": "nonsense"}, ref=7)
        await ann.chat("hi")
        await ann.ping(3)
        await ann.hello(1, "Ann")  # a second hello is refused
        await bob.until(p.CHAT_LINE)
        await bob.leave_room()
        await bob.until(p.LEFT)
        await eve.hello(1, "Eve", token="nobody's")
        await eve.until(p.ERROR)
        await eve.list_decks()
        await eve.until(p.DECKS)
        broken = {"name": "broken.yaml", "text": "game: tshirt\nversion: 1\nslogans: [\n"}
        await eve.create_room("tshirt", deck_files=[broken])
        await eve.until(p.ERROR, count=2)
        assert eve.last(p.ERROR)["problems"][0]["file"] == "broken.yaml"
        await ann.until(p.PONG)
        await ann.wait_for(lambda: bool(ann.pings), "a ping")
    for client in (ann, bob, eve):
        await client.wait_closed()
    frames = [*ann.received, *ann.pings, *bob.received, *eve.received]
    assert {frame["t"] for frame in frames} | PAST | RECLAIM == set(p.HOST_MESSAGES)
    for frame in frames:
        assert p.host_problems(frame) == [], frame


PAST = {p.PAST_GAMES, p.REPLAY, p.STANDINGS}
"""Answers about finished games, drawn by the next test."""
RECLAIM = {p.RECLAIM_ASK, p.RECLAIM_WAITING}
"""The question to the table when a seat is asked for by name, drawn by the test after."""


async def test_past_games_replays_and_standings_match_their_declarations() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann", "Bob"])
        await play_out(seats, counting(), Rng(3))
        for seat in seats:
            await seat.close()
        eve = await RawClient.open(host.port)
        await eve.greet("Eve")
        await eve.list_past_games()
        await eve.until(p.PAST_GAMES)
        (game,) = eve.last(p.PAST_GAMES)["games"]
        await eve.get_replay(game["id"], count=5)
        await eve.get_standings()
        await eve.until(p.STANDINGS)
        await eve.until(p.REPLAY)  # built off the loop: it may come after the standings
        await eve.close()
    assert {frame["t"] for frame in eve.received} == {p.WELCOME, *PAST}
    for frame in eve.received:
        assert p.host_problems(frame) == [], frame


async def test_the_question_to_the_table_matches_its_declarations() -> None:
    async with running_host() as host:
        (ann, bob), code = await table(host.port, ["Ann", "Bob"])
        bob.conn.abort()
        await ann.expect(p.NOTICE, where=lambda notice: "lost connection" in notice["text"])
        visitor = await Seat.open(host.port, "Bob")
        await visitor.join_room(code)
        frames = [await visitor.expect(p.RECLAIM_WAITING), await ann.expect(p.RECLAIM_ASK)]
    for frame in frames:
        assert p.host_problems(frame) == [], frame


# --- the order of frames when someone joins or comes back -----------------------------


async def _room_with(host_port: int, game: str, **extra: Any) -> tuple[RawClient, str]:
    ann = await RawClient.open(host_port)
    await ann.greet("Ann")
    await ann.create_room(game, **extra)
    joined, room = await ann.take(2)
    assert (joined["t"], room["t"]) == (p.JOINED, p.ROOM), (joined, room)
    return ann, joined["code"]


async def test_joined_comes_first_and_the_others_hear_a_notice_then_the_room() -> None:
    async with running_host(bot_delay=(60.0, 60.0)) as host:
        # Friends taking bots' seats off: Bob is dealt in at once, in a seat of his own.
        ann, code = await _room_with(host.port, "tshirt", options={"friends_take_bots": False})
        for _ in range(2):
            await ann.add_bot()
            await ann.take(2)
        await ann.start_game()
        assert [f["t"] for f in await ann.take(4)] == [p.NOTICE, p.ROOM, p.VIEW, p.VIEW]
        bob = await RawClient.open(host.port)
        await bob.greet("Bob")
        await bob.join_room(code)
        joined, room, view = await bob.take(3)
        assert (joined["t"], room["t"], view["t"]) == (p.JOINED, p.ROOM, p.VIEW)
        assert view["view"]["you"] == joined["seat"] == 3
        seen = [f["t"] for f in await ann.take(3)]
        assert seen == [p.VIEW, p.NOTICE, p.ROOM]  # Bob is dealt in, announced, seated
        assert ann.received[-2]["text"] == "Bob joined."
        for client in (ann, bob):
            await client.close()


async def test_a_player_back_after_going_away_gets_joined_first_then_room_and_view() -> None:
    async with running_host(grace_seconds=0.2, bot_delay=(60.0, 60.0)) as host:
        ann, code = await _room_with(host.port, "meme", bot_takeover=False)
        bob = await RawClient.open(host.port)
        await bob.greet("Bob")
        await bob.join_room(code)
        token = (await bob.take(2))[0]["token"]
        await ann.take(2)
        await ann.start_game()
        await ann.take(3)
        await bob.close()
        await ann.wait_for(lambda: _after(ann, "Bob is away.", p.ROOM), "Bob going away")
        marked = len(ann.received)
        back = await RawClient.open(host.port)
        await back.hello(1, "Bob", token=token)
        kinds = [f["t"] for f in await back.take(4)]
        assert kinds == [p.WELCOME, p.JOINED, p.ROOM, p.VIEW]
        await ann.wait_for(lambda: _after(ann, "Bob is back.", p.ROOM), "Bob coming back")
        told = ann.received[marked:]
        assert [f["t"] for f in told] == [p.VIEW, p.NOTICE, p.ROOM]  # seat_back, then the rest
        assert told[1]["text"] == "Bob is back."
        for client in (ann, back):
            await client.close()


def _after(client: RawClient, notice: str, kind: str) -> bool:
    """Whether a frame of ``kind`` has arrived after the notice ``notice``."""
    texts = [frame.get("text") for frame in client.received]
    if notice not in texts:
        return False
    later = client.received[texts.index(notice) + 1 :]
    return any(frame["t"] == kind for frame in later)


# --- acknowledging a play ---------------------------------------------------------------


async def test_an_accepted_play_with_a_ref_is_acknowledged_before_its_view() -> None:
    async with running_host(bot_delay=(60.0, 60.0)) as host:
        ann, code = await _room_with(host.port, "meme")
        bob = await RawClient.open(host.port)
        await bob.greet("Bob")
        await bob.join_room(code)
        await bob.take(2)
        await ann.take(2)
        await ann.start_game()
        *_, view = await ann.take(3)
        (roll,) = view["view"]["legal"]
        await ann.play(roll, ref=41)
        accepted, after = await ann.take(2)
        assert accepted == {"t": p.ACCEPTED, "ref": 41, "version": 1}
        assert (after["t"], after["version"]) == (p.VIEW, 1)
        await ann.play(roll, ref=42)
        (refused,) = await ann.take(1)
        assert (refused["t"], refused["code"], refused["ref"]) == (p.ERROR, "already_rolled", 42)
        await bob.wait_for(lambda: _has_view(bob, 1), "Ann's roll")
        (bob_roll,) = bob.last(p.VIEW)["view"]["legal"]
        await bob.play(bob_roll)
        await bob.wait_for(lambda: _has_view(bob, 2), "his own roll")
        assert not any(frame["t"] == p.ACCEPTED for frame in bob.received)
        for client in (ann, bob):
            await client.close()


def _has_view(client: RawClient, version: int) -> bool:
    return any(f["t"] == p.VIEW and f["version"] == version for f in client.received)
