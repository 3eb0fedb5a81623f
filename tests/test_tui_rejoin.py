"""Back to your seat from the client: the seat memory, the offer on connecting, ``--room``.

Every seat token is kept in the user's state folder (mode 0600) under the
host's id and the room code, offered back only to that host, and forgotten
when the host says the token is unknown or the seat is gone. Only those
seats are offered: a seat held for your name is not yours to take until the
table says so. The one the host asks sees "Ann is back?" with the time left,
and the visitor sees that the table is being asked.
"""

from __future__ import annotations

import copy
import json
import math
import re
import stat
import time

import pytest
from partyhost.net.clients.client import build
from partyhost.tui.app import PartyApp
from partyhost.tui.rejoin import (
    HeldSeat,
    ReclaimAskScreen,
    SeatMemory,
    SeatOfferScreen,
    memory_path,
)
from partyhost.tui.tshirt.screen import TShirtScreen
from tuikit.fakehost import FakeHost
from tuikit.pilot import catch_join, screen_text, settle
from tuikit.samples import HOST_ID, sample_room, sample_welcome, tshirt_view, view_frame

SIZE = (80, 24)


def remembering_app(host: FakeHost, room: str | None = None) -> object:
    """Ann's client as ``partyhost join`` runs it: it keeps what it is given on disk."""
    return PartyApp(host, address="partybox:7777", name="Ann", room=room, animate=False)


def flat(app: object) -> str:
    """The screen's words with line breaks and padding folded to single spaces."""
    return " ".join(screen_text(app).replace("│", " ").split())


def held(code: str = "KXTM", token: str = "secret-token", round_number: int | None = 4) -> HeldSeat:
    return HeldSeat(HOST_ID, code, token, "Dana's laptop", "Ann", "The T-Shirt Game", round_number)


async def test_every_seat_token_is_kept_for_its_host_and_room_and_forgotten_when_left() -> None:
    host = FakeHost()
    app = remembering_app(host)
    async with app.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        room = sample_room(status="playing")
        host.last.push(
            {"t": "joined", "code": "KQZD", "seat": 0, "token": "tok-1"},
            copy.deepcopy(room),
            view_frame(tshirt_view()),
        )
        await settle(pilot)
        path = memory_path()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        (kept,) = json.loads(path.read_text(encoding="utf-8"))["seats"]
        assert (kept["host_id"], kept["code"], kept["token"]) == (HOST_ID, "KQZD", "tok-1")
        assert (kept["name"], kept["game_name"], kept["round"]) == ("Ann", "The T-Shirt Game", 4)
        host.last.push({"t": "left", "code": "KQZD", "reason": "kicked"})
        await settle(pilot)
        assert SeatMemory(path).seats_at(HOST_ID) == []


async def test_connecting_offers_the_held_seat_first_and_enter_goes_back() -> None:
    SeatMemory(memory_path()).keep(held())
    host = FakeHost()
    host.tokens["secret-token"] = "KXTM"
    app = remembering_app(host)
    async with app.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        assert isinstance(app.screen, SeatOfferScreen)  # type: ignore[attr-defined]
        assert "You have a seat in room KXTM, The T-Shirt Game, round 4: Enter to go back" in flat(
            app
        )
        await pilot.press("enter")
        await settle(pilot)
        assert build.resume_seat("secret-token") in host.last.sent
        assert "join_room" not in host.last.sent_types()
        host.last.push(view_frame(tshirt_view(you=2, judge=1)))
        await settle(pilot)
        assert isinstance(app.screen, TShirtScreen)  # type: ignore[attr-defined]


async def test_a_seat_is_offered_only_to_the_host_that_gave_it() -> None:
    SeatMemory(memory_path()).keep(held())
    welcome = sample_welcome() | {"host_id": "f" * 32}
    host = FakeHost(welcome=welcome)
    app = remembering_app(host)
    async with app.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        assert not isinstance(app.screen, SeatOfferScreen)  # type: ignore[attr-defined]
        assert "resume_seat" not in host.last.sent_types()


async def test_join_with_room_goes_straight_back_to_the_seat_held_there() -> None:
    SeatMemory(memory_path()).keep(held())
    host = FakeHost()
    host.tokens["secret-token"] = "KXTM"
    app = remembering_app(host, room="kxtm")
    async with app.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        assert build.resume_seat("secret-token") in host.last.sent
        assert "join_room" not in host.last.sent_types()
        assert not isinstance(app.screen, SeatOfferScreen)  # type: ignore[attr-defined]
        assert app.room_code == "KXTM"  # type: ignore[attr-defined]


async def test_a_token_the_host_calls_unknown_is_forgotten() -> None:
    SeatMemory(memory_path()).keep(held())
    SeatMemory(memory_path()).keep(held("MNPR", "other-token"))
    host = FakeHost()  # knows neither token: both rooms closed while we were away
    app = remembering_app(host, room="KXTM")
    async with app.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        assert build.resume_seat("secret-token") in host.last.sent
        assert [seat.code for seat in SeatMemory(memory_path()).seats_at(HOST_ID)] == ["MNPR"]


async def test_a_seat_held_for_your_name_by_an_older_host_is_not_offered() -> None:
    waiting = {"code": "HJKW", "game": "tshirt", "status": "playing", "seat": 3, "name": "Ann"}
    host = FakeHost(welcome=sample_welcome() | {"waiting_seats": [waiting]})
    app = remembering_app(host)
    async with app.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        assert not isinstance(app.screen, SeatOfferScreen)  # type: ignore[attr-defined]
        assert "HJKW" not in flat(app)
        assert "join_room" not in host.last.sent_types()


async def at_the_table(pilot: object, host: FakeHost) -> None:
    """Ann plays a game: the table is on screen."""
    host.last.push(
        {"t": "joined", "code": "KQZD", "seat": 0, "token": "tok-1"},
        sample_room(status="playing"),
        view_frame(tshirt_view()),
    )
    await settle(pilot)  # type: ignore[arg-type]


ASK = {"t": "reclaim_ask", "ask": 7, "name": "Bob", "seat": 1, "seconds": 30.0}


@pytest.mark.parametrize(("key", "yes"), [("y", True), ("n", False)])
async def test_the_one_asked_sees_who_is_back_and_answers_the_host(key: str, yes: bool) -> None:
    host = FakeHost()
    app = remembering_app(host)
    async with app.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        await at_the_table(pilot, host)
        assert isinstance(app.screen, TShirtScreen)  # type: ignore[attr-defined]
        host.last.push(dict(ASK))
        await settle(pilot)
        assert isinstance(app.screen, ReclaimAskScreen)  # type: ignore[attr-defined]
        text = flat(app)
        assert "Bob is back? (y/n)" in text and "s left; no answer counts as no" in text
        assert "reclaim_answer" not in host.last.sent_types()
        await pilot.press(key)
        await settle(pilot)
        assert build.reclaim_answer(7, yes) in host.last.sent
        assert isinstance(app.screen, TShirtScreen)  # type: ignore[attr-defined]


async def test_the_question_closes_by_itself_when_its_time_is_up_and_sends_nothing() -> None:
    host = FakeHost()
    app = remembering_app(host)
    async with app.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        await at_the_table(pilot, host)
        pushed = time.monotonic()
        host.last.push(dict(ASK) | {"seconds": 12.0})
        await settle(pilot)
        screen = app.screen  # type: ignore[attr-defined]
        assert isinstance(screen, ReclaimAskScreen)
        # The count starts at the host's 12 s; a busy machine may have ticked it down since.
        shown = re.search(r"(\d+) s left", flat(app))
        assert shown is not None
        waited = math.ceil(time.monotonic() - pushed)
        assert 12 - waited <= int(shown.group(1)) <= 12
        screen.ends -= 12.0  # the host's time to answer has run out
        screen.tick()
        await settle(pilot)
        assert isinstance(app.screen, TShirtScreen)  # type: ignore[attr-defined]
        assert "reclaim_answer" not in host.last.sent_types()


async def test_the_visitor_sees_that_the_table_is_asked_until_it_answers() -> None:
    host = FakeHost()
    app = remembering_app(host)
    async with app.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        host.last.push(
            {"t": "reclaim_waiting", "code": "KQZD", "name": "Ann", "seat": 0, "seconds": 30.0}
        )
        await settle(pilot)
        shown = [note.message for note in app._notifications]  # type: ignore[attr-defined]
        assert any("Waiting for the table to confirm that you are Ann" in m for m in shown)
        refusal = "Bob did not confirm that you are Ann."
        host.last.push({"t": "error", "code": "reclaim_refused", "message": refusal})
        await settle(pilot)
        shown = [note.message for note in app._notifications]  # type: ignore[attr-defined]
        assert shown == [refusal]


async def test_escape_leaves_the_offer_for_the_lobby() -> None:
    SeatMemory(memory_path()).keep(held())
    host = FakeHost()
    app = remembering_app(host)
    async with app.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen.KIND == "lobby"  # type: ignore[attr-defined]
        assert "resume_seat" not in host.last.sent_types()
        assert SeatMemory(memory_path()).find(HOST_ID, "KXTM") is not None  # still held


def test_a_mangled_memory_file_is_no_error_and_bad_entries_are_skipped() -> None:
    path = memory_path()
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    memory = SeatMemory(path)
    assert memory.seats_at(HOST_ID) == []
    good = {"host_id": HOST_ID, "code": "KXTM", "token": "t", "round": 2, "saved": 1.0}
    bad = [{"host_id": HOST_ID, "code": "KXTM"}, {"host_id": 5, "code": "X", "token": "t"}, 7]
    path.write_text(json.dumps({"seats": [good, *bad]}), encoding="utf-8")
    (seat,) = memory.seats_at(HOST_ID)
    assert (seat.code, seat.token, seat.round) == ("KXTM", "t", 2)


def test_a_client_that_remembers_nothing_keeps_no_token() -> None:
    memory = SeatMemory(None)
    memory.keep(held())
    assert memory.seats_at(HOST_ID) == [] and not memory_path().exists()


def test_join_no_remember_keeps_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from partyhost import cli

    calls = catch_join(monkeypatch)
    cli.main(["join", "partybox:7000", "--room", "KXTM"])
    cli.main(["join", "partybox:7000", "--no-remember"])
    assert [call["remember"] for call in calls] == [True, False]
