"""Game, Set, Match! in a replay: the board, every hand and every private board, tile by tile."""

from __future__ import annotations

from dataclasses import dataclass

from partyhost.tui.gsm.boardview import draw_board
from partyhost.tui.gsm.cards import ZOOMS, Legend, Painter, read_cells
from partyhost.tui.gsm.moves import drawn_size, final_picture, final_region, shape
from partyhost.tui.gsm.text import describe_event
from partyhost.tui.shared.replayparts import ReplayParts, by_seat, joined
from partyhost.tui.text import Frame, Glyphs, Name, counted
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.text import Text

REPLAY_ZOOMS = ZOOMS[ZOOMS.index("normal") :]
"""The drawings a replay's board may take, the most readable first."""


@dataclass(frozen=True)
class FittedBoard:
    """A replay's board in the most readable drawing that fits the panel's width, known
    only when it is drawn: a long game's board is wider than a laptop's replay panel."""

    view: Frame
    painter: Painter
    ascii_only: bool

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        region = final_region(self.view)
        if region is None:
            yield Text("  (no cards)", "dim")
            return
        fits = (
            zoom
            for zoom in REPLAY_ZOOMS
            if drawn_size(region, shape(self.view), zoom, self.ascii_only)[0] <= options.max_width
        )
        zoom = next(fits, REPLAY_ZOOMS[-1])
        picture = final_picture(self.view, zoom, self.ascii_only, dots=True)
        if picture is not None:
            yield draw_board(picture, self.painter)


def _board(view: Frame, board: object, painter: Painter, ascii_only: bool) -> FittedBoard:
    cards = board if isinstance(board, list) else []
    return FittedBoard({**view, "board": cards}, painter, ascii_only)


def _cards(cards: object, painter: Painter) -> RenderableType:
    """Cards side by side, each as its rows of tiles and a blank line, wrapped to the panel's
    width (a hand of seven is wider than a laptop's replay panel)."""
    grids = [read_cells(c) for c in cards if isinstance(c, dict)] if isinstance(cards, list) else []
    if not grids:
        return Text("  (no cards)", "dim")
    faces = [Text.assemble(Text("\n").join(map(painter.row, grid)), "\n") for grid in grids]
    return Padding(Columns(faces, padding=(0, 2)), (0, 0, 0, 2))


def table(view: Frame, name: Name, glyphs: Glyphs, ascii_only: bool) -> RenderableType:
    painter = Painter(Legend.from_view(view), ascii_only=ascii_only, initials=True)
    scores = []
    for row in view.get("scores", []):
        figures = ", ".join(
            f"{key} {value}"
            for key, value in row.items()
            if key not in ("seat", "away", "left") and not isinstance(value, bool)
        )
        flag = " (left)" if row.get("left") else " (away)" if row.get("away") else ""
        scores.append(Text.assemble(name(row.get("seat")), f": {figures}{flag}"))
    parts: list[RenderableType] = [Text.assemble(*joined(scores, "   "))]
    if isinstance(view.get("board"), list) and view["board"]:
        parts.append(_board(view, view["board"], painter, ascii_only))
    if view.get("face_up"):
        parts += [Text("Face up:"), _cards(view["face_up"], painter)]
    boards = by_seat(view.get("boards"))
    for seat, hand in by_seat(view.get("hands")).items():
        parts += [Text.assemble(name(seat), "'s hand:"), _cards(hand.get("cards"), painter)]
        if seat in boards:
            parts.append(Text.assemble(name(seat), "'s board:"))
            parts.append(_board(view, boards[seat].get("board"), painter, ascii_only))
    return Group(*parts)


PARTS = ReplayParts(describe_event, table)
SCRAMBLE = ReplayParts(describe_event, table, lambda number: f"Game {number}")
"""Scramble's replay steps by the games of its match."""
CARDS_DOWN = ReplayParts(
    describe_event, table, lambda number: f"{counted(number, 'card')} on the table"
)
"""Gridiron and Four Corners have no rounds: their replays step by each card put down."""
