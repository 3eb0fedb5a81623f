"""Game, Set, Match! in a replay: the board, every hand and every private board, tile by tile."""

from __future__ import annotations

from partyhost.tui.gsm.boardview import draw_board
from partyhost.tui.gsm.cards import Legend, Painter, read_cells
from partyhost.tui.gsm.picture import final_picture
from partyhost.tui.gsm.text import describe_event
from partyhost.tui.shared.replayparts import ReplayParts, by_seat, joined
from partyhost.tui.text import Frame, Glyphs, Name, counted
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text


def _board(view: Frame, board: object, painter: Painter, ascii_only: bool) -> Text:
    cards = board if isinstance(board, list) else []
    picture = final_picture({**view, "board": cards}, "normal", ascii_only, dots=True)
    return Text("  (no cards)", "dim") if picture is None else draw_board(picture, painter)


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
