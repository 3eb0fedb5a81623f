"""The board's logic, pure functions easy to test: the player's choice (card, slot, turn) turned
into a command a template in the view's ``legal`` list admits, so the client never sends what
the host did not offer; and what the board shows and how big it is drawn."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from partyhost.tui.gsm.boardview import BoardCard, BoardPicture
from partyhost.tui.gsm.cards import (
    LETTERED,
    RULED,
    ZOOMS,
    Box,
    Cells,
    Slot,
    card_size,
    read_cells,
    turn_cells,
)
from partyhost.tui.party import legal_of
from partyhost.tui.shared.seats import seat_style
from partyhost.tui.text import Frame


def template(view: Frame, kind: str) -> Frame | None:
    found = legal_of(view, kind)
    return found[0] if found else None


def simple(view: Frame, kind: str) -> Frame | None:
    """A command without arguments (``no_fit``, ``draw``...) exactly as the view lists it."""
    found = template(view, kind)
    return dict(found) if found else None


def may_turn(view: Frame, kind: str) -> bool:
    """Whether the place/match template lets cards lie turned."""
    found = template(view, kind)
    return found is not None and True in found.get("turned", [False])


NO_FIT = "That card does not fit there (the marked slots show where it does)."


def _refusal(entry: Frame | None, card: int, slot: Slot, turned: bool) -> str | None:
    """Why the template ``entry`` does not admit the placement, in words (``None``: it does)."""
    if entry is None:
        return "You cannot place a card right now."
    if card not in entry.get("cards", []):
        return "That card cannot be played now."
    if turned not in entry.get("turned", [False]):
        return "Cards may not be turned at this table."
    slots = entry.get("slots")
    if isinstance(slots, list) and [slot[0], slot[1]] not in [list(s) for s in slots]:
        return "Place it at an open end of your line (the marked slots)."
    fits = entry.get("fits")
    wanted = {"card": card, "x": slot[0], "y": slot[1], "turned": turned}
    return NO_FIT if isinstance(fits, list) and wanted not in fits else None


def placement(view: Frame, kind: str, card: int, slot: Slot, turned: bool) -> Frame | str:
    """``{type, card, x, y, turned}`` if a template of ``kind`` admits it, else why not in
    words (from the first template)."""
    for entry in legal_of(view, kind):
        if _refusal(entry, card, slot, turned) is None:
            return {"type": kind, "card": card, "x": slot[0], "y": slot[1], "turned": turned}
    return _refusal(template(view, kind), card, slot, turned) or NO_FIT


def card_command(view: Frame, kind: str, card: int) -> Frame | None:
    """``{type, card}`` for ``turn``/``take_back`` when the view lists that card."""
    entry = template(view, kind)
    if entry is None or card not in entry.get("cards", []):
        return None
    return {"type": kind, "card": card}


def marks(view: Frame, kind: str, card: int | None, turned: bool) -> dict[Slot, str]:
    """Slots to flag: ``fit`` (from hints), ``turn`` (fits once turned), ``open`` (slots)."""
    found: dict[Slot, str] = {}
    for entry in legal_of(view, kind):
        for fit in entry.get("fits", []) or []:
            if not isinstance(fit, dict) or (card is not None and fit.get("card") != card):
                continue
            slot = (int(fit.get("x", 0)), int(fit.get("y", 0)))
            if card is None or fit.get("turned") == turned:
                found[slot] = "fit"
            else:
                found.setdefault(slot, "turn")
        for open_slot in entry.get("slots", []) or []:
            if isinstance(open_slot, list | tuple) and len(open_slot) == 2:
                found.setdefault((int(open_slot[0]), int(open_slot[1])), "open")
    return found


def board_cards(view: Frame) -> dict[Slot, Frame]:
    """The view's board by slot."""
    found: dict[Slot, Frame] = {}
    for entry in view.get("board", []):
        if isinstance(entry, dict) and isinstance(entry.get("x"), int):
            found[(entry["x"], int(entry.get("y", 0)))] = entry
    return found


def shape(view: Frame) -> tuple[int, int]:
    """Cell rows and columns per card, from the view (never assumed)."""
    found = view.get("shape") if isinstance(view.get("shape"), dict) else None
    if found is None:
        return 2, 2
    return max(1, int(found.get("rows", 2))), max(1, int(found.get("cols", 2)))


def lying(entry: Frame, turned: bool) -> Cells:
    """A hand card's cells as it would lie (hand cards come unturned)."""
    cells = read_cells(entry)
    return turn_cells(cells) if turned else cells


def bounds(slots: Iterable[Slot]) -> Box:
    """The smallest box around ``slots`` (at least one)."""
    xs, ys = zip(*slots, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def region(cards: Iterable[Slot], flagged: Iterable[Slot] = ()) -> Box:
    """The slots worth showing: the cards with a ring of one slot, and any flagged slot."""
    left, top, right, bottom = bounds(list(cards) or [(0, 0)])
    return bounds([(left - 1, top - 1), (right + 1, bottom + 1), *flagged])


def start_slot(occupied: Iterable[Slot], flagged: Iterable[Slot]) -> Slot:
    """Where the cursor starts: a flagged slot, else an empty slot beside a card."""
    flagged = sorted(flagged, key=lambda s: (s[1], s[0]))
    if flagged:
        return flagged[0]
    taken = set(occupied)
    if not taken:
        return (0, 0)
    beside = sorted(
        {(x + dx, y + dy) for x, y in taken for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1))}
        - taken,
        key=lambda s: (abs(s[0]) + abs(s[1]), s[1], s[0]),
    )
    return beside[0]


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
        for entry in board_cards(view).values():
            if entry.get("card") == choice.card:
                return lying(entry, bool(entry.get("turned")) != choice.turned)
        return None
    for entry in hand:
        if entry.get("id") == choice.card:
            return lying(entry, choice.turned)
    return None


def shown_region(view: Frame, kind: str) -> Box:
    """The slots on screen: the cards, one slot around them, and any flagged slot (of every
    card, so choosing a card never shifts the board)."""
    return region(board_cards(view), marks(view, kind, None, False))


@dataclass(frozen=True)
class Space:
    """Room for the board: its width, and its height with each size of hand below it."""

    width: int
    height: int
    tall_height: int | None = None
    """The height left with a tall hand (``height`` when the hand does not grow)."""


def drawn_size(region: Box, shape: tuple[int, int], zoom: str, ascii_only: bool) -> tuple[int, int]:
    """(columns, lines) a board of ``region`` slots takes drawn in ``zoom``."""
    card_width, card_height = card_size(zoom, shape[0], shape[1], ascii_only)
    rule = 1 if zoom in RULED else 0
    across, down = region[2] - region[0] + 1, region[3] - region[1] + 1
    return across * (card_width + 1) + 1, down * (card_height + rule) + rule


def fitting_zoom(region: Box, shape: tuple[int, int], space: Space, ascii_only: bool) -> str:
    """The biggest drawing (see :data:`ZOOMS`) in which every slot of ``region`` fits
    ``space``; the smallest when none does (the board then scrolls)."""
    for zoom in ZOOMS:
        if zoom == "tall" and ascii_only:
            continue
        tall = zoom == "tall" and space.tall_height is not None
        height = space.tall_height if tall and space.tall_height is not None else space.height
        width, lines = drawn_size(region, shape, zoom, ascii_only)
        if width <= space.width and lines <= height:
            return zoom
    return ZOOMS[-1]


def best_zoom(view: Frame, kind: str, space: Space, ascii_only: bool) -> str:
    """The biggest drawing of the board in play that fits ``space``."""
    return fitting_zoom(shown_region(view, kind), shape(view), space, ascii_only)


def final_region(view: Frame) -> Box | None:
    """The slots of the cards on a finished board (no ring around them), or ``None``."""
    occupied = board_cards(view)
    return bounds(occupied) if occupied else None


BESIDE_GAP = 2
"""Columns between the standings and the board beside them."""


@dataclass(frozen=True)
class ResultsRoom:
    """Room for the final board on the results screen, in lines or columns."""

    width: int
    below: int
    beside: int
    first: int
    """Lines above the standings (the winners line stays over the board)."""
    standings: int
    """Columns the standings need beside the board."""
    spares: tuple[int, ...] = (0,)
    """Lines the page can give back, fewest first (its margins, then the board's title)."""
    title: int = 0


@dataclass(frozen=True)
class FinalFit:
    """Where the final board goes and how big it is drawn."""

    layout: str
    """``below``, ``beside`` or ``first`` (over the standings)."""
    zoom: str
    standings_width: int = 0
    """Beside: the columns left to the standings."""
    spare: int = 0
    """The lines of :attr:`ResultsRoom.spares` given back for the board."""


def final_fit(region: Box, shape: tuple[int, int], room: ResultsRoom, ascii_only: bool) -> FinalFit:
    """The layout and drawing that show the whole final board with the most letters (both,
    else the objects', else the color map); under or beside the standings before over them,
    the page's margins and title given up only when that brings letters back."""
    zooms = [zoom for zoom in ZOOMS if not (zoom == "tall" and ascii_only)]
    tiers = (LETTERED, frozenset(ZOOMS) - {"mini"}, frozenset(ZOOMS))
    for tier in tiers:
        for spare in room.spares:
            for layouts in (("below", "beside"), ("first",)):
                for zoom in (zoom for zoom in zooms if zoom in tier):
                    for layout in layouts:
                        fit = _fitting(region, shape, room, spare, layout, zoom, ascii_only)
                        if fit is not None:
                            return fit
    return FinalFit("first", ZOOMS[-1])


def _fitting(
    region: Box,
    shape: tuple[int, int],
    room: ResultsRoom,
    spare: int,
    layout: str,
    zoom: str,
    ascii_only: bool,
) -> FinalFit | None:
    """``layout`` with the board drawn in ``zoom``, if it fits ``room`` (plus ``spare`` lines)."""
    width, lines = drawn_size(region, shape, zoom, ascii_only)
    height = {"below": room.below, "beside": room.beside}.get(layout, room.first)
    left = room.width - max(width, room.title) - BESIDE_GAP
    if lines > height + spare:
        return None
    if layout == "beside":
        return FinalFit(layout, zoom, left, spare) if left >= room.standings else None
    return FinalFit(layout, zoom, spare=spare) if width <= room.width else None


def clamp(cursor: Slot | None, view: Frame, kind: str, choice: Choice) -> Slot:
    """The cursor kept on screen (it starts on a flagged slot, else beside a card)."""
    occupied = board_cards(view)
    if cursor is None:
        cursor = start_slot(occupied, marks(view, kind, choice.card, choice.turned))
    min_x, min_y, max_x, max_y = shown_region(view, kind)
    return min(max(cursor[0], min_x), max_x), min(max(cursor[1], min_y), max_y)


def _laid(view: Frame, region: Box, zoom: str, ascii_only: bool) -> BoardPicture:
    """The view's cards in ``region`` drawn in ``zoom``, the last one placed outlined."""
    rows, cols = shape(view)
    cards = tuple(
        BoardCard(slot[0], slot[1], read_cells(entry), owner_style(entry.get("owner")))
        for slot, entry in board_cards(view).items()
    )
    last = view.get("last") if isinstance(view.get("last"), dict) else None
    at = (last["x"], last["y"]) if last and isinstance(last.get("x"), int) else None
    return _zoomed(BoardPicture(rows, cols, cards, region=region, last=at), zoom, ascii_only)


def _zoomed(picture: BoardPicture, zoom: str, ascii_only: bool) -> BoardPicture:
    """``picture`` with its cards drawn in ``zoom``."""
    columns, lines = card_size(zoom, picture.rows, picture.cols, ascii_only)
    return replace(picture, card_columns=columns, card_lines=lines, ruled=zoom in RULED)


def board_picture(
    view: Frame,
    kind: str,
    cursor: Slot,
    choice: Choice,
    preview: Cells | None,
    zoom: str,
    ascii_only: bool,
) -> BoardPicture:
    """The board as the view has it, with the cursor, the preview and the view's marks."""
    flagged = marks(view, kind, choice.card, choice.turned)
    return replace(
        _laid(view, shown_region(view, kind), zoom, ascii_only),
        cursor=cursor,
        preview=None if cursor in board_cards(view) else preview,
        marks=tuple(sorted(flagged.items())),
    )


def final_picture(
    view: Frame, zoom: str, ascii_only: bool, *, dots: bool = False
) -> BoardPicture | None:
    """The board as the game left it (a replay's: with ``dots`` in its empty slots), no
    cursor; ``None`` when the view has no cards on its board."""
    region = final_region(view)
    if region is None:
        return None
    return replace(_laid(view, region, zoom, ascii_only), dots=dots)


def lens_picture(picture: BoardPicture, zoom: str) -> BoardPicture:
    """The cursor's slot and the eight around it, drawn in ``zoom`` (the letters a map of
    the whole board has no room for)."""
    x, y = picture.cursor or (0, 0)
    # The lens is drawn in a zoom whose size is the same with ``--ascii`` or without.
    return _zoomed(replace(picture, region=(x - 1, y - 1, x + 1, y + 1)), zoom, False)
