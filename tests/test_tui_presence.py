"""Who is at the table, on every screen: presence, the grace countdown, pauses, the owner's keys.

Every game screen marks a seat whose player is not there (``○87s`` while the
seat waits, ``☾bot`` when a bot plays it, ``✗gone``), says who paused the
game and stops its clocks, and logs the host's notices; ``o`` opens the table
with each seat's presence in words and, for the owner, a bot now, kick, make
owner and pause. In ``partyhost play`` a dialog over a real-time game pauses it.
"""

from __future__ import annotations

import copy
import re
import time
from typing import Any

import pytest
from partyhost.net.clients.client import build
from partyhost.tui import clock as clock_module
from partyhost.tui.app import PartyApp
from partyhost.tui.clock import HostClock
from partyhost.tui.help import HelpScreen
from partyhost.tui.shared.dialogs import ConfirmScreen
from partyhost.tui.shared.tablecontrols import TableControlsScreen
from textual.pilot import Pilot
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, screen_text, settle
from tuikit.samples import sample_room, seat_entry, tshirt_view, view_frame
from tuikit.samples_gsm import SAMPLE_VIEWS, gsm_room
from tuikit.samples_meme import meme_room, meme_view

Frame = dict[str, Any]
SIZE = (80, 24)


def with_presence(room: Frame) -> Frame:
    """Seat 2 dropped (87 s of grace left), seat 3 away with a bot playing for them."""
    room = copy.deepcopy(room)
    for entry in room["seats"]:
        if entry["seat"] == 2:
            entry.update(presence="disconnected", connected=False, grace_left=87.0, bot=False)
        if entry["seat"] == 3:
            entry.update(presence="away", connected=False, away=True, stand_in=True, bot=False)
    return room


def games() -> list[tuple[str, Frame, Frame]]:
    """(game id, room, Ann's view) for every game's table."""
    tables = [
        ("tshirt", sample_room(status="playing"), tshirt_view()),
        ("meme", meme_room(), meme_view()),
    ]
    for game, view in SAMPLE_VIEWS.items():
        if game != "four-corners":  # two seats only: seat 3 is checked in the others
            tables.append((game, gsm_room(game), view()))
    return tables


async def seat_ann(pilot: Pilot[int], host: FakeHost, room: Frame, view: Frame) -> None:
    await settle(pilot)
    host.room = copy.deepcopy(room)
    host.last.push(
        {"t": "joined", "code": "KQZD", "seat": 0, "token": "t"},
        copy.deepcopy(room),
        view_frame(view),
    )
    await settle(pilot)


@pytest.mark.parametrize(("game", "room", "view"), games(), ids=[g[0] for g in games()])
async def test_every_game_screen_marks_the_players_who_are_not_there(
    game: str, room: Frame, view: Frame
) -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(120, 40)) as pilot:
        await seat_ann(pilot, host, with_presence(room), view)
        assert app.screen.KIND == "game"  # type: ignore[attr-defined]
        text = screen_text(app)
        found = [word for word in ("○8", "☾bot") if word in text]
        assert found == ["○8", "☾bot"], text


async def test_the_grace_countdown_runs_on_the_game_screen() -> None:
    host = FakeHost()
    app = app_for(host, animate=True)
    room = with_presence(sample_room(status="playing"))
    async with app.run_test(size=(120, 40)) as pilot:
        await seat_ann(pilot, host, room, tshirt_view())
        first = seconds_shown(screen_text(app))
        assert 0 < first <= 87
        await pilot.pause(2.2)
        assert seconds_shown(screen_text(app)) < first


def seconds_shown(text: str) -> int:
    found = re.search(r"○(\d+)s", text)
    assert found, text
    return int(found.group(1))


async def test_the_room_screen_says_where_each_player_is() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        room = with_presence(sample_room())
        room["seats"].append(seat_entry(4, "Eve", presence="gone", left=True))
        host.last.push({"t": "joined", "code": "KQZD", "seat": 0, "token": "t"}, room)
        await settle(pilot)
        text = screen_text(app)
        # Counting down from the host's 87 s; a loaded machine may take seconds to draw it.
        offline = re.search(r"○ offline, (\d+) s left", text)
        assert offline and 0 < int(offline.group(1)) <= 87, text
        assert "☾ away: a bot plays" in text
        assert "Eve" not in text  # a player who left the lobby has no seat


async def test_a_paused_game_says_who_paused_it_and_its_clock_stands_still() -> None:
    host = FakeHost()
    app = app_for(host, animate=True)
    now = time.time()
    view = tshirt_view() | {"deadline": now + 30}
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        room = sample_room(status="playing") | {"paused": {"by": "Bea", "at": now}}
        host.last.push(
            {"t": "joined", "code": "KQZD", "seat": 0, "token": "t"},
            room,
            view_frame(view) | {"now": now},
        )
        await settle(pilot)
        status = screen_text(app).splitlines()[1]
        assert "Paused by Bea." in status and " 30 s left " in status
        await pilot.pause(1.3)
        assert " 30 s left " in screen_text(app).splitlines()[1]
        host.last.push(room | {"paused": None}, view_frame(view) | {"now": now})
        await settle(pilot)
        for _ in range(50):  # the clock runs again: within a second or so it shows 29
            await pilot.pause(0.1)
            status = screen_text(app).splitlines()[1]  # the log below still says who paused
            if "Paused by" not in status and " 30 s left " not in status:
                break
        assert "Paused by" not in status and " 30 s left " not in status


async def test_the_host_notices_are_in_the_game_log() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await seat_ann(pilot, host, sample_room(status="playing"), tshirt_view())
        host.last.push(
            {"t": "notice", "text": "Carl lost connection."},
            {"t": "notice", "text": "[red]Carl is back."},
        )
        await settle(pilot)
        text = screen_text(app)
        assert "Carl lost connection." in text and "[red]Carl is back." in text


async def owner_table(pilot: Pilot[int], host: FakeHost) -> None:
    room = with_presence(sample_room(status="playing"))
    room["seats"].append(seat_entry(4, "Eve", ready=True))
    await seat_ann(pilot, host, room, tshirt_view())
    await pilot.press("o")
    await settle(pilot)


@pytest.mark.parametrize(("game", "room", "view"), games(), ids=[g[0] for g in games()])
async def test_a_tap_on_the_title_bars_table_key_opens_the_table(
    game: str, room: Frame, view: Frame
) -> None:
    """The table's keys are off the footer; its key ends the title bar, in sight however long
    the title, and a finger opens the table (the owner's controls, pause) there."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await seat_ann(pilot, host, with_presence(room), view)
        title = screen_text(app).splitlines()[0]
        assert title.rstrip().endswith("o Table"), title
        await pilot.click(offset=(title.index("o Table") + 2, 0))
        await settle(pilot)
        assert isinstance(app.screen, TableControlsScreen)


async def test_a_title_too_long_for_one_row_puts_the_table_key_on_a_second() -> None:
    room = with_presence(sample_room(status="playing"))
    for seat in room["seats"]:
        if seat["seat"] == 1:  # the judge, named in the title
            seat["name"] = "Bartholomew the Great"
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await seat_ann(pilot, host, room, tshirt_view())
        first, second = screen_text(app).splitlines()[:2]
        assert first.rstrip().endswith("judge Bartholomew the Great  to 1,500 points")  # uncut
        assert second.rstrip().endswith("o Table") and second.index("o Table") > SIZE[0] // 2
        await pilot.click(offset=(second.index("o Table") + 2, 1))
        await settle(pilot)
        assert isinstance(app.screen, TableControlsScreen)


def highlight(app: Any, seat: int) -> None:
    seats = app.screen.query_one("#table-seats")
    seats.highlighted = next(
        index
        for index in range(seats.option_count)
        if seats.get_option_at_index(index).id == f"seat-{seat}"
    )


async def test_the_owner_puts_a_bot_in_an_absent_seat_and_kicks_after_a_yes() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await owner_table(pilot, host)
        assert isinstance(app.screen, TableControlsScreen)
        text = screen_text(app)
        assert "● here" in text and "offline, 8" in text and "away: a bot plays" in text
        highlight(app, 2)
        await pilot.press("b")
        await settle(pilot)
        assert [m for m in host.last.sent if m["t"] == "replace_with_bot"] == [
            build.replace_with_bot(2)
        ]
        await pilot.press("k")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await settle(pilot)
        assert "kick" not in host.last.sent_types()
        await pilot.press("k", "y")
        await settle(pilot)
        assert build.kick(2) in host.last.sent


async def test_the_owner_hands_the_room_over_and_pauses_from_the_table() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await owner_table(pilot, host)
        highlight(app, 2)  # not here: refused before any question
        await pilot.press("m")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        highlight(app, 4)
        await pilot.press("m", "y")
        await settle(pilot)
        assert build.give_ownership(4) in host.last.sent
        await pilot.press("p")
        await settle(pilot)
        assert build.pause_game() in host.last.sent
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("P")  # the table's own key: the room is not paused yet here
        await settle(pilot)
        assert host.last.sent_types().count("pause_game") == 2


async def test_only_the_owner_has_the_tables_controls() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        room = with_presence(sample_room(you=4, owner=0, status="playing"))
        host.last.push(
            {"t": "joined", "code": "KQZD", "seat": 4, "token": "t"},
            room,
            view_frame(tshirt_view(you=4)),
        )
        await settle(pilot)
        await pilot.press("P", "o")
        await settle(pilot)
        highlight(app, 2)
        await pilot.press("b", "k", "m", "p")
        await settle(pilot)
        assert "Ann owns the room" in screen_text(app)
        owner_only = {"pause_game", "replace_with_bot", "kick", "give_ownership"}
        assert not owner_only & set(host.last.sent_types())


async def test_in_play_a_dialog_over_a_real_time_game_pauses_it_until_it_closes() -> None:
    host = FakeHost()
    app = PartyApp(
        host,
        address="partybox:7777",
        name="Ann",
        remember=False,
        animate=False,
        pause_with_dialogs=True,
    )
    room = gsm_room("stealing-home")
    async with app.run_test(size=SIZE) as pilot:
        await seat_ann(pilot, host, room, SAMPLE_VIEWS["stealing-home"]())
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert host.last.sent_types().count("pause_game") == 1
        host.last.push(room | {"paused": {"by": "Ann", "at": time.time()}})
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert host.last.sent_types().count("resume_game") == 1


async def test_in_play_a_turn_based_game_is_not_paused_by_a_dialog() -> None:
    host = FakeHost()
    app = PartyApp(
        host, address="partybox:7777", name="Ann", remember=False, pause_with_dialogs=True
    )
    async with app.run_test(size=SIZE) as pilot:
        await seat_ann(pilot, host, sample_room(status="playing"), tshirt_view())
        await pilot.press("f1")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert not {"pause_game", "resume_game"} & set(host.last.sent_types())


async def test_a_joining_client_does_not_pause_for_dialogs() -> None:
    host = FakeHost()
    app = app_for(host)
    room = gsm_room("scramble")
    async with app.run_test(size=SIZE) as pilot:
        await seat_ann(pilot, host, room, SAMPLE_VIEWS["scramble"]())
        await pilot.press("f1")
        await settle(pilot)
        assert "pause_game" not in host.last.sent_types()


def test_the_clock_runs_on_from_where_a_pause_stopped_it(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = iter([0.0, 0.0, 5.0, 30.0, 31.0])
    monkeypatch.setattr(clock_module.time, "monotonic", lambda: next(ticks))
    clock = HostClock()  # 0.0
    clock.saw_view(1000.0)  # 0.0
    paused = {"paused": {"by": "Ann", "at": 1005.0}}
    clock.saw_room(paused)  # 5.0: the host froze its game clock at 1005
    assert clock.game_time(paused) == 1005.0
    clock.saw_room({"paused": None})  # 30.0: resumed; no fresh view yet
    assert clock.game_time({"paused": None}) == 1006.0  # 31.0: one second after the resume


def test_the_clock_stands_still_while_the_table_reads_a_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ticks = iter([0.0, 0.0, 2.0, 20.0, 21.0])
    monkeypatch.setattr(clock_module.time, "monotonic", lambda: next(ticks))
    clock = HostClock()  # 0.0
    clock.saw_view(1000.0)  # 0.0
    reading = {"paused": None, "pause": {"until": 1030.0, "waiting": [0], "at": 1002.0}}
    clock.saw_room(reading)  # 2.0: a round ended; the host holds its game clock at 1002
    assert clock.game_time(reading) == 1002.0  # frozen: our own clock is not read
    clock.saw_room({"paused": None, "pause": None})  # 20.0: everyone has read it
    assert clock.game_time({"paused": None, "pause": None}) == 1003.0  # 21.0


def test_a_grace_countdown_stands_still_while_the_owner_has_paused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ticks = iter([0.0, 0.0, 40.0, 50.0])
    monkeypatch.setattr(clock_module.time, "monotonic", lambda: next(ticks))
    clock = HostClock()  # 0.0
    entry = {"presence": "disconnected", "grace_left": 87.0}
    clock.saw_room({"paused": {"by": "Ann", "at": 1005.0}})  # 0.0
    assert clock.grace_left(entry) == 87  # the host's grace period stands still too
    clock.saw_room({"paused": None})  # 40.0: resumed, the host sends the grace left
    assert clock.grace_left(entry) == 77  # 50.0: it counts down again


async def test_a_paused_table_shows_when_the_pause_ends_and_lets_a_player_ask_to_go_on() -> None:
    host = FakeHost()
    app = app_for(host, animate=True)
    now = time.time()
    view = tshirt_view() | {"deadline": now + 30}
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paused = {"by": "Bea", "at": now, "until": now + 595, "asking": []}
        room = sample_room(status="playing", owner=1) | {"paused": paused}
        host.last.push(
            {"t": "joined", "code": "KQZD", "seat": 0, "token": "t"},
            room,
            view_frame(view) | {"now": now},
        )
        await settle(pilot)
        status = screen_text(app).splitlines()[1]
        assert "Paused by Bea." in status and "Goes on by itself in 10 min." in status
        assert "P asks to go on." in status
        await pilot.press("P")
        await settle(pilot)
        assert host.last.sent[-1] == build.resume_game()
        host.last.sent.clear()
        await pilot.click(offset=(status.index("P asks to go on.") + 3, 1))  # a finger asks too
        await settle(pilot)
        assert host.last.sent == [build.resume_game()]
