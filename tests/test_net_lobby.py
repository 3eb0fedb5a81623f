"""Lobby and room flows against a host on loopback, one rule per test."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from nethelpers import Seat, connect, running_host, seat_number, table
from partyhost.net import protocol as p
from partyhost.net.clients.client import ConnectionFailed, ProtocolMismatch
from partyhost.net.hosting.host import Host
from partyhost.net.rooms.roomqueue import Join, Request


async def test_welcome_lists_games_with_their_decks_and_limits() -> None:
    async with running_host() as host:
        conn = await connect(host.port, "Ann")
        welcome = conn.welcome
        assert welcome["protocol"] == p.PROTOCOL_VERSION
        assert welcome["host"] == "test host"
        assert welcome["resumed"] is False
        counting = next(g for g in welcome["games"] if g["id"] == "counting")
        assert [d["name"] for d in counting["decks"]] == ["counting"]
        assert {o["name"] for o in counting["options"]} >= {"target", "hand"}
        assert welcome["limits"]["max_frame"] == p.MAX_CLIENT_FRAME
        await conn.close()


async def test_protocol_mismatch_is_a_clear_error_naming_both_versions() -> None:
    async with running_host() as host:
        with pytest.raises(ProtocolMismatch) as caught:
            await connect(host.port, "Ann", protocol=p.PROTOCOL_VERSION + 1)
        assert caught.value.host_protocol == p.PROTOCOL_VERSION
        assert f"protocol {p.PROTOCOL_VERSION + 1}" in str(caught.value)
        assert f"protocol {p.PROTOCOL_VERSION}," in str(caught.value)


async def test_connecting_to_a_closed_port_fails_clearly() -> None:
    async with running_host() as host:
        port = host.port
    with pytest.raises(ConnectionFailed):
        await connect(port, "Ann")


async def test_create_room_seats_the_creator_as_owner_with_a_code() -> None:
    async with running_host() as host:
        ann = await Seat.open(host.port, "Ann")
        await ann.create_room("counting", options={"target": 10})
        joined = await ann.expect(p.JOINED)
        assert joined["seat"] == 0 and len(joined["token"]) >= 20
        assert len(joined["code"]) == 4 and set(joined["code"]) <= set(p.ROOM_CODE_LETTERS)
        room = await ann.expect(p.ROOM)
        assert room["owner"] == 0 and room["you"] == 0 and room["status"] == p.LOBBY
        assert room["rules"]["target"] == 10 and room["rules"]["hand"] == 3
        assert room["deck"] == "counting"
        await ann.close()


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        ({"game": "chess"}, "unknown_game"),
        ({"game": "counting", "deck": "nope"}, "unknown_deck"),
        ({"game": "counting", "deck": "../../etc/passwd"}, "unknown_deck"),
        ({"game": "counting", "options": {"target": 1}}, "bad_option"),
        ({"game": "counting", "options": {"colour": "red"}}, "bad_option"),
    ],
)
async def test_create_room_refusals(request_: dict[str, Any], code: str) -> None:
    async with running_host() as host:
        ann = await Seat.open(host.port, "Ann")
        await ann.create_room(**request_)
        error = await ann.expect(p.ERROR)
        assert error["code"] == code
        await ann.close()


async def test_rooms_are_listed_and_joined_by_code_in_any_case() -> None:
    async with running_host() as host:
        seats, code = await table(host.port, ["Ann"], start=False)
        bob = await Seat.open(host.port, "Bob")
        await bob.list_rooms()
        rooms = await bob.expect(p.ROOMS)
        assert [(r["code"], r["seats"], r["owner_name"]) for r in rooms["rooms"]] == [
            (code, 1, "Ann")
        ]
        await bob.join_room(code.lower())
        assert (await bob.expect(p.JOINED))["seat"] == 1
        room = await seats[0].expect(p.ROOM, where=lambda r: len(r["seats"]) == 2)
        assert [s["name"] for s in room["seats"]] == ["Ann", "Bob"]


async def test_joining_an_unknown_code_is_refused() -> None:
    async with running_host() as host:
        bob = await Seat.open(host.port, "Bob")
        await bob.join_room("ZZZZ")
        assert (await bob.expect(p.ERROR))["code"] == "no_such_room"


async def password_room(host: Host) -> tuple[Seat, str]:
    ann = await Seat.open(host.port, "Ann")
    await ann.create_room("counting", password="hunter2")
    code = (await ann.expect(p.JOINED))["code"]
    assert (await ann.expect(p.ROOM))["has_password"] is True
    return ann, code


async def test_a_password_room_seats_only_who_gives_its_password() -> None:
    async with running_host() as host:
        _, code = await password_room(host)
        bob = await Seat.open(host.port, "Bob")
        await bob.join_room(code, password="wrong")
        assert (await bob.expect(p.ERROR))["code"] == "wrong_password"
        mark = bob.mark()
        await bob.join_room(code)
        assert (await bob.expect(p.ERROR, since=mark))["code"] == "wrong_password"
        mark = bob.mark()
        await bob.join_room(code, password="hunter2")
        await bob.expect(p.JOINED, since=mark)


async def test_the_host_keeps_only_a_hash_of_a_room_password() -> None:
    async with running_host() as host:
        _, code = await password_room(host)
        assert host.lobby is not None
        stored = host.lobby.rooms[code].password_hash
        assert stored is not None and "hunter2" not in stored


async def test_spectators_watch_without_a_seat_and_see_only_the_public_view() -> None:
    async with running_host() as host:
        seats, code = await table(host.port, ["Ann", "Bob"])
        eve = await Seat.open(host.port, "Eve")
        await eve.join_room(code, spectate=True)
        joined = await eve.expect(p.JOINED)
        assert joined["seat"] is None and joined["token"] is None
        view = await eve.expect(p.VIEW)
        assert "hand" not in view["view"] and view["view"]["you"] is None
        room = await seats[0].expect(p.ROOM, where=lambda r: r["spectators"] == 1)
        assert len(room["seats"]) == 2
        await eve.play({"type": "play", "card": 0}, ref=9)
        error = await eve.expect(p.ERROR)
        assert (error["code"], error["ref"]) == ("not_a_player", 9)


async def test_names_are_unique_per_room_case_insensitively_and_cleaned() -> None:
    async with running_host() as host:
        seats, code = await table(host.port, ["Ann"], start=False)
        for raw in ("ANN", "\x1b[31mann\x1b[0m", "Bo\x07b\u202e"):
            seat = await Seat.open(host.port, raw)
            await seat.join_room(code)
            await seat.expect(p.JOINED)
        room = await seats[0].expect(p.ROOM, where=lambda r: len(r["seats"]) == 4)
        assert [s["name"] for s in room["seats"]] == ["Ann", "ANN 2", "ann 3", "Bob"]


async def test_only_the_owner_may_kick() -> None:
    async with running_host() as host:
        (_, bob, _), _ = await table(host.port, ["Ann", "Bob", "Cy"], start=False)
        await bob.kick(2)
        assert (await bob.expect(p.ERROR))["code"] == "not_owner"


async def test_a_kicked_player_is_told_and_the_seats_after_his_move_up() -> None:
    async with running_host() as host:
        (ann, bob, cy), _ = await table(host.port, ["Ann", "Bob", "Cy"], start=False)
        mark = bob.mark()
        await ann.kick(1)
        assert (await bob.expect(p.LEFT, since=mark))["reason"] == "kicked"
        room = await cy.expect(p.ROOM, where=lambda r: len(r["seats"]) == 2)
        assert [(s["seat"], s["name"]) for s in room["seats"]] == [(0, "Ann"), (1, "Cy")]
        assert room["you"] == 1


async def test_the_owner_cannot_kick_himself() -> None:
    async with running_host() as host:
        (ann, _), _ = await table(host.port, ["Ann", "Bob"], start=False)
        await ann.kick(0)
        assert (await ann.expect(p.ERROR))["code"] == "bad_seat"


async def test_owner_hands_over_to_the_next_player_on_leaving() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann", "Bob", "Cy"], start=False)
        mark = seats[1].mark()
        await seats[0].leave_room()
        assert (await seats[0].expect(p.LEFT))["reason"] == "left"
        room = await seats[1].expect(p.ROOM, since=mark, where=lambda r: len(r["seats"]) == 2)
        assert room["owner"] == 0 and room["you"] == 0
        assert [s["name"] for s in room["seats"]] == ["Bob", "Cy"]


async def test_the_last_human_leaving_closes_the_room() -> None:
    async with running_host() as host:
        seats, code = await table(host.port, ["Ann"], start=False)
        await seats[0].add_bot()
        await seats[0].expect(p.ROOM, where=lambda r: len(r["seats"]) == 2)
        await seats[0].leave_room()
        await seats[0].expect(p.LEFT)
        lobby = host.lobby
        assert lobby is not None
        await seats[0].until(lambda: code not in lobby.rooms, timeout=2)


async def test_a_join_queued_as_the_room_closes_is_refused_and_frees_the_newcomer() -> None:
    async with running_host() as host:
        seats, code = await table(host.port, ["Ann"], start=False)
        bob = await Seat.open(host.port, "Bob")
        lobby = host.lobby
        assert lobby is not None
        room = lobby.rooms[code]
        ann_link = next(c for c in host.connections if c.room is room)
        bob_link = next(c for c in host.connections if c.greeted and c.room is None)
        # The race itself, with no wait between: Ann's leave (which closes the room) is
        # queued, then Bob's join, as the lobby queues it, before the room's task runs.
        room.post(Request(ann_link, {"t": p.LEAVE_ROOM}))
        bob_link.room = room
        room.post(Join(bob_link, spectate=False))
        await seats[0].expect(p.LEFT)
        refused = await bob.expect(p.ERROR)
        assert refused["code"] == "no_such_room" and "just closed" in refused["message"]
        mark = bob.mark()
        await bob.create_room("counting")  # in no room: free to go elsewhere
        assert (await bob.expect(p.JOINED, since=mark))["code"] != code


async def test_a_password_checked_while_the_room_closes_is_answered() -> None:
    checking, answer = threading.Event(), threading.Event()

    def slow_check(given: str, stored: str) -> bool:
        checking.set()
        answer.wait(5)
        return True

    async with running_host() as host:
        ann, code = await password_room(host)
        bob = await Seat.open(host.port, "Bob")
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("partyhost.net.hosting.lobby.verify_password", slow_check)
            await bob.join_room(code, password="hunter2")
            await bob.until(checking.is_set)
            await ann.leave_room()
            lobby = host.lobby
            assert lobby is not None
            await ann.until(lambda: code not in lobby.rooms)
            answer.set()
            refused = await bob.expect(p.ERROR)
        assert refused["code"] == "no_such_room"
        mark = bob.mark()
        await bob.create_room("counting")
        await bob.expect(p.JOINED, since=mark)


async def test_only_the_owner_adds_bots() -> None:
    async with running_host() as host:
        (_, bob), _ = await table(host.port, ["Ann", "Bob"], start=False)
        await bob.add_bot()
        assert (await bob.expect(p.ERROR))["code"] == "not_owner"


async def test_a_bot_is_named_marked_as_a_bot_and_always_ready() -> None:
    async with running_host() as host:
        (ann, _), _ = await table(host.port, ["Ann", "Bob"], start=False)
        await ann.add_bot()
        room = await ann.expect(p.ROOM, where=lambda r: len(r["seats"]) == 3)
        bot = room["seats"][2]
        assert (bot["bot"], bot["ready"], bot["name"]) == (True, True, "Bot 1")


async def test_the_owner_removes_bots_and_only_bots() -> None:
    async with running_host() as host:
        (ann, _), _ = await table(host.port, ["Ann", "Bob"], start=False)
        await ann.add_bot()
        await ann.expect(p.ROOM, where=lambda r: len(r["seats"]) == 3)
        await ann.remove_bot(1)
        assert (await ann.expect(p.ERROR))["code"] == "not_a_bot"
        mark = ann.mark()
        await ann.remove_bot(2)
        await ann.expect(p.ROOM, since=mark, where=lambda r: len(r["seats"]) == 2)


async def test_a_game_does_not_start_with_too_few_players() -> None:
    async with running_host() as host:
        (ann,), _ = await table(host.port, ["Ann"], start=False)
        await ann.start_game()
        assert (await ann.expect(p.ERROR))["code"] == "player_count"


async def test_only_the_owner_starts_the_game() -> None:
    async with running_host() as host:
        (_, bob), _ = await table(host.port, ["Ann", "Bob"], start=False)
        await bob.start_game()
        assert (await bob.expect(p.ERROR))["code"] == "not_owner"


async def test_the_start_clears_the_ready_flags_and_deals_every_seat_its_view() -> None:
    async with running_host() as host:
        (ann, bob), _ = await table(host.port, ["Ann", "Bob"], start=False)
        mark = bob.mark()
        await ann.start_game()
        room = await bob.expect(p.ROOM, since=mark, where=lambda r: r["status"] == p.PLAYING)
        assert [s["ready"] for s in room["seats"]] == [False, False]
        view = await bob.expect(p.VIEW, since=mark)
        assert view["view"]["you"] == 1 and len(view["view"]["hand"]) == 3


async def test_ready_is_refused_once_the_game_is_running() -> None:
    async with running_host() as host:
        (ann, _), _ = await table(host.port, ["Ann", "Bob"])
        mark = ann.mark()
        await ann.set_ready()
        assert (await ann.expect(p.ERROR, since=mark))["code"] == "not_in_lobby"


async def test_ready_flags_inform_the_owner_but_do_not_hold_the_start_back() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann", "Bob"], start=False)
        ann, bob = seats
        mark = ann.mark()
        await bob.set_ready(False)
        await ann.expect(p.ROOM, since=mark, where=lambda r: not r["seats"][1]["ready"])
        await ann.start_game()
        await bob.expect(p.ROOM, where=lambda r: r["status"] == p.PLAYING)


async def test_an_option_outside_its_range_is_refused() -> None:
    async with running_host() as host:
        (ann, _), _ = await table(host.port, ["Ann", "Bob"], start=False)
        await ann.set_options({"target": 3})
        assert (await ann.expect(p.ERROR))["code"] == "bad_option"


async def test_only_the_owner_sets_options() -> None:
    async with running_host() as host:
        (_, bob), _ = await table(host.port, ["Ann", "Bob"], start=False)
        await bob.set_options({"target": 50})
        assert (await bob.expect(p.ERROR))["code"] == "not_owner"


async def test_new_options_reach_everyone_and_everyone_confirms_ready_again() -> None:
    async with running_host() as host:
        (ann, bob), _ = await table(host.port, ["Ann", "Bob"], start=False)
        mark = bob.mark()
        await ann.set_options({"target": 50}, bot_takeover=False)
        room = await bob.expect(p.ROOM, since=mark, where=lambda r: r["rules"]["target"] == 50)
        assert room["bot_takeover"] is False
        assert room["seats"][1]["ready"] is False


async def test_chat_reaches_everyone_without_escapes_and_cut_to_length() -> None:
    async with running_host() as host:
        (ann, bob), _ = await table(host.port, ["Ann", "Bob"], start=False)
        await ann.chat("hi \x1b[2Jall" + "!" * 400)
        line = await bob.expect(p.CHAT_LINE)
        assert (line["seat"], line["name"]) == (0, "Ann")
        assert line["text"].startswith("hi all!") and len(line["text"]) == p.MAX_CHAT_LENGTH


async def test_chat_past_its_burst_is_rate_limited() -> None:
    async with running_host(chat_burst=3, chat_per_second=0.5) as host:
        (ann, _), _ = await table(host.port, ["Ann", "Bob"], start=False)
        for _ in range(4):
            await ann.chat("spam")
        assert (await ann.expect(p.ERROR))["code"] == "rate_limited"


async def test_a_chat_line_with_nothing_left_after_cleaning_is_refused() -> None:
    async with running_host() as host:
        (ann, bob), _ = await table(host.port, ["Ann", "Bob"], start=False)
        await ann.chat("\x1b[0m  ")
        assert (await ann.expect(p.ERROR))["code"] == "empty_chat"
        assert bob.last(p.CHAT_LINE) is None


async def test_a_chat_line_that_shows_nothing_is_refused() -> None:
    """Zero-width, tag, Hangul filler, combining and blank characters draw nothing."""
    async with running_host(chat_burst=10) as host:
        (ann, bob), _ = await table(host.port, ["Ann", "Bob"], start=False)
        for text in (
            "\u200b\u200d\u2060\ufeff",  # zero-width space, joiner, word joiner, BOM
            "\U000e0041\U000e0062\U000e007f",  # tag characters
            "\u3164 \uffa0\u115f",  # Hangul fillers
            "\u0301\u0308\u20dd",  # combining marks with nothing to sit on
            "\u2800\u2800 \u3000",  # blank Braille, ideographic space
        ):
            mark = ann.mark()
            await ann.chat(text)
            error = await ann.expect(p.ERROR, since=mark)
            assert error["code"] == "empty_chat", ascii(text)
        await ann.chat("e\u0301 \u200bok")  # something shows: it goes out as typed
        assert (await bob.expect(p.CHAT_LINE))["text"] == "e\u0301 \u200bok"
        assert len([m for m in bob.log if m["t"] == p.CHAT_LINE]) == 1


async def test_room_requests_need_a_room() -> None:
    async with running_host() as host:
        bob = await Seat.open(host.port, "Bob")
        await bob.set_ready()
        assert (await bob.expect(p.ERROR))["code"] == "not_in_room"


async def test_one_room_at_a_time() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann"], start=False)
        await seats[0].create_room("counting")
        assert (await seats[0].expect(p.ERROR))["code"] == "already_in_room"


async def test_a_full_room_refuses_one_more_player() -> None:
    async with running_host() as host:
        seats, code = await table(host.port, ["Ann"], start=False)
        for _ in range(7):
            await seats[0].add_bot()
        await seats[0].expect(p.ROOM, where=lambda r: len(r["seats"]) == 8)
        late = await Seat.open(host.port, "Late")
        await late.join_room(code)
        assert (await late.expect(p.ERROR))["code"] == "room_full"


async def test_mid_game_joins_are_seated_through_the_engine() -> None:
    async with running_host() as host:
        seats, code = await table(host.port, ["Ann", "Bob"])
        cy = await Seat.open(host.port, "Cy")
        await cy.join_room(code)
        joined = await cy.expect(p.JOINED)
        assert joined["seat"] == 2
        view = await cy.expect(p.VIEW)
        assert view["view"]["seats"] == [0, 1, 2] and len(view["view"]["hand"]) == 3
        await seats[0].until(lambda: seats[0].view["view"]["seats"] == [0, 1, 2])  # type: ignore[index]


async def test_leaving_mid_game_tells_the_engine_and_keeps_seat_numbers() -> None:
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann", "Bob", "Cy"])
        await seats[1].leave_room()
        await seats[1].expect(p.LEFT)
        await seats[0].until(lambda: seats[0].view["view"]["seats"] == [0, 2])  # type: ignore[index]
        room = seats[2].room
        assert room is not None and room["you"] == 2
        # Bob's seat stays on the table, shown as gone, while the game runs.
        assert [(s["seat"], s["left"], s["presence"]) for s in room["seats"]] == [
            (0, False, "connected"),
            (1, True, "gone"),
            (2, False, "connected"),
        ]
        assert seat_number(seats[2]) == 2


async def test_an_illegal_play_gets_an_error_with_the_engine_code_and_ref_to_the_sender_only() -> (
    None
):
    async with running_host() as host:
        seats, _ = await table(host.port, ["Ann", "Bob"])
        ann, bob = seats
        await bob.play({"type": "play", "card": 0}, ref=41)
        error = await bob.expect(p.ERROR)
        assert (error["code"], error["ref"]) == ("not_your_turn", 41)
        stale = {"type": "play", "card": 0, "v": ann.version - 1}
        await ann.play(stale, ref=42)
        assert (await ann.expect(p.ERROR))["code"] == "stale"
        await asyncio.sleep(0.05)
        assert not [m for m in bob.log if m["t"] == p.ERROR and m.get("ref") == 42]


async def test_a_future_clients_hello_gets_the_mismatch_error_not_a_field_error() -> None:
    async with running_host() as host:
        reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
        hello = {"t": "hello", "protocol": 2, "name": "Zed", "features": ["x"]}
        writer.write(p.encode(hello))
        header = await reader.readexactly(4)
        reply = p.decode_body(await reader.readexactly(int.from_bytes(header, "big")))
        assert reply["code"] == "protocol_mismatch" and reply["client_protocol"] == 2
        assert await reader.read() == b""  # and the host hangs up
        writer.close()


async def test_everyone_in_the_lobby_sees_a_new_room_without_asking() -> None:
    async with running_host() as host:
        bob = await Seat.open(host.port, "Bob")
        mark = bob.mark()
        seats, code = await table(host.port, ["Ann"], start=False)
        rooms = await bob.expect(p.ROOMS, since=mark, where=lambda m: bool(m["rooms"]))
        assert [room["code"] for room in rooms["rooms"]] == [code]
        await bob.join_room(code)
        await bob.expect(p.JOINED)
        mark = bob.mark()
        cy = await Seat.open(host.port, "Cy")
        await cy.join_room(code)
        await cy.expect(p.JOINED)
        await asyncio.sleep(3 * host.config.lobby_news_interval)
        assert [m for m in bob.log[mark:] if m["t"] == p.ROOMS] == []  # in a room: no news
        for seat in (*seats, bob, cy):
            await seat.close()


async def test_with_nobody_in_the_lobby_the_rooms_list_is_not_made() -> None:
    async with running_host(lobby_news_interval=0.05) as host:
        seats, _ = await table(host.port, ["Ann", "Bob"], start=False)  # both in a room
        assert host.lobby is not None
        listing = host.lobby.listing
        made: list[int] = []

        def counted() -> list[dict[str, object]]:
            made.append(1)
            return listing()

        host.lobby.listing = counted  # type: ignore[method-assign]
        await asyncio.sleep(10 * host.config.lobby_news_interval)
        assert made == []  # ten news checks, nobody to tell
        cy = await Seat.open(host.port, "Cy")
        mark = cy.mark()
        more, _ = await table(host.port, ["Dee"], start=False)
        await cy.expect(p.ROOMS, since=mark, where=lambda m: len(m["rooms"]) == 2)
        assert made  # someone in the lobby: the list is made and sent
        for seat in (*seats, *more, cy):
            await seat.close()
