"""The Game, Set, Match! client's pure pieces: drawing, commands from templates, words."""

from __future__ import annotations

import copy
from typing import Any

from partyhost.decks.catalog import shipped_decks_dir
from partyhost.decks.files import load_deck_file
from partyhost.engine.core import apply_tick
from partyhost.engine.registry import get_game
from partyhost.tui.games import main_screen
from partyhost.tui.gsm import moves
from partyhost.tui.gsm.boardview import BoardCard, BoardPicture, draw_board
from partyhost.tui.gsm.cards import (
    TRUE_COLORS,
    ZOOMS,
    Legend,
    Painter,
    legend_text,
    read_cells,
    tile_style,
)
from partyhost.tui.gsm.moves import (
    FinalFit,
    ResultsRoom,
    Space,
    best_zoom,
    drawn_size,
    final_fit,
    shown_region,
)
from partyhost.tui.gsm.results import GsmResultsScreen
from partyhost.tui.gsm.screen import (
    FourCornersScreen,
    GridironScreen,
    ScrambleScreen,
    StealingHomeScreen,
)
from partyhost.tui.gsm.text import describe_event, seconds_left
from partyhost.tui.text import UNICODE
from rich.text import Text
from tuikit.samples_gsm import (
    LEGEND,
    SAMPLE_VIEWS,
    cells,
    four_corners_view,
    gridiron_draw_view,
    gridiron_view,
    stealing_home_view,
)

Frame = dict[str, Any]
WRONG = {
    "kind": "wrong_match",
    "seat": 2,
    "card": 45,
    "x": 2,
    "y": 0,
    "turned": False,
    "reason": "The red golf ball would touch the red soccer ball (same color).",
}


def painter(*, ascii_only: bool = False, legend: Frame | None = None) -> Painter:
    return Painter(
        Legend.from_view({"legend": legend or LEGEND}), ascii_only=ascii_only, initials=False
    )


def test_a_card_of_any_shape_is_drawn_cell_by_cell() -> None:
    legend = {
        "objects": [{"name": f"thing {n}", "letter": "ABCDEF"[n], "glyph": ""} for n in range(6)],
        "colors": copy.deepcopy(LEGEND["colors"]),
    }
    wide = ((0, 0), (1, 1), (2, 2)), ((3, 3), (4, 4), (5, 5))
    picture = BoardPicture(2, 3, (BoardCard(0, 0, wide),), region=(0, 0, 1, 0), cursor=(1, 0))
    lines = draw_board(picture, painter(ascii_only=True, legend=legend)).plain.splitlines()
    assert len(lines) == (2 + 1) + 1 and len(lines[0]) == 2 * (3 * 4 + 1) + 1
    assert lines[1] == "| Ar  Bb  Cg #     .      #"
    assert lines[2].startswith("| Dp  Ey  Fw #")
    assert lines[0].endswith("#============#")
    assert BoardPicture(3, 2, card_lines=3 * 2).slot_height == 3 * 2 + 1
    assert BoardPicture(3, 2, card_lines=3, ruled=False).slot_height == 3


def test_cards_read_from_the_view_and_turned_in_the_picture() -> None:
    entry = {"id": 3, "cells": cells("Gr Tb / Hg Sw")}
    assert read_cells(entry) == (((0, 0), (1, 1)), ((3, 2), (4, 5)))
    assert moves.lying(entry, True) == (((4, 5), (3, 2)), ((1, 1), (0, 0)))
    text = painter(ascii_only=True).row(read_cells(entry)[0]).plain
    assert text == " Gr  Tb "


def test_deck_text_in_the_legend_is_shown_literally() -> None:
    legend = copy.deepcopy(LEGEND)
    legend["objects"][0]["name"] = "[red]golf\x1b[2J"
    shown = legend_text(Legend.from_view({"legend": legend}), painter(), 60).plain
    assert "[red]golf^[[2J" in shown


def test_a_narrow_legend_names_each_thing_by_the_word_its_letter_stands_for() -> None:
    shown = legend_text(Legend.from_view({"legend": LEGEND}), painter(), 30).plain.split()
    assert shown[:8] == ["⛳G", "golf", "🎾T", "tennis", "🧤M", "mitt", "🏈H", "helmet"]
    assert shown[8:12] == ["👟S", "sneaker", "⚽B", "ball"]


def test_commands_come_only_from_the_views_templates() -> None:
    view = gridiron_view()
    assert moves.placement(view, "place", 59, (3, -3), False) == {
        "type": "place",
        "card": 59,
        "x": 3,
        "y": -3,
        "turned": False,
    }
    assert moves.placement(view, "place", 59, (3, -3), True) == moves.NO_FIT  # not among the fits
    not_in_hand = moves.placement(view, "place", 37, (3, -3), False)
    assert not_in_hand == "That card cannot be played now."
    assert "does not fit" in moves.NO_FIT
    corners = four_corners_view()
    assert isinstance(moves.placement(corners, "place", 3, (-2, 0), True), dict)
    assert isinstance(moves.placement(corners, "place", 3, (0, 2), False), str)
    assert moves.card_command(corners, "take_back", 41) == {"type": "take_back", "card": 41}
    assert moves.card_command(corners, "take_back", 5) is None
    assert moves.simple(gridiron_draw_view(), "draw") == {"type": "draw"}


def test_slots_are_marked_only_from_what_the_view_gives() -> None:
    assert moves.marks(stealing_home_view(), "match", 45, False) == {}  # hints off: nothing
    hinted = moves.marks(gridiron_view(), "place", 59, False)
    assert hinted[(3, -3)] == "fit" and hinted[(4, -2)] == "turn"
    assert moves.marks(four_corners_view(), "place", None, False) == {
        (3, 0): "open",
        (-2, 0): "open",
    }


def test_log_lines_keep_names_and_reasons_literal() -> None:
    def name(seat: object) -> Text:
        return Text("[bold]Eve" if seat == 2 else f"seat {seat}")

    wrong = describe_event(WRONG, {"you": 0}, name, UNICODE)
    assert wrong is not None and "[bold]Eve was wrong" in wrong.plain
    kinds = ["match_won", "tiebreak", "no_fit", "game_called", "dealt", "card_placed"]
    for kind in [*kinds, "card_drawn", "passed", "taken_back", "game_over", "stuck"]:
        line = describe_event(
            {"kind": kind, "seat": 1, "hand": 3, "winners": [1]}, {"you": 0}, name, UNICODE
        )
        assert line is not None and line.plain, kind
    assert describe_event({"kind": "round_clock", "at": 1.0}, {"you": 0}, name, UNICODE) is None


def test_deadlines_count_down_from_the_views_clock() -> None:
    assert seconds_left(160.4, now=100.0) == 60
    assert seconds_left(90.0, now=100.0) == 0
    assert seconds_left(None, now=100.0) is None


def test_sample_views_have_the_keys_the_engine_sends() -> None:
    deck = load_deck_file(shipped_decks_dir() / "game-set-match.yaml").deck
    for game_id, sample in SAMPLE_VIEWS.items():
        game = get_game(game_id)
        state = game.start(deck, [0, 1], {}, seed=11)
        state, _ = apply_tick(game, state, 100.0)
        real = game.view(state, 0)
        view = sample()
        assert set(view) == set(real), game_id
        assert view["legend"] == real["legend"]
        assert set(view["scores"][0]) == set(real["scores"][0]), game_id
        for key in ("board", "hand", "face_up"):
            if real.get(key) and view.get(key):
                assert set(view[key][0]) == set(real[key][0]), (game_id, key)


def test_each_game_id_gets_its_screen() -> None:
    for game, kind in [
        ("stealing-home", StealingHomeScreen),
        ("scramble", ScrambleScreen),
        ("gridiron", GridironScreen),
        ("four-corners", FourCornersScreen),
    ]:
        assert isinstance(main_screen("game", game), kind)
        assert isinstance(main_screen("results", game), GsmResultsScreen)


def test_colors_are_true_to_their_names_and_native_on_16_color_terminals() -> None:
    assert tile_style("magenta", native=True) == "bold bright_white on magenta"
    assert tile_style("yellow", native=True) == "bold black on yellow"
    red, purple = tile_style("red"), tile_style("magenta")
    assert red != purple and "#" in red  # Textual's own palette paints both the same
    ghost = painter().tile((0, 0), ghost=True)
    assert all(" on " not in style for _, style in ghost)


def test_the_board_takes_the_biggest_drawing_that_fits_and_shrinks_as_it_must() -> None:
    view = gridiron_view()  # 8 x 5 slots once the fits are flagged
    assert best_zoom(view, "place", Space(120, 60), ascii_only=False) == "tall"
    assert best_zoom(view, "place", Space(120, 60), ascii_only=True) == "normal"
    assert best_zoom(view, "place", Space(120, 60, tall_height=20), ascii_only=False) == "normal"
    assert best_zoom(view, "place", Space(80, 20), ascii_only=False) == "normal"  # 73 x 16
    assert best_zoom(view, "place", Space(46, 20), ascii_only=False) == "compact"  # 41 x 16
    assert best_zoom(view, "place", Space(46, 12), ascii_only=False) == "dense"  # 41 x 10
    assert best_zoom(view, "place", Space(30, 16), ascii_only=False) == "slim"  # 25 x 16
    assert best_zoom(view, "place", Space(30, 12), ascii_only=False) == "tight"  # 25 x 10
    assert best_zoom(view, "place", Space(46, 6), ascii_only=False) == "mini"  # 25 x 5
    assert best_zoom(view, "place", Space(20, 3), ascii_only=False) == "mini"  # it scrolls
    region, shape = shown_region(view, "place"), moves.shape(view)
    assert [drawn_size(region, shape, zoom, False) for zoom in ZOOMS] == [
        (73, 26),
        (73, 16),
        (41, 16),
        (41, 10),
        (25, 16),
        (25, 10),
        (25, 5),
    ]
    assert drawn_size(region, shape, "mini", True) == (25, 10)  # ASCII: a line a row
    normal = Painter(Legend.from_view(view), ascii_only=False, initials=True)
    assert normal.row(read_cells(view["hand"][0])[0]).plain == "⛳Gr🧤Mw"
    tall = Painter(Legend.from_view(view), ascii_only=False, initials=False, zoom="tall")
    assert [tall.row(((0, 0),), line).plain for line in (0, 1)] == [" ⛳ ", " G  "]
    assert moves.region([(0, 0)], [(3, 0)]) == (-1, -1, 3, 1)
    card = read_cells(view["hand"][0])
    compact = Painter(Legend.from_view(view), ascii_only=False, initials=True, zoom="compact")
    assert ["".join(c for c, _ in line) for line in compact.card_lines(card)] == ["GrMw", "HpTy"]
    mini = Painter(Legend.from_view(view), ascii_only=False, initials=True, zoom="mini")
    (halves,) = mini.card_lines(card)  # both rows in one line: red over purple, white over yellow
    assert [char for char, _ in halves] == ["▀", "▀"]
    assert halves[0][1] == f"{TRUE_COLORS['red']} on {TRUE_COLORS['magenta']}"
    letters = Painter(Legend.from_view(view), ascii_only=True, initials=True, zoom="mini")
    assert ["".join(c for c, _ in line) for line in letters.card_lines(card)] == ["GM", "HT"]


def test_the_final_board_goes_under_beside_or_over_the_standings() -> None:
    """The biggest lettered drawing under or beside the standings, else over them, the
    margins and then the board's title given up for letters, the color map last (sizes as
    in the test above)."""
    region, shape = (0, 0, 7, 4), (2, 2)

    def fit(*room: int) -> tuple[str, str, int, int]:
        width, below, beside, first, spare = room
        spares = (0, spare)
        found = final_fit(
            region, shape, ResultsRoom(width, below, beside, first, 24, spares), False
        )
        return found.layout, found.zoom, found.standings_width, found.spare

    assert fit(100, 26, 26, 26, 0) == ("below", "tall", 0, 0)
    assert fit(100, 10, 20, 20, 0) == ("beside", "normal", 25, 0)  # bigger than under
    assert fit(100, 16, 17, 17, 0) == ("below", "normal", 0, 0)  # both fit: under
    assert fit(75, 4, 17, 17, 0) == ("beside", "compact", 32, 0)
    assert fit(60, 4, 17, 17, 0) == ("first", "compact", 0, 0)  # too wide to stand beside
    assert fit(60, 4, 9, 9, 2) == ("first", "dense", 0, 2)
    assert fit(60, 4, 9, 7, 0) == ("beside", "mini", 33, 0)  # nothing lettered fits
    assert fit(20, 1, 1, 1, 0) == ("first", "mini", 0, 0)  # nowhere: it scrolls
    line = (0, 0, 0, 10)  # eleven cards up-down: 22 lines even dense, the title gives its line
    room = ResultsRoom(75, 4, 19, 17, 24, spares=(0, 2, 3), title=17)
    assert final_fit(line, shape, room, False) == FinalFit("beside", "dense", 56, 3)
