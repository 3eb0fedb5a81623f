"""What the Game, Set, Match! board shows, decided from the view and the player's choice.

Pure functions, so the screen stays small and the decisions are easy to test:
which slots are on screen, where the cursor may go, what the chosen card
looks like at the cursor, and whether the board fits with tall tiles.
"""

from __future__ import annotations

from dataclasses import dataclass

from partyhost.tui.gsm import moves
from partyhost.tui.gsm.boardview import BoardCard, BoardPicture
from partyhost.tui.gsm.cards import CELL_WIDTH, Cells, read_cells, turn_cells
from partyhost.tui.shared.seats import seat_style
from partyhost.tui.text import Frame
from textual.geometry import Size

Slot = tuple[int, int]


@dataclass(frozen=True)
class Choice:
    """The card the player holds ready: its id, its turn, and whether it is on the board."""

    card: int | None = None
    turned: bool = False
    moving: bool = False
    """Scramble: a card picked up from your own board to move it."""


def owner_style(owner: object) -> str:
    """Cards are outlined in their owner's seat color (the host's cards in grey)."""
    return seat_style(owner) if isinstance(owner, int) else "bright_black"


def chosen_cells(view: Frame, hand: list[Frame], choice: Choice) -> Cells | None:
    """The chosen card as it would lie at the cursor, or ``None`` if it is gone."""
    if choice.card is None:
        return None
    if choice.moving:
        for entry in moves.board_cards(view).values():
            if entry.get("card") == choice.card:
                cells = read_cells(entry)
                return cells if bool(entry.get("turned")) == choice.turned else turn_cells(cells)
        return None
    for entry in hand:
        if entry.get("id") == choice.card:
            return moves.lying(entry, choice.turned)
    return None


def shown_region(view: Frame, kind: str) -> tuple[int, int, int, int]:
    """The slots on screen: the cards and one slot around them, and any flagged slot.

    Flags of every card count, so choosing a card never shifts the board.
    """
    return moves.region(moves.board_cards(view), moves.marks(view, kind, None, False))


def best_zoom(view: Frame, kind: str, width: int, height: int, ascii_only: bool) -> str:
    """Tall tiles when the board fits with them; else normal ones (the board scrolls)."""
    rows, cols = moves.shape(view)
    min_x, min_y, max_x, max_y = shown_region(view, kind)
    across, down = max_x - min_x + 1, max_y - min_y + 1
    wide_enough = across * (cols * CELL_WIDTH + 1) + 1 <= width
    if not ascii_only and wide_enough and down * (rows * 2 + 1) + 1 <= height:
        return "tall"
    return "normal"


def clamp(cursor: Slot | None, view: Frame, kind: str, choice: Choice) -> Slot:
    """The cursor kept on screen (it starts on a flagged slot, else beside a card)."""
    occupied = moves.board_cards(view)
    if cursor is None:
        cursor = moves.start_slot(occupied, moves.marks(view, kind, choice.card, choice.turned))
    min_x, min_y, max_x, max_y = shown_region(view, kind)
    return min(max(cursor[0], min_x), max_x), min(max(cursor[1], min_y), max_y)


def board_picture(
    view: Frame, kind: str, cursor: Slot, choice: Choice, preview: Cells | None, tile: Size
) -> BoardPicture:
    """The board as the view has it, with the cursor, the preview and the view's marks."""
    rows, cols = moves.shape(view)
    occupied = moves.board_cards(view)
    cards = tuple(
        BoardCard(slot[0], slot[1], read_cells(entry), owner_style(entry.get("owner")))
        for slot, entry in occupied.items()
    )
    last = view.get("last") if isinstance(view.get("last"), dict) else None
    last_slot = (last["x"], last["y"]) if last and isinstance(last.get("x"), int) else None
    flagged = moves.marks(view, kind, choice.card, choice.turned)
    return BoardPicture(
        rows,
        cols,
        cards,
        region=shown_region(view, kind),
        cursor=cursor,
        preview=None if cursor in occupied else preview,
        marks=tuple(sorted(flagged.items())),
        last=last_slot,
        cell_height=tile.height,
        cell_width=tile.width,
    )


def final_picture(view: Frame, tile: Size) -> BoardPicture | None:
    """The board as the game left it: every card, the last one placed outlined, no cursor.

    ``None`` when the view has no cards on its board.
    """
    occupied = moves.board_cards(view)
    if not occupied:
        return None
    rows, cols = moves.shape(view)
    xs, ys = [slot[0] for slot in occupied], [slot[1] for slot in occupied]
    cards = tuple(
        BoardCard(slot[0], slot[1], read_cells(entry), owner_style(entry.get("owner")))
        for slot, entry in occupied.items()
    )
    last = view.get("last") if isinstance(view.get("last"), dict) else None
    last_slot = (last["x"], last["y"]) if last and isinstance(last.get("x"), int) else None
    return BoardPicture(
        rows,
        cols,
        cards,
        region=(min(xs), min(ys), max(xs), max(ys)),
        last=last_slot,
        cell_height=tile.height,
        cell_width=tile.width,
        dots=False,
    )
