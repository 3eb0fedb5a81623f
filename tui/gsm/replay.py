"""Game, Set, Match! in a replay: the board, every hand and every private board, tile by tile."""

from __future__ import annotations

from partyhost.tui.gsm.boardview import BoardCard, BoardPicture, draw_board
from partyhost.tui.gsm.cards import Legend, Painter, read_cells
from partyhost.tui.gsm.text import describe_event
from partyhost.tui.shared.replayparts import ReplayParts, by_seat, joined
from partyhost.tui.shared.seats import seat_style
from partyhost.tui.text import Frame, Glyphs, Name
from rich.console import Group, RenderableType
from rich.text import Text


def narrate(event: Frame, view: Frame, name: Name, glyphs: Glyphs) -> Text | None:
    return describe_event(event, name, glyphs, None)


def _owner_style(owner: object) -> str:
    return seat_style(owner) if isinstance(owner, int) else "bright_black"


def _board(view: Frame, board: object, painter: Painter) -> Text:
    shape = view.get("shape") or {}
    rows, cols = int(shape.get("rows", 2)), int(shape.get("cols", 2))
    cards = [entry for entry in board if isinstance(entry, dict)] if isinstance(board, list) else []
    if not cards:
        return Text("  (no cards)", "dim")
    placed = tuple(
        BoardCard(int(c["x"]), int(c["y"]), read_cells(c), _owner_style(c.get("owner")))
        for c in cards
    )
    xs, ys = [card.x for card in placed], [card.y for card in placed]
    last = view.get("last") if isinstance(view.get("last"), dict) else None
    spot = (last["x"], last["y"]) if last and isinstance(last.get("x"), int) else None
    region = (min(xs), min(ys), max(xs), max(ys))
    return draw_board(BoardPicture(rows, cols, placed, region=region, last=spot), painter)


def _cards(cards: object, painter: Painter) -> Text:
    """Cards side by side, each as its rows of tiles."""
    grids = [read_cells(c) for c in cards if isinstance(c, dict)] if isinstance(cards, list) else []
    if not grids:
        return Text("  (no cards)", "dim")
    text = Text(no_wrap=True)
    for row in range(max(len(grid) for grid in grids)):
        text.append("  " if row == 0 else "\n  ")
        for grid in grids:
            if row < len(grid):
                text.append_text(painter.row(grid[row]))
            text.append("  ")
    return text


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
        parts.append(_board(view, view["board"], painter))
    if view.get("face_up"):
        parts += [Text("Face up:"), _cards(view["face_up"], painter)]
    boards = by_seat(view.get("boards"))
    for seat, hand in by_seat(view.get("hands")).items():
        parts += [Text.assemble(name(seat), "'s hand:"), _cards(hand.get("cards"), painter)]
        if seat in boards:
            parts.append(Text.assemble(name(seat), "'s board:"))
            parts.append(_board(view, boards[seat].get("board"), painter))
    return Group(*parts)


PARTS = ReplayParts(narrate, table)
SCRAMBLE = ReplayParts(narrate, table, lambda number: f"Game {number}")
"""Scramble's replay steps by the games of its match."""
CARDS_DOWN = ReplayParts(narrate, table, lambda number: f"{number} cards on the table")
"""Gridiron and Four Corners have no rounds: their replays step by each card put down."""
