"""Coming back to your seat: by token, by name, and what everyone sees meanwhile.

A player whose connection died can come back with their seat token, or,
with no token at all, by joining the room again under the same name (after
its password, if it has one) and having the table confirm it: the seat,
hand and score are theirs again, ownership is not. A connected player's seat
is never taken that way. Every seat's presence is in the room message; the
disconnects are journaled, so a restarted host keeps each grace period where
it was. (The attacks on taking a seat by name are in test_net_reclaim.py.)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nethelpers import Seat, counting, host_config, running_host, seat_number, step, table
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from partyhost.net.credentials import HOST_ID, load_host_id
from partyhost.net.hosting.host import Host

Message = dict[str, Any]


def entry(room: Message, seat: int) -> Message:
    return next((s for s in room["seats"] if s["seat"] == seat), {})


def logged(view: Message) -> list[Message]:
    """The events of a first view's log, oldest first."""
    return [event for entry in view["log"] for event in entry["events"]]


def presence_of(seat: int, presence: str) -> Any:
    return lambda room: entry(room, seat).get("presence") == presence


def notice(text: str) -> Any:
    return lambda message: message["text"] == text


async def vouched_for(visitor: Seat, approver: Seat, since: int = 0) -> None:
    """``visitor`` joined under an absent player's name; ``approver`` confirms it is them."""
    await visitor.expect(p.RECLAIM_WAITING, since=since)
    ask = await approver.expect(p.RECLAIM_ASK)
    await approver.reclaim_answer(ask["ask"], True)


@dataclass
class Dropped:
    """Bob's client was killed four moves into a game of three."""

    ann: Seat
    code: str
    view: Message
    """The last view Bob had."""
    token: str
    """The seat token Bob's client held."""


async def bob_dropped(host: Host) -> Dropped:
    seats, code = await table(host.port, ["Ann", "Bob", "Cy"])
    ann, bob, _ = seats
    game, rng = counting(), Rng(3)
    for _ in range(4):
        await step(seats, game, rng)
    before = bob.view
    token = bob.conn.token
    assert before is not None and token is not None
    mark = ann.mark()
    bob.conn.abort()  # a killed client: no goodbye
    await ann.expect(p.ROOM, since=mark, where=presence_of(1, "disconnected"))
    return Dropped(ann, code, before, token)


async def test_a_killed_client_is_announced_and_its_seat_waits_out_a_grace_period() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann", "Bob"])
        ann, bob = seats
        mark = ann.mark()
        bob.conn.abort()
        await ann.expect(p.NOTICE, since=mark, where=notice("Bob lost connection."))
        room = await ann.expect(p.ROOM, since=mark, where=presence_of(1, "disconnected"))
        assert 0 < entry(room, 1)["grace_left"] <= host.config.grace_seconds


async def test_the_welcome_names_no_seat_waiting_under_the_players_name() -> None:
    async with running_host() as host:
        dropped = await bob_dropped(host)
        again = await Seat.open(host.port, "bob")
        assert "waiting_seats" not in again.conn.welcome
        assert dropped.code not in repr(again.conn.welcome)


async def test_a_player_without_a_token_gets_their_seat_back_when_the_owner_confirms() -> None:
    async with running_host() as host:
        dropped = await bob_dropped(host)
        ann = dropped.ann
        mark = ann.mark()
        again = await Seat.open(host.port, "bob")  # the name as written, up to case
        await again.join_room(dropped.code)
        await vouched_for(again, ann)
        joined = await again.expect(p.JOINED)
        assert joined["seat"] == 1 and joined["token"] not in (None, dropped.token)
        view = await again.expect(p.VIEW)
        assert view["view"] == dropped.view["view"]  # same hand, same counter
        await ann.expect(p.NOTICE, since=mark, where=notice("Bob is back."))
        room = await ann.expect(p.ROOM, since=mark, where=presence_of(1, "connected"))
        assert entry(room, 1)["name"] == "Bob" and entry(room, 1)["grace_left"] is None


async def test_a_seat_taken_back_by_name_keeps_its_first_token() -> None:
    async with running_host() as host:
        dropped = await bob_dropped(host)
        again = await Seat.open(host.port, "Bob")
        await again.join_room(dropped.code)
        await vouched_for(again, dropped.ann)
        await again.expect(p.JOINED)
        first = await Seat.open(host.port, "Bob", token=dropped.token)
        assert first.conn.welcome["resumed"] is True
        assert (await first.expect(p.JOINED))["seat"] == 1
        assert (await again.expect(p.LEFT))["reason"] == "replaced"


async def test_the_room_password_comes_before_a_seat_is_taken_back() -> None:
    async with running_host() as host:
        ann = await Seat.open(host.port, "Ann")
        await ann.create_room("counting", password="tea")
        code = (await ann.expect(p.JOINED))["code"]
        bob = await Seat.open(host.port, "Bob")
        await bob.join_room(code, password="tea")
        await bob.expect(p.JOINED)
        await ann.start_game()
        await bob.expect(p.VIEW)
        bob.conn.abort()
        await ann.expect(p.ROOM, where=presence_of(1, "disconnected"))

        again = await Seat.open(host.port, "Bob")
        await again.join_room(code)
        assert (await again.expect(p.ERROR))["code"] == "wrong_password"
        assert ann.last(p.RECLAIM_ASK) is None  # the table is not bothered without it
        mark = again.mark()
        await again.join_room(code, password="tea")
        await vouched_for(again, ann, since=mark)
        assert (await again.expect(p.JOINED, since=mark))["seat"] == 1


async def test_a_connected_players_seat_is_never_taken_by_name() -> None:
    async with running_host() as host:
        seats, code = await table(host.port, ["Ann", "Bob"])
        ann, bob = seats
        impostor = await Seat.open(host.port, "BOB")
        await impostor.join_room(code)
        refusal = await impostor.expect(p.ERROR)
        assert refusal["code"] == "name_in_use" and "Bob" in refusal["message"]
        assert impostor.last(p.JOINED) is None
        # Bob still plays his seat; the room did not change.
        assert [s["name"] for s in ann.room["seats"]] == ["Ann", "Bob"]  # type: ignore[index]
        version = bob.version
        await step([ann, bob], counting(), Rng(1))
        assert bob.version > version and seat_number(bob) == 1


async def test_between_games_a_second_person_of_a_connected_players_name_gets_a_new_seat() -> None:
    async with running_host() as host:
        seats, code = await table(host.port, ["Ann", "Bob"], start=False)
        twin = await Seat.open(host.port, "bob")
        await twin.join_room(code)
        assert (await twin.expect(p.JOINED))["seat"] == 2
        room = await seats[0].expect(p.ROOM, where=lambda r: len(r["seats"]) == 3)
        assert [s["name"] for s in room["seats"]] == ["Ann", "Bob", "bob 2"]


async def test_the_owner_who_comes_back_by_name_leaves_the_room_to_who_confirmed_it() -> None:
    async with running_host() as host:
        seats, code = await table(host.port, ["Ann", "Bob"])
        ann, bob = seats
        ann.conn.abort()
        await bob.expect(p.ROOM, where=presence_of(0, "disconnected"))
        again = await Seat.open(host.port, "Ann")
        await again.join_room(code)
        await vouched_for(again, bob)
        room = await again.expect(p.ROOM)
        assert room["owner"] == 1 and room["you"] == 0


async def test_an_away_player_comes_back_by_name_and_the_stand_in_stops() -> None:
    async with running_host(grace_seconds=0.2) as host:
        seats, code = await table(host.port, ["Ann", "Bob"])
        ann, bob = seats
        await bob.close()
        room = await ann.expect(p.ROOM, where=presence_of(1, "away"))
        assert entry(room, 1)["stand_in"] is True
        again = await Seat.open(host.port, "Bob")
        await again.join_room(code)
        await vouched_for(again, ann)
        room = await again.expect(p.ROOM, where=presence_of(1, "connected"))
        assert entry(room, 1)["stand_in"] is False and entry(room, 1)["away"] is False


async def test_resume_seat_takes_a_connection_in_the_lobby_back_to_its_seat() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann", "Bob"])
        bob = seats[1]
        token = bob.conn.token
        assert token is not None
        before = bob.view
        bob.conn.abort()
        await seats[0].expect(p.ROOM, where=presence_of(1, "disconnected"))
        lobby = await Seat.open(host.port, "Bob")
        await lobby.resume_seat(token)
        joined = await lobby.expect(p.JOINED)
        assert (joined["seat"], joined["token"]) == (1, token)
        assert (await lobby.expect(p.VIEW))["view"] == before["view"]  # type: ignore[index]
        mark = lobby.mark()
        await lobby.resume_seat(token)
        assert (await lobby.expect(p.ERROR, since=mark))["code"] == "already_in_room"

        stranger = await Seat.open(host.port, "Eve")
        await stranger.resume_seat("made-up")
        assert (await stranger.expect(p.ERROR))["code"] == "token_unknown"
        assert stranger.last(p.JOINED) is None


async def test_a_returner_and_a_newcomer_get_the_games_recent_events_for_their_log() -> None:
    """The first view carries the log as each may see it: Bob his own draws' words, a
    spectator nobody's."""
    async with running_host() as host:
        dropped = await bob_dropped(host)
        ann = dropped.ann
        lived = [e for m in ann.log if m["t"] == p.VIEW for e in m["events"]]
        back = await Seat.open(host.port, "Bob")
        await back.resume_seat(dropped.token)
        first = await back.expect(p.VIEW)
        assert first["events"] == []
        lived_versions = [m["version"] for m in ann.log if m["t"] == p.VIEW and m["events"]]
        assert [entry["version"] for entry in first["log"]] == lived_versions
        log = logged(first)
        assert [e["kind"] for e in log] == [e["kind"] for e in lived]
        draws = [e for e in log if e["kind"] == "drew"]
        assert draws and all(("word" in e) == (e["seat"] == 1) for e in draws)
        assert any(e["seat"] == 1 for e in draws)

        watcher = await Seat.open(host.port, "Dee")
        await watcher.join_room(dropped.code, spectate=True)
        public = logged(await watcher.expect(p.VIEW))
        assert [e["kind"] for e in public] == [e["kind"] for e in lived]
        assert not any("word" in e for e in public if e["kind"] == "drew")

        mark = ann.mark()
        game, rng = counting(), Rng(5)
        await step([ann, back], game, rng)
        later = await ann.expect(p.VIEW, since=mark)
        assert "log" not in later  # only a first view has one


async def test_the_log_a_returner_gets_is_the_newest_events_it_saw() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann", "Bob"], options={"target": 10_000})
        ann, bob = seats
        game, rng = counting(), Rng(8)
        for _ in range(p.LOG_EVENTS):  # two events a move
            await step(seats, game, rng)
        await bob.until(lambda: bob.version == ann.version)
        seen = [e for m in bob.log if m["t"] == p.VIEW for e in m["events"]]
        token = bob.conn.token
        assert token is not None and len(seen) > p.LOG_EVENTS
        bob.conn.abort()
        await ann.expect(p.ROOM, where=presence_of(1, "disconnected"))
        back = await Seat.open(host.port, "Bob")
        await back.resume_seat(token)
        assert logged(await back.expect(p.VIEW)) == seen[-p.LOG_EVENTS :]


async def test_a_seat_that_joined_mid_game_and_left_before_acting_gets_the_short_grace() -> None:
    async with running_host(grace_seconds=60, ghost_grace_seconds=0.3) as host:
        seats, code = await table(host.port, ["Ann", "Bob"])
        ann = seats[0]
        ghost = await Seat.open(host.port, "Gus")
        await ghost.join_room(code)
        seat = (await ghost.expect(p.JOINED))["seat"]
        await ghost.expect(p.VIEW)
        ghost.conn.abort()
        room = await ann.expect(p.ROOM, where=presence_of(seat, "disconnected"))
        assert entry(room, seat)["grace_left"] <= 0.3
        room = await ann.expect(p.ROOM, where=presence_of(seat, "away"))
        assert entry(room, seat)["stand_in"] is True
        # Bob, who was dealt in at the start, keeps the whole grace period.
        seats[1].conn.abort()
        room = await ann.expect(p.ROOM, where=presence_of(1, "disconnected"))
        assert entry(room, 1)["grace_left"] > 30


async def test_a_mid_game_joiner_who_acted_keeps_the_whole_grace() -> None:
    async with running_host(grace_seconds=60, ghost_grace_seconds=0.3) as host:
        seats, code = await table(host.port, ["Ann", "Bob"])
        ann = seats[0]
        late = await Seat.open(host.port, "Lu")
        await late.join_room(code)
        seat = (await late.expect(p.JOINED))["seat"]
        everyone = [*seats, late]
        game, rng = counting(), Rng(4)
        while late.view is None or late.view["view"]["turn"] != seat:
            await step(everyone[:2], game, rng)
            await late.until(lambda: late.version == ann.version)
        await step([late], game, rng)
        late.conn.abort()
        room = await ann.expect(p.ROOM, where=presence_of(seat, "disconnected"))
        assert entry(room, seat)["grace_left"] > 30


async def test_a_restarted_host_keeps_grace_periods_and_away_seats_where_they_were(
    tmp_path: Path,
) -> None:
    first = Host(host_config(data_dir=tmp_path))
    await first.start()
    port = first.port
    seats, code = await table(port, ["Ann", "Bob", "Cy"])
    ann, bob, cy = seats
    cy.conn.abort()
    await ann.expect(p.ROOM, where=presence_of(2, "disconnected"))
    await ann.replace_with_bot(2)  # Cy's seat: a bot plays it now
    await ann.expect(p.ROOM, where=presence_of(2, "away"))
    bob.conn.abort()
    await ann.expect(p.ROOM, where=presence_of(1, "disconnected"))
    assert first.journal is not None
    (stored,) = first.journal.load()
    bob_record = next(m for m in stored.members if m.name == "Bob")
    assert bob_record.grace_ends is not None and bob_record.disconnected_at is not None
    await first.close("restarting")
    await ann.close()

    second = Host(host_config(data_dir=tmp_path, port=port))
    await second.start()
    try:
        assert second.lobby is not None
        restored = {m.name: m for m in second.lobby.rooms[code].members}
        assert restored["Bob"].grace_ends() == bob_record.grace_ends  # no fresh grace
        assert restored["Cy"].away and restored["Cy"].playing_bot  # still away, still played
        # Ann was connected when the host stopped: she gets a grace period from the restart.
        ann_grace = restored["Ann"].grace_ends()
        assert ann_grace is not None and ann_grace > bob_record.grace_ends
    finally:
        await second.close()


async def test_the_host_id_is_kept_in_the_data_folder(tmp_path: Path) -> None:
    first = load_host_id(tmp_path)
    assert HOST_ID.fullmatch(first) and load_host_id(tmp_path) == first
    assert (tmp_path / "host-id").stat().st_mode & 0o777 == 0o600
    assert load_host_id(tmp_path / "other") != first
    assert load_host_id(None) != load_host_id(None)
    async with running_host(data_dir=tmp_path) as host:
        seat = await Seat.open(host.port, "Ann")
        assert seat.conn.welcome["host_id"] == first
