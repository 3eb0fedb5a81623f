"""What every screen looks like at 80x24 and 120x40 (and once in --ascii), from fixed views."""

from __future__ import annotations

import copy
import os
import time
from collections.abc import Awaitable, Callable, Iterator

import pytest
from partyhost.tui.app import PartyApp
from textual.pilot import Pilot
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, screen_text, settle, settle_logs
from tuikit.samples import (
    booyah_view,
    over_view,
    sample_room,
    tshirt_view,
    view_frame,
)

Setup = Callable[[Pilot[int], FakeHost], Awaitable[None]]
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]

LOG = [
    {"kind": "round_started", "round": 4, "judge": 1},
    {"kind": "tshirt_drawn", "card": 3, "picture": "A cat in sunglasses sunbathing on the beach"},
    {"kind": "submitted", "seat": 2},
]


async def seat(
    pilot: Pilot[int], host: FakeHost, *frames: dict[str, object], status: str = "lobby"
) -> None:
    await settle(pilot)
    host.room = sample_room(status=status)
    host.last.push(
        {"t": "joined", "code": "KQZD", "seat": 0, "token": "t"}, copy.deepcopy(host.room), *frames
    )
    await settle(pilot)


async def connect(pilot: Pilot[int], host: FakeHost) -> None:
    await settle(pilot)


async def create_dialog(pilot: Pilot[int], host: FakeHost) -> None:
    await settle(pilot)
    await pilot.press("c")
    await settle(pilot)


async def room(pilot: Pilot[int], host: FakeHost) -> None:
    await seat(
        pilot,
        host,
        {"t": "chat_line", "seat": 1, "name": "Bea", "text": "ready when you are", "at": 0.0},
    )


async def submitting(pilot: Pilot[int], host: FakeHost) -> None:
    await seat(pilot, host, view_frame(tshirt_view(), LOG), status="playing")
    await pilot.press("2")


async def judging(pilot: Pilot[int], host: FakeHost) -> None:
    await seat(
        pilot, host, view_frame(tshirt_view("judging", you=1, judge=1), LOG), status="playing"
    )


async def booyah(pilot: Pilot[int], host: FakeHost) -> None:
    await seat(pilot, host, view_frame(booyah_view(), LOG), status="playing")


async def results(pilot: Pilot[int], host: FakeHost) -> None:
    await seat(pilot, host, view_frame(over_view()), status="over")


async def help_screen(pilot: Pilot[int], host: FakeHost) -> None:
    await submitting(pilot, host)
    await pilot.press("f1")
    await settle(pilot)


async def past_games(pilot: Pilot[int], host: FakeHost) -> None:
    await settle(pilot)
    await pilot.press("p")
    await settle(pilot)


async def replay(pilot: Pilot[int], host: FakeHost) -> None:
    """Game 1 (the second row: the running game is newer), seven moves in."""
    await past_games(pilot, host)
    await pilot.press("down", "enter")
    await settle(pilot)
    await pilot.press(*["right"] * 7)
    await settle(pilot)


async def reconnecting(pilot: Pilot[int], host: FakeHost) -> None:
    await submitting(pilot, host)
    host.last.push({"t": "connection", "state": "lost", "detail": "reset"})
    await settle(pilot)


SCREENS: dict[str, tuple[Setup, bool]] = {
    "connect": (connect, False),
    "lobby": (connect, True),
    "create_room": (create_dialog, True),
    "room": (room, True),
    "tshirt_submitting": (submitting, True),
    "tshirt_judging": (judging, True),
    "booyah": (booyah, True),
    "results": (results, True),
    "help": (help_screen, True),
    "reconnecting": (reconnecting, True),
    "past_games": (past_games, True),
    "replay": (replay, True),
}


def build(
    name: str, *, ascii_only: bool = False
) -> tuple[PartyApp, Callable[[Pilot[int]], Awaitable[None]]]:
    setup, online = SCREENS[name]
    host = FakeHost()
    address = "partybox:7777" if online else None
    app = app_for(host, address=address, ascii_only=ascii_only)

    async def run_before(pilot: Pilot[int]) -> None:
        await setup(pilot, host)
        await settle_logs(pilot)

    return app, run_before


@pytest.fixture
def utc() -> Iterator[None]:
    """Times on screen (when a past game ended, a replay step's clock) read the same anywhere."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", list(SCREENS))
@pytest.mark.usefixtures("results_hold_their_keys")
def test_screen_looks_right(
    name: str, size: tuple[int, int], snap_compare: object, utc: None
) -> None:
    app, run_before = build(name)
    assert snap_compare(app, terminal_size=size, run_before=run_before)  # type: ignore[operator]


def test_ascii_game_screen(snap_compare: object) -> None:
    app, run_before = build("tshirt_submitting", ascii_only=True)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)  # type: ignore[operator]


@pytest.mark.parametrize("name", ["room", "tshirt_submitting", "booyah", "help"])
async def test_ascii_mode_draws_only_ascii(name: str) -> None:
    app, run_before = build(name, ascii_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        text = screen_text(app)
    strange = sorted({char for char in text if ord(char) > 126})
    assert strange == [], f"non-ASCII glyphs in --ascii mode: {strange}"
