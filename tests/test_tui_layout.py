"""Nothing on screen is cut off and every footer offers Help: every snapshot, every game screen.

The check (``tuikit/layout.py``) reads the widgets' geometry: containers whose
content is larger than they are and cannot scroll, text that needs more
lines than its widget has, log lines wider than the log, footer keys past the
edge, a footer without Help.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable, Iterator

import pytest
import test_tui_gsm as gsm_pictures
import test_tui_meme as meme_pictures
import test_tui_snapshots as tui_pictures
from partyhost.tui.app import PartyApp
from partyhost.tui.shared.log import GameLog
from textual.pilot import Pilot
from tuikit.fakehost import FakeHost
from tuikit.layout import layout_problems
from tuikit.pilot import app_for, screen_text, settle
from tuikit.samples import sample_room, tshirt_view, view_frame
from tuikit.samples_gsm import SAMPLE_VIEWS, gsm_room
from tuikit.samples_meme import meme_room, meme_view

Build = Callable[[], tuple[PartyApp, Callable[[Pilot[int]], Awaitable[None]]]]
SIZES = [(80, 24), (100, 30)]
WORDS = "a giraffe in a tiny hat, " * 3
LONG_EVENTS = {
    "tshirt": {"kind": "tshirt_drawn", "picture": WORDS},
    "meme": {"kind": "scenario_written", "reactor": 1, "text": WORDS},
    "gsm": {"kind": "wrong_match", "seat": 1, "reason": WORDS},
}


def pictures() -> Iterator[tuple[str, Build]]:
    """Every snapshot's setup, by the snapshot's name."""
    for name in tui_pictures.SCREENS:
        yield f"tui-{name}", lambda name=name: tui_pictures.build(name)
    for game, keys in gsm_pictures.KEYS.items():
        yield f"gsm-{game}", lambda game=game, keys=keys: gsm_pictures.snapshot_app(game, keys)
    for name in meme_pictures.PICTURES:
        yield f"meme-{name}", lambda name=name: meme_pictures.build(name)


PICTURES = dict(pictures())


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("name", list(PICTURES))
async def test_every_snapshot_shows_all_its_text_and_offers_help(
    name: str, size: tuple[int, int]
) -> None:
    app, run_before = PICTURES[name]()
    async with app.run_test(size=size) as pilot:
        await run_before(pilot)
        await settle(pilot)
        assert layout_problems(app) == []


async def show(pilot: Pilot[int], host: FakeHost, room: dict[str, object], view: dict[str, object],
               events: list[dict[str, object]]) -> None:  # fmt: skip
    await settle(pilot)
    host.room = room
    host.last.push(
        {"t": "joined", "code": "KQZD", "seat": 0, "token": "t"},
        copy.deepcopy(room),
        view_frame(view, events),
    )
    await settle(pilot)


TABLES = {
    "tshirt": (lambda: sample_room(status="playing"), lambda: tshirt_view()),
    "meme": (lambda: meme_room(), lambda: meme_view("picking")),
    **{
        game: (lambda game=game: gsm_room(game, seats=2 if game == "four-corners" else 4), make)
        for game, make in SAMPLE_VIEWS.items()
    },
}


@pytest.mark.parametrize("game", list(TABLES))
async def test_log_lines_keep_every_character_once_the_scrollbar_appears(game: str) -> None:
    """Lines wrapped before the log filled up must not lose a column to its scrollbar."""
    room, view = TABLES[game]
    event = LONG_EVENTS.get(game, LONG_EVENTS["gsm"])
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await show(pilot, host, room(), view(), [])
        events: list[dict[str, object]] = []
        for _ in range(30):
            events.append(dict(event))
            app.events = tuple(events)
            await pilot.pause()
        await settle(pilot)
        problems = [p for p in layout_problems(app) if "Log" in p]
        assert problems == []


@pytest.mark.parametrize("game", [game for game in TABLES if game != "meme"])
async def test_the_log_names_a_seat_whose_name_came_after_its_event(game: str) -> None:
    """A late joiner's seat can be in a view before the room frame that names it
    (What Do You Meme? seats nobody mid-game)."""
    make_room, view = TABLES[game]
    room = make_room()
    newcomer = room["seats"].pop()
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(120, 40)) as pilot:
        joined = {"kind": "seat_joined", "seat": newcomer["seat"]}
        await show(pilot, host, room, view(), [joined])
        assert f"seat {newcomer['seat']} joins" in log_text(app)
        host.last.push({**room, "seats": [*room["seats"], newcomer]})
        await settle(pilot)
        assert f"{newcomer['name']} joins" in log_text(app)


def log_text(app: PartyApp) -> str:
    log = app.screen.query_one(GameLog)
    return " ".join(strip.text for strip in log.lines)


@pytest.mark.parametrize("game", list(SAMPLE_VIEWS))
async def test_every_game_set_match_results_screen_shows_all_its_text(game: str) -> None:
    over = SAMPLE_VIEWS[game](phase="over", legal=[], winners=[1])
    room = gsm_room(game, seats=2 if game == "four-corners" else 4, status="over")
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await show(pilot, host, room, over, [{"kind": "game_over", "winners": [1]}])
        assert layout_problems(app) == []


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_a_judge_dealt_no_slogans_yet_reads_the_whole_rack_title(
    size: tuple[int, int],
) -> None:
    """A player who joins as the judge holds no slogans until the next round."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=size) as pilot:
        await show(pilot, host, sample_room(status="playing"), tshirt_view(judge=0, hand=[]), [])
        assert "You judge: slogans come next round" in screen_text(app)
        assert layout_problems(app) == []
