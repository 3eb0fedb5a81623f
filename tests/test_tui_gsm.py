"""The Game, Set, Match! screens against a scripted host: keys to commands, feedback, looks."""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from partyhost.tui.app import PartyApp
from partyhost.tui.gsm.boardview import BoardView, HandRack
from partyhost.tui.gsm.results import GsmResultsScreen
from partyhost.tui.gsm.screen import (
    FourCornersScreen,
    GridironScreen,
    GsmScreen,
    ScrambleScreen,
    StealingHomeScreen,
)
from partyhost.tui.party import legal_of
from textual.pilot import Pilot
from tuikit.fakehost import FakeHost
from tuikit.layout import layout_problems
from tuikit.pilot import app_for, screen_text, settle, settle_logs
from tuikit.samples import view_frame
from tuikit.samples_gsm import (
    SAMPLE_VIEWS,
    four_corners_view,
    gridiron_draw_view,
    gridiron_view,
    gsm_room,
    scramble_view,
    stealing_home_view,
)

Frame = dict[str, Any]
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
LOG = [
    {"kind": "cards_turned", "cards": [45, 48], "round": 2, "tiebreak": None, "at": 1.0},
    {"kind": "wrong_match", "seat": 2, "card": 45, "x": 2, "y": 0, "turned": False,
     "reason": "The red golf ball would touch the red soccer ball (same color)."},
    {"kind": "no_fit_vote", "seat": 3},
]  # fmt: skip


# --- flows against the fake host -----------------------------------------------------


async def seated(pilot: Pilot[int], host: FakeHost, view: Frame, events: list[Frame]) -> None:
    """Ann (seat 0) in a game of ``view["game"]``, showing ``view``."""
    await settle(pilot)
    game = str(view["game"])
    host.room = gsm_room(game, seats=2 if game == "four-corners" else 4)
    host.last.push(
        {"t": "joined", "code": "KQZD", "seat": 0, "token": "t"},
        copy.deepcopy(host.room),
        view_frame(view, events),
    )
    await settle(pilot)


def played(host: FakeHost) -> list[Frame]:
    return [frame["cmd"] for frame in host.last.sent if frame.get("t") == "play"]


def admitted(view: Frame, command: Frame) -> bool:
    """The command matches a template of the view's ``legal`` (cards, turns, slots, fits)."""
    fields = {k: v for k, v in command.items() if k != "v"}
    for template in legal_of(view, str(command["type"])):
        if "card" in fields and fields["card"] not in template.get("cards", []):
            continue
        if "turned" in fields and fields["turned"] not in template.get("turned", []):
            continue
        if "slots" in template and [fields["x"], fields["y"]] not in template["slots"]:
            continue
        if (
            "fits" in template
            and {k: fields[k] for k in ("card", "x", "y", "turned")} not in (template["fits"])
        ):
            continue
        return True
    return False


async def test_stealing_home_claim_is_one_command_with_instant_feedback() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        view = stealing_home_view()
        await seated(pilot, host, view, LOG)
        screen = app.screen
        assert isinstance(screen, StealingHomeScreen) and screen.cursor == (-1, 0)
        await pilot.press("m")
        assert played(host) == []  # no card chosen yet
        await pilot.press("2", "k", "r")
        assert (screen.selected, screen.cursor, screen.turned) == (48, (-1, -1), True)
        await pilot.press("m")
        await settle(pilot)
        assert played(host) == [
            {"type": "match", "card": 48, "x": -1, "y": -1, "turned": True, "v": 3}
        ]
        assert admitted(view, played(host)[0])
        assert "Match! sent" in screen_text(app)
        await pilot.press("n")
        await settle(pilot)
        assert played(host)[-1] == {"type": "no_fit", "v": 3}

        pending = stealing_home_view(called=[0], legal=[])
        host.last.push(view_frame(pending, [{"kind": "match_called", "seat": 0, "tie": False}]))
        await settle(pilot)
        assert "checking" in screen_text(app)
        last = {"seat": 0, "card": 48, "x": -1, "y": -1, "kept": 45}
        won = stealing_home_view(last=last, face_up=[])
        host.last.push(view_frame(won, [{"kind": "match_won", "seat": 0, "kept": 45}]))
        await settle(pilot)
        assert "Accepted!" in screen_text(app)
        next_round = stealing_home_view(last=last, round=4)
        host.last.push(view_frame(next_round, [{"kind": "cards_turned", "round": 4}]))
        await settle(pilot)
        assert "Accepted!" not in screen_text(app)
        assert "Last round: Ann matched first." in screen_text(app)

        wrong = {**LOG[1], "seat": 0}
        scores = copy.deepcopy(view["scores"])
        scores[0]["locked"] = True
        locked = stealing_home_view(scores=scores, legal=[])
        host.last.push(view_frame(locked, [wrong]))
        await settle(pilot)
        text = screen_text(app)
        assert "Wrong:" in text and "locked out" in text.lower()
        sent = len(played(host))
        await pilot.press("1", "m")
        assert len(played(host)) == sent

        tie = stealing_home_view(tiebreak=[0, 1], last={"seats": [0, 1], "cards": [45, 48]})
        host.last.push(view_frame(tie, [{"kind": "tiebreak", "seats": [0, 1], "cards": [1, 2]}]))
        await settle(pilot)
        assert "Tie!" in screen_text(app) and "Tiebreaker" in screen_text(app)


async def test_scramble_board_editor_places_moves_turns_takes_back_and_calls() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        view = scramble_view()
        await seated(pilot, host, view, [])
        screen = app.screen
        assert isinstance(screen, ScrambleScreen) and screen.cursor == (0, -1)
        await pilot.press("1", "enter")
        await pilot.press("j", "r", "t")
        await pilot.press("enter", "l", "r", "enter")
        await pilot.press("g", "s")
        await settle(pilot)
        assert played(host) == [
            {"type": "place", "card": 59, "x": 0, "y": -1, "turned": False, "v": 12},
            {"type": "turn", "card": 3, "v": 12},
            {"type": "take_back", "card": 3, "v": 12},
            {"type": "place", "card": 3, "x": 1, "y": 0, "turned": True, "v": 12},
            {"type": "stuck", "v": 12},
        ]
        assert all(admitted(view, command) for command in played(host))
        done = scramble_view(hand=[], legal=[*view["legal"][:3], {"type": "call_game"}])
        host.last.push(view_frame(done))
        await settle(pilot)
        assert "press g to call Game!" in screen_text(app)
        await pilot.press("g")
        await settle(pilot)
        assert played(host)[-1] == {"type": "call_game", "v": 12}
        reason = "The cards do not form one grid joined by full sides."
        last = {"seat": 0, "valid": False, "reason": reason, "board": []}
        host.last.push(view_frame(scramble_view(board=[], last=last)))
        await settle(pilot)
        assert "Your Game! call was wrong" in screen_text(app)


async def test_four_corners_places_at_line_ends_and_takes_back_an_end_card() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        view = four_corners_view()
        await seated(pilot, host, view, [])
        screen = app.screen
        assert isinstance(screen, FourCornersScreen) and screen.cursor == (-2, 0)
        text = screen_text(app)
        assert "left-right" in text and "Bea builds up-down" in text
        await pilot.press("1", "j", "enter")  # (-2, 1) is not an open end: refused
        assert played(host) == []
        await pilot.press("k", "enter", "l", "t", "l", "t", "s")
        await settle(pilot)
        assert played(host) == [
            {"type": "place", "card": 3, "x": -2, "y": 0, "turned": False, "v": 6},
            {"type": "take_back", "card": 41, "v": 6},
            {"type": "stuck", "v": 6},
        ]
        assert all(admitted(view, command) for command in played(host))


async def test_gridiron_places_only_listed_fits_and_draws_when_nothing_fits() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        view = gridiron_view()
        await seated(pilot, host, view, [])
        screen = app.screen
        assert isinstance(screen, GridironScreen) and screen.cursor == (3, -3)
        await pilot.press("2")  # card 5 fits (3, -3) only when turned: it is turned
        assert screen.turned and played(host) == []
        await pilot.press("enter", "d")
        await settle(pilot)
        assert played(host) == [
            {"type": "place", "card": 5, "x": 3, "y": -3, "turned": True, "v": 7}
        ]
        assert admitted(view, played(host)[0])
        host.last.push(view_frame(gridiron_draw_view()))
        await settle(pilot)
        assert "Draw a card with d" in screen_text(app)
        await pilot.press("1", "p", "d")
        await settle(pilot)
        assert played(host)[1:] == [{"type": "draw", "v": 7}]
        host.last.push(view_frame(gridiron_view(legal=[], turn=2)))
        await settle(pilot)
        assert "Waiting for Carl" in screen_text(app)


async def test_mouse_clicks_pick_a_card_and_a_slot() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(120, 40)) as pilot:
        await seated(pilot, host, gridiron_view(), [])
        screen = app.screen
        assert isinstance(screen, GsmScreen)
        await pilot.click(HandRack, offset=(2, 0))
        assert screen.selected == 59
        board = screen.query_one(BoardView)
        other = board.picture.slot_region((0, 1))
        await pilot.click(BoardView, offset=(other.x + 2, other.y + 1))
        assert screen.cursor == (0, 1) and played(host) == []  # the first click moves
        spot = board.picture.slot_region((3, -3))
        await pilot.click(BoardView, offset=(spot.x + 3, spot.y + 2))
        assert screen.cursor == (3, -3) and played(host) == []
        await pilot.click(BoardView, offset=(spot.x + 3, spot.y + 2))  # the second one places
        await settle(pilot)
        assert played(host) == [
            {"type": "place", "card": 59, "x": 3, "y": -3, "turned": False, "v": 7}
        ]


async def test_the_end_shows_each_games_standings() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        over = gridiron_view(phase="over", legal=[], winners=[1])
        over["scores"][1]["hand"] = 0
        await seated(
            pilot, host, over, [{"kind": "game_over", "winners": [1], "reason": "out_of_cards"}]
        )
        assert isinstance(app.screen, GsmResultsScreen)
        text = screen_text(app)
        assert "Bea wins!" in text and "(Bea is out of cards)" in text
        assert "1. Bea   0 cards left" in text and "Ann   6 cards left" in text
        counts = [line.index("cards left") for line in text.splitlines() if "cards left" in line]
        assert len(counts) == 4 and len(set(counts)) == 1, text  # lined up after "Carl"
        assert "The final board" in text
        board = app.screen.query_one("#final-board", BoardView)
        assert len(board.picture.cards) == len(over["board"]) and board.picture.cursor is None
        assert "·" not in board.render().plain  # no empty-slot dots on a finished board


@pytest.mark.parametrize("game", list(SAMPLE_VIEWS))
async def test_ascii_mode_draws_only_ascii(game: str) -> None:
    host = FakeHost()
    app = app_for(host, ascii_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, host, SAMPLE_VIEWS[game](), LOG)
        await pilot.press("1")
        text = screen_text(app)
    strange = sorted({char for char in text if ord(char) > 126})
    assert strange == [], f"non-ASCII glyphs in --ascii mode: {strange}"


# --- snapshots ----------------------------------------------------------------------


def snapshot_app(game: str, keys: tuple[str, ...], ascii_only: bool = False) -> tuple[
    PartyApp, Callable[[Pilot[int]], Awaitable[None]]
]:  # fmt: skip
    host = FakeHost()
    app = app_for(host, ascii_only=ascii_only)

    async def run_before(pilot: Pilot[int]) -> None:
        view = gridiron_draw_view() if game == "gridiron-draw" else SAMPLE_VIEWS[game]()
        await seated(pilot, host, view, LOG if game == "stealing-home" else [])
        await pilot.press(*keys)
        await settle_logs(pilot)

    return app, run_before


KEYS = {
    "stealing-home": ("2", "r"),
    "scramble": ("1",),
    "gridiron": ("1",),
    "four-corners": ("3",),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", list(SAMPLE_VIEWS))
def test_board_looks_right(game: str, size: tuple[int, int], snap_compare: object) -> None:
    app, run_before = snapshot_app(game, KEYS[game])
    assert snap_compare(app, terminal_size=size, run_before=run_before)  # type: ignore[operator]


def test_ascii_board_looks_right(snap_compare: object) -> None:
    app, run_before = snapshot_app("gridiron", ("1", "r"), ascii_only=True)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)  # type: ignore[operator]


@pytest.mark.parametrize("game", list(SAMPLE_VIEWS))
async def test_the_board_gives_way_to_the_results_without_a_crash(game: str) -> None:
    """Keys and the game's end arrive together: a table on its way out never redraws."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, host, SAMPLE_VIEWS[game](), [])
        await pilot.press("1", "l", "j")
        over = SAMPLE_VIEWS[game](phase="over", legal=[], winners=[1])
        room = gsm_room(game, seats=2 if game == "four-corners" else 4, status="over")
        host.last.push(view_frame(over, [{"kind": "game_over", "winners": [1]}]), room)
        await pilot.press("l", "h", "1", "m")
        await settle(pilot)
        assert isinstance(app.screen, GsmResultsScreen)
    assert app.return_code in (None, 0)


@pytest.mark.parametrize("reason", ["stall", "all_passed"])
@pytest.mark.parametrize(("winners", "verb"), [([1], "holds"), ([0, 1], "hold")])
async def test_a_four_corners_ending_reads_without_brackets_in_brackets(
    reason: str, winners: list[int], verb: str
) -> None:
    """The results say why the winner won in one parenthesis (it read "(Bot 1 holds the
    fewest cards (the game stalled))"), and why winners who tie share it (it said nothing)."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, host, four_corners_view(), [])
        over = four_corners_view(phase="over", legal=[], winners=winners)
        room = gsm_room("four-corners", seats=2, status="over")
        ended = {"kind": "game_over", "winners": winners, "reason": reason}
        host.last.push(view_frame(over, [ended]), room)
        await settle(pilot)
        assert isinstance(app.screen, GsmResultsScreen)
        text = screen_text(app)
        assert f" {verb} the fewest cards" in text
        for line in text.splitlines():
            assert "((" not in line and "))" not in line, line


@pytest.mark.parametrize("game", list(SAMPLE_VIEWS))
async def test_the_arrows_move_the_cursor_with_a_long_log(game: str) -> None:
    """A log long enough to scroll took the focus, and with it the up and down arrows."""
    host = FakeHost()
    app = app_for(host)
    notes = [{"kind": "no_fit_vote", "seat": 1 + n % 3} for n in range(30)]
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, host, SAMPLE_VIEWS[game](), notes)
        screen = app.screen
        assert isinstance(screen, GsmScreen)
        start = screen.cursor or (0, 0)
        await pilot.press("down", "down", "right")
        await settle(pilot)
        assert screen.cursor == (start[0] + 1, start[1] + 2)
        await pilot.press("up")
        await settle(pilot)
        assert screen.cursor == (start[0] + 1, start[1] + 1)


async def test_every_cell_reads_without_color_or_legend_at_80x24() -> None:
    """The object's letter and the color's letter in every cell, from the start."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, host, stealing_home_view(), [])
        text = screen_text(app)
        assert "🧤Mg🏈Hr" in text and "🎾Tb⚽Bw" in text  # face-up card 45, both rows
        assert "🧤M mitt" in text and "⚽B ball" in text
        await pilot.press("i")
        await settle(pilot)
        assert "🧤M 🏈H " in screen_text(app)


@pytest.mark.parametrize(("size", "cards"), [((80, 24), 1), ((90, 28), 2), ((90, 28), 3)])
async def test_the_tile_size_holds_from_one_key_to_the_next(
    size: tuple[int, int], cards: int
) -> None:
    """Tall tiles make the hand taller too: the board's size must not flip on every key."""
    view = gridiron_view()
    view["board"] = view["board"][:cards]  # a board small enough that tall tiles nearly fit
    for template in view["legal"]:
        template.pop("fits", None)
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=size) as pilot:
        await seated(pilot, host, view, [])
        screen = app.screen
        assert isinstance(screen, GsmScreen)
        zooms = []
        for key in ("1", "l", "2", "h", "3", "j"):
            await pilot.press(key)
            await settle(pilot)
            zooms.append(screen.zoom)
        assert len(set(zooms)) == 1, zooms


async def test_with_hints_a_chosen_card_takes_the_cursor_to_where_it_fits() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(100, 30)) as pilot:
        view = gridiron_view()
        await seated(pilot, host, view, [])
        screen = app.screen
        assert isinstance(screen, GridironScreen)
        await pilot.press("h", "h", "h", "h", "h", "h")  # far from any fit
        away = screen.cursor
        await pilot.press("2")  # card 5: it fits at (-1, -2) as it lies, at (3, -3) turned
        assert away != (-1, -2) and screen.cursor == (-1, -2)
        await pilot.press("enter")
        await settle(pilot)
        assert len(played(host)) == 1 and admitted(view, played(host)[0])


async def test_with_hints_a_card_that_fits_here_only_turned_is_turned() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(100, 30)) as pilot:
        view = gridiron_view()
        await seated(pilot, host, view, [])
        screen = app.screen
        assert isinstance(screen, GridironScreen)
        await pilot.press("5")  # card 1 fits at (4, -2) alone: the cursor goes there
        assert screen.cursor == (4, -2) and not screen.turned
        await pilot.press("1")  # card 59 fits there once turned
        assert screen.cursor == (4, -2) and screen.turned
        await pilot.press("enter")
        await settle(pilot)
        assert len(played(host)) == 1 and admitted(view, played(host)[0])


async def test_in_gridiron_enter_draws_when_drawing_is_the_only_move() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, host, gridiron_draw_view(), [])
        await pilot.press("enter")
        await settle(pilot)
        assert played(host) == [{"type": "draw", "v": 7}]


async def test_a_big_hand_at_80x24_leaves_the_board_room_from_the_start() -> None:
    """Ten cards in tall tiles would fill an 80x24 screen: the first look settles on normal."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        view = four_corners_view()
        view["hand"] = (view["hand"] * 4)[:10]
        await seated(pilot, host, view, [])
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GsmScreen) and screen.zoom != "tall"
        assert layout_problems(app) == []


async def test_the_cursor_stays_in_sight_when_the_board_grows_on_the_other_side() -> None:
    """Played by hand: a bot's cards came in on the left of a wide board, and the cursor slot
    at the right edge was pushed out of sight (the board scrolled before it had grown)."""
    host = FakeHost()
    app = app_for(host, ascii_only=True)
    view = gridiron_view(legal=[])
    async with app.run_test(size=(100, 30)) as pilot:
        await seated(pilot, host, view, [])
        await pilot.press(*["l"] * 10)  # to the right edge of what may be shown
        await settle(pilot)
        assert "#====" in screen_text(app)
        grown = copy.deepcopy(view)
        first = grown["board"][0]
        grown["board"] += [
            {**copy.deepcopy(first), "id": 900 + x, "card": 900 + x, "x": x, "y": 0}
            for x in range(-6, -1)
        ]
        grown["version"] = view["version"] + 1
        host.last.push(view_frame(grown))
        await settle(pilot)
        assert "#====" in screen_text(app)


async def test_a_refusal_repeated_shows_one_toast_not_a_pile() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, host, gridiron_view(), [])
        await pilot.press("2", "r")  # card 5 fits here only turned: unturned, it does not
        for _ in range(4):
            await pilot.press("enter")
        await settle(pilot)
        shown = [note.message for note in app._notifications]  # the toasts (no public list)
        assert played(host) == []
        assert len(shown) == 1 and "does not fit" in shown[0]
