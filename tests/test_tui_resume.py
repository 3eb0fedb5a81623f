"""A browser door's page comes back to its seat: ``join --locked --resume``.

The door runs each visitor's locked client in a folder kept for that browser, so
what the client remembers there (the name, the seat tokens) is there again when
the page is reloaded. A locked client that may remember asks the name once; with
``--resume`` it takes the seat it holds at once, without the "Take your seat
back?" question a second tab (no ``--resume``) still gets.
"""

from __future__ import annotations

import pytest
from partyhost.net.clients.client import build
from partyhost.tui.app import PartyApp
from partyhost.tui.rejoin import HeldSeat, SeatMemory, SeatOfferScreen, memory_path
from partyhost.tui.shared.connect import load_remembered
from textual.widgets import Input
from tuikit.fakehost import FakeHost
from tuikit.pilot import catch_join, screen_text, settle
from tuikit.samples import HOST_ID

SIZE = (80, 24)
ADDRESS = "partybox:7777"


def door_client(host: FakeHost, *, resume: bool) -> object:
    """A browser visitor's client as the door starts it for a browser it knows."""
    return PartyApp(host, address=ADDRESS, locked=True, resume=resume, animate=False)


def hold_a_seat() -> None:
    SeatMemory(memory_path()).keep(HeldSeat(HOST_ID, "KXTM", "secret-token", name="Ann"))


async def test_resume_takes_the_held_seat_without_asking() -> None:
    hold_a_seat()
    host = FakeHost()
    host.tokens["secret-token"] = "KXTM"
    app = PartyApp(host, address=ADDRESS, name="Ann", locked=True, resume=True, animate=False)
    async with app.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        assert not isinstance(app.screen, SeatOfferScreen)  # type: ignore[attr-defined]
        assert build.resume_seat("secret-token") in host.last.sent
        assert app.room_code == "KXTM"  # type: ignore[attr-defined]


async def test_without_resume_a_second_page_is_offered_the_seat() -> None:
    hold_a_seat()
    host = FakeHost()
    host.tokens["secret-token"] = "KXTM"
    app = PartyApp(host, address=ADDRESS, name="Ann", locked=True, resume=False, animate=False)
    async with app.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        assert isinstance(app.screen, SeatOfferScreen)  # type: ignore[attr-defined]
        assert build.resume_seat("secret-token") not in host.last.sent


async def test_resume_with_no_seat_held_goes_to_the_lobby() -> None:
    host = FakeHost()
    app = PartyApp(host, address=ADDRESS, name="Ann", locked=True, resume=True, animate=False)
    async with app.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        assert app.wanted_screen() == "lobby"  # type: ignore[attr-defined]
        assert not [m for m in host.last.sent if m["t"] == "resume_seat"]


async def test_a_remembering_locked_client_asks_the_name_once() -> None:
    host = FakeHost()
    first = door_client(host, resume=True)
    async with first.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        assert host.calls == [], "nothing is sent before the visitor names themself"
        assert "What do friends call you?" in screen_text(first)
        name = first.screen.query_one("#name", Input)  # type: ignore[attr-defined]
        assert name.has_focus and name.value == ""
        await pilot.press("enter")  # no name: asked again, still not connecting
        await settle(pilot)
        assert host.calls == []
        await pilot.press(*"Ann", "enter")
        await settle(pilot)
        assert host.calls == [("partybox", 7777, "Ann")]
        assert first.wanted_screen() == "lobby"  # type: ignore[attr-defined]
    assert load_remembered().name == "Ann"
    again = door_client(host, resume=True)  # the page reloaded: its client starts again
    async with again.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        assert host.calls[-1] == ("partybox", 7777, "Ann")
        assert again.wanted_screen() == "lobby"  # type: ignore[attr-defined]


async def test_a_locked_client_that_remembers_nothing_goes_straight_in() -> None:
    """The SSH door's clients and a page without the door's cookie: no name asked."""
    host = FakeHost()
    app = PartyApp(host, address=ADDRESS, locked=True, remember=False, animate=False)
    async with app.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        await settle(pilot)
        assert len(host.calls) == 1
        assert app.wanted_screen() == "lobby"  # type: ignore[attr-defined]


def test_join_takes_resume(monkeypatch: pytest.MonkeyPatch) -> None:
    from partyhost import cli

    calls = catch_join(monkeypatch)
    cli.main(["join", "partybox:7000", "--locked", "--resume"])
    cli.main(["join", "partybox:7000", "--locked", "--no-remember"])
    assert [(c["locked"], c["remember"], c["resume"]) for c in calls] == [
        (True, True, True),
        (True, False, False),
    ]
