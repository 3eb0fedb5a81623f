"""The Game, Set, Match! board always fits: boards of many rounds, played by bots through the
engine, drawn whole at 80x24 and 100x30, no card cut, no scrollbar, the cursor in sight."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgpack
import pytest
from gsmplay import shipped_deck
from partyhost.engine.core import Game, IllegalMove, apply, apply_tick
from partyhost.engine.gsm.four_corners.game import GAME as FOUR_CORNERS
from partyhost.engine.gsm.gridiron.game import GAME as GRIDIRON
from partyhost.engine.gsm.scramble.game import GAME as SCRAMBLE
from partyhost.engine.gsm.stealing_home.game import GAME as STEALING_HOME
from partyhost.engine.rng import Rng
from partyhost.tui.gsm import moves
from partyhost.tui.gsm.boardview import BoardView
from partyhost.tui.gsm.cards import LETTERED, ZOOMS, Legend, Painter, read_cells
from partyhost.tui.gsm.results import GsmResultsScreen
from partyhost.tui.gsm.screen import GsmScreen
from partyhost.tui.shared.scoreboard import Scoreboard
from rich.cells import cell_len
from textual.containers import ScrollableContainer, VerticalScroll
from textual.pilot import Pilot
from tuikit.fakehost import FakeHost
from tuikit.layout import layout_problems
from tuikit.pilot import app_for, screen_text, settle
from tuikit.samples import view_frame
from tuikit.samples_gsm import gsm_room

Frame = dict[str, Any]
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((100, 30), id="100x30")]


def wire(view: Any) -> Frame:
    """The view as a client receives it (tuples become lists)."""
    found = msgpack.unpackb(msgpack.packb(view), strict_map_key=False)
    assert isinstance(found, dict)
    return found


def boards(
    game: Game, seats: int, placed: str, seed: int, idle: int | None = None
) -> Iterator[tuple[int, Frame]]:
    """Seat 0's view after each card a bot puts down (``placed`` events), with the count;
    the ``idle`` seat never plays."""
    rng = Rng(seed)
    state = game.start(shipped_deck(), list(range(seats)), {}, seed=seed)
    now, count = 0.0, 0
    next_at = {seat: 0.1 + rng.below(1000) / 1000 for seat in state.seats if seat != idle}
    for _ in range(6000):
        if game.is_over(state):
            return
        seat = min(next_at, key=lambda s: (next_at[s], s))
        due = game.deadline(state)
        if due is not None and due <= next_at[seat]:
            now = max(now, due)
            state, events = apply_tick(game, state, now)
        else:
            now = max(now, next_at[seat])
            next_at[seat] = now + 0.1 + rng.below(1000) / 1000
            command = game.bot_command(game.view(state, seat), rng, now)
            if command is None:
                continue
            try:
                state, events = apply(game, state, seat, command, now)
            except IllegalMove:
                continue
        if any(event.kind == placed for event in events):
            count += 1
            yield count, wire(game.view(state, 0))


def views_after(game: Game, seats: int, placed: str, counts: tuple[int, ...]) -> list[Frame]:
    """The views after ``counts`` cards were put down, and the last one before the end."""
    played = [
        (n, view) for n, view in boards(game, seats, placed, seed=7) if view["phase"] != "over"
    ]
    wanted = {count: view for count, view in played if count in counts}
    assert sorted(wanted) == sorted(counts), "the bots' game ended too soon"
    return [wanted[count] for count in counts] + [played[-1][1]]


STEALING = views_after(STEALING_HOME, 4, "match_won", (10, 15, 20, 25))
CORNERS = views_after(FOUR_CORNERS, 2, "card_placed", (6, 10, 14))


async def seat_ann(pilot: Pilot[int], host: FakeHost, view: Frame, seats: int) -> None:
    await settle(pilot)
    host.room = gsm_room(str(view["game"]), seats=seats)
    host.last.push({"t": "joined", "code": "KQZD", "seat": 0, "token": "t"}, host.room)
    host.last.push(view_frame(view))
    await settle(pilot)


def whole_board_problems(app: Any) -> list[str]:
    """What a player could not see: a scrollbar, a card cut or out of view, the cursor hidden.

    Every card's drawn lines must stand in the screen's text where the board puts them.
    """
    screen = app.screen
    scroller = screen.query_one("#gsm-board-scroll", ScrollableContainer)
    return board_problems(app, screen.query_one("#gsm-board", BoardView), scroller)


def board_problems(app: Any, board: BoardView, scroller: ScrollableContainer) -> list[str]:
    problems = []
    if scroller.show_horizontal_scrollbar or scroller.show_vertical_scrollbar:
        problems.append(f"scrollbars at zoom {board.painter.zoom}")
    if scroller.scroll_offset != (0, 0):
        problems.append(f"scrolled by {scroller.scroll_offset}")
    lines = screen_text(app).splitlines()
    picture, origin = board.picture, board.content_region.offset
    visible = scroller.content_region
    for card in picture.cards:
        slot = picture.slot_region((card.x, card.y)).translate(origin)
        if not visible.contains_region(slot):
            problems.append(f"card at {card.x},{card.y} out of view")
            continue
        drawn = board.painter.card_lines(card.cells)
        for number, segments in enumerate(drawn):
            text = "".join(chunk for chunk, _ in segments)
            row = lines[slot.y + picture.rule + number]
            shown = _cells_from(row, slot.x + 1)
            if not shown.startswith(text):
                problems.append(f"card at {card.x},{card.y} line {number}: {shown!r} for {text!r}")
    if picture.cursor is not None:
        cursor = picture.slot_region(picture.cursor).translate(origin)
        if not visible.contains_region(cursor):
            problems.append(f"cursor {picture.cursor} out of view")
    return problems


def lens_problems(app: Any, screen: GsmScreen) -> list[str]:
    """A board without color letters has the card at the cursor drawn with them beside it."""
    if screen.zoom in LETTERED:
        return []
    text = screen_text(app)
    if "Around the cursor" not in text:
        return [f"no lens at zoom {screen.zoom}"]
    here = moves.board_cards(screen.view).get(screen.cursor or (0, 0))
    if here is None:
        return []
    letters = Painter(Legend.from_view(screen.view), ascii_only=False, initials=True, zoom="dense")
    return [
        f"{line!r} not beside the board"
        for line in ("".join(c for c, _ in row) for row in letters.card_lines(read_cells(here)))
        if line not in text
    ]


def _cells_from(row: str, column: int) -> str:
    """The text of ``row`` from terminal column ``column`` (wide glyphs take two)."""
    at = 0
    for index, char in enumerate(row):
        if at >= column:
            return row[index:]
        at += cell_len(char)
    return ""


@pytest.mark.parametrize("size", SIZES)
async def test_a_stealing_home_board_of_many_rounds_is_drawn_whole(size: tuple[int, int]) -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=size) as pilot:
        await seat_ann(pilot, host, STEALING[0], seats=4)
        for view in STEALING:
            host.last.push(view_frame(view))
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, GsmScreen)
            assert whole_board_problems(app) == [], (view["round"], screen.zoom)
            assert layout_problems(app) == []


async def test_the_drawing_is_chosen_again_when_the_terminal_is_resized() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(120, 40)) as pilot:
        await seat_ann(pilot, host, STEALING[0], seats=4)
        screen = app.screen
        assert isinstance(screen, GsmScreen)
        big = screen.zoom
        for size in ((80, 24), (120, 40)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            assert whole_board_problems(app) == [], (size, screen.zoom)
            if size == (80, 24):
                assert ZOOMS.index(screen.zoom) > ZOOMS.index(big)
        assert screen.zoom == big


@pytest.mark.parametrize("size", SIZES)
async def test_the_cursor_walks_the_whole_four_corners_board_in_sight(
    size: tuple[int, int],
) -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=size) as pilot:
        await seat_ann(pilot, host, CORNERS[0], seats=2)
        for view in CORNERS:
            host.last.push(view_frame(view))
            await settle(pilot)
            assert whole_board_problems(app) == []
        screen = app.screen
        assert isinstance(screen, GsmScreen)
        min_x, min_y, max_x, max_y = screen.picture().region
        seen = set()
        for _ in range(max_x - min_x + 1):
            await pilot.press("left")
        for _ in range(max_y - min_y + 1):
            await pilot.press("up")
        for row in range(max_y - min_y + 1):
            for _ in range(max_x - min_x):
                await pilot.press("left" if row % 2 else "right")
                await settle(pilot)
                seen.add(screen.cursor)
                assert whole_board_problems(app) == [], screen.cursor
                assert lens_problems(app, screen) == [], screen.cursor
            await pilot.press("down")
        assert len(seen) >= (max_x - min_x) * (max_y - min_y)
        if size == (80, 24):
            assert screen.zoom not in LETTERED  # the lens was looked at


def biggest_board(
    game: Game, seats: int, placed: str, idle: int | None = None, seed: int = 7
) -> Frame:
    """Seat 0's view with the most cards on its board, up to the game's end."""
    played = [view for _, view in boards(game, seats, placed, seed=seed, idle=idle)]
    return max(played, key=lambda view: len(moves.board_cards(view)))


FINAL_BOARDS = {
    "stealing-home": (STEALING[-1], 4),
    "four-corners": (CORNERS[-1], 2),
    "four-corners-one-line": (biggest_board(FOUR_CORNERS, 2, "card_placed", idle=0, seed=11), 2),
    "gridiron": (biggest_board(GRIDIRON, 4, "card_placed"), 4),
    "scramble": (biggest_board(SCRAMBLE, 3, "placed"), 3),
}
"""The biggest boards the bots leave in each game, and how many seats played (one line:
a bot lays its whole hand up-down, eleven cards, while the player sits still, as a new
player may)."""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", list(FINAL_BOARDS))
async def test_the_results_show_the_whole_final_board_with_no_scrolling(
    game: str, size: tuple[int, int]
) -> None:
    host = FakeHost()
    app = app_for(host)
    view, seats = FINAL_BOARDS[game]
    over = {**view, "phase": "over", "legal": [], "winners": [0]}
    async with app.run_test(size=size) as pilot:
        await seat_ann(pilot, host, view, seats=seats)
        host.last.push(
            view_frame(over, [{"kind": "game_over", "winners": [0], "reason": "out"}]),
            gsm_room(str(view["game"]), seats=seats, status="over"),
        )
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GsmResultsScreen)
        board = screen.query_one("#final-board", BoardView)
        assert len(board.picture.cards) == len(moves.board_cards(over))
        results = screen.query_one("#results", VerticalScroll)
        assert results.scroll_offset == (0, 0)
        scroller = screen.query_one("#final-board-scroll", ScrollableContainer)
        where = (screen.board_layout, screen.zoom)
        assert results.scrollable_content_region.contains_region(board.content_region), where
        assert board_problems(app, board, scroller) == [], where
        assert "You win!" in screen_text(app)
        assert screen.zoom in LETTERED, where
        assert layout_problems(app) == []


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", list(FINAL_BOARDS))
async def test_after_a_game_against_bots_the_next_command_stands_on_one_line(
    game: str, size: tuple[int, int]
) -> None:
    host = FakeHost()
    app = app_for(host, solo=True)
    view, seats = FINAL_BOARDS[game]
    over = {**view, "phase": "over", "legal": [], "winners": [0]}
    async with app.run_test(size=size) as pilot:
        await seat_ann(pilot, host, view, seats=seats)
        host.last.push(view_frame(over), gsm_room(str(view["game"]), seats=seats, status="over"))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GsmResultsScreen)
        command = f"partyhost play {view['game']} --level hard"
        assert screen.play_again_command() == command
        podium = screen.query_one("#podium")
        lines = podium.render_lines(podium.content_region.reset_offset)
        shown = ["".join(segment.text for segment in line).rstrip() for line in lines]
        assert f"  {command}" in shown, (screen.board_layout, shown)


async def test_the_final_board_is_laid_out_again_when_the_terminal_is_resized() -> None:
    host = FakeHost()
    app = app_for(host)
    view, seats = FINAL_BOARDS["gridiron"]
    over = {**view, "phase": "over", "legal": [], "winners": [0]}
    async with app.run_test(size=(160, 50)) as pilot:
        await seat_ann(pilot, host, view, seats=seats)
        host.last.push(view_frame(over), gsm_room("gridiron", seats=seats, status="over"))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GsmResultsScreen)
        seen = []
        for size in ((80, 24), (60, 24), (160, 50)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            seen.append(screen.board_layout)
            board = screen.query_one("#final-board", BoardView)
            results = screen.query_one("#results", VerticalScroll)
            assert results.scrollable_content_region.contains_region(board.content_region), size
            scroller = screen.query_one("#final-board-scroll", ScrollableContainer)
            assert board_problems(app, board, scroller) == [], size
            assert "You win!" in screen_text(app), size
        assert seen == ["beside", "first", "below"]


@pytest.mark.usefixtures("results_hold_their_keys")
@pytest.mark.parametrize("size", SIZES)
def test_the_four_corners_results_look_right(size: tuple[int, int], snap_compare: object) -> None:
    """Long lines beside the standings, every card in sight with its letters."""
    host = FakeHost()
    app = app_for(host)
    view, seats = FINAL_BOARDS["four-corners"]
    over = {**view, "phase": "over", "legal": [], "winners": [0]}

    async def run_before(pilot: Pilot[int]) -> None:
        await seat_ann(pilot, host, view, seats=seats)
        host.last.push(
            view_frame(over, [{"kind": "game_over", "winners": [0], "reason": "stall"}]),
            gsm_room("four-corners", seats=seats, status="over"),
        )
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)  # type: ignore[operator]


async def test_ten_stealing_home_players_are_listed_whole_at_80x24() -> None:
    host = FakeHost()
    app = app_for(host)
    view = STEALING[1]
    flags = {"cards": 0, "locked": False, "voted": False, "away": False, "left": False}
    view = {**view, "scores": [{"seat": seat, **flags} for seat in range(10)]}
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        room = gsm_room("stealing-home", seats=4)
        room["seats"] = [
            {**room["seats"][0], "seat": seat, "name": f"Player {seat}"} for seat in range(10)
        ]
        host.room = room
        host.last.push({"t": "joined", "code": "KQZD", "seat": 0, "token": "t"}, room)
        host.last.push(view_frame(view))
        await settle(pilot)
        scores = app.screen.query_one(Scoreboard)
        assert scores.columns == 2
        text = screen_text(app)
        for seat in range(10):
            assert f"Player {seat}" in text, seat
        assert scores.content_region.bottom <= app.screen.query_one("#gsm-log").region.y
        assert layout_problems(app) == []


async def test_card_counts_line_up_by_their_numbers() -> None:
    """``0 cards`` and ``1 card`` end their numbers in one column (the words differ)."""
    host = FakeHost()
    app = app_for(host)
    flags = {"locked": False, "voted": False, "away": False, "left": False}
    counts = {0: 0, 1: 1, 2: 12}
    view = {**STEALING[1], "scores": [{"seat": s, "cards": c, **flags} for s, c in counts.items()]}
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        room = gsm_room("stealing-home", seats=3)
        room["seats"] = [
            {**room["seats"][0], "seat": seat, "name": f"Player {seat}"} for seat in counts
        ]
        host.room = room
        host.last.push({"t": "joined", "code": "KQZD", "seat": 0, "token": "t"}, room)
        host.last.push(view_frame(view))
        await settle(pilot)
        lines = screen_text(app).splitlines()
        ends = set()
        for seat, count in counts.items():
            line = next(ln for ln in lines if f"Player {seat}" in ln and f"{count} card" in ln)
            ends.add(line.index(f"{count} card") + len(str(count)))
        assert len(ends) == 1, ends


async def test_a_board_fitting_that_comes_after_the_results_closed_does_nothing() -> None:
    """Play again: a resize or refresh queued for the results screen can run once its
    parts are gone; it must not take the client down."""
    host = FakeHost()
    app = app_for(host)
    over = {**CORNERS[-1], "phase": "over", "legal": [], "winners": [0]}
    async with app.run_test(size=(80, 24)) as pilot:
        await seat_ann(pilot, host, CORNERS[-1], seats=2)
        host.last.push(
            view_frame(over, [{"kind": "game_over", "winners": [0], "reason": "out"}]),
            gsm_room("four-corners", seats=2, status="over"),
        )
        await settle(pilot)
        results = app.screen
        assert isinstance(results, GsmResultsScreen)
        await results.query_one("#results").remove()  # as the screen is taken down
        results._show_board(over)
        results.on_resize()
        await settle(pilot)
        assert app.is_running
