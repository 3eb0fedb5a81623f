"""Turning what the player chose (card, slot, turn) into a command a template in the view's
``legal`` list admits, so the client never sends what the host did not offer."""

from __future__ import annotations

from collections.abc import Iterable

from partyhost.tui.gsm.cards import Cells, Slot, read_cells, turn_cells
from partyhost.tui.party import legal_of
from partyhost.tui.text import Frame


def template(view: Frame, kind: str) -> Frame | None:
    found = legal_of(view, kind)
    return found[0] if found else None


def simple(view: Frame, kind: str) -> Frame | None:
    """A command without arguments (``no_fit``, ``draw``...) exactly as the view lists it."""
    found = legal_of(view, kind)
    return dict(found[0]) if found else None


def may_turn(view: Frame, kind: str) -> bool:
    """Whether the place/match template lets cards lie turned."""
    found = template(view, kind)
    return found is not None and True in found.get("turned", [False])


def placement(view: Frame, kind: str, card: int, slot: Slot, turned: bool) -> Frame | None:
    """``{type, card, x, y, turned}`` if a template of ``kind`` admits it, else ``None``."""
    for entry in legal_of(view, kind):
        if card not in entry.get("cards", []) or turned not in entry.get("turned", [False]):
            continue
        slots = entry.get("slots")
        if isinstance(slots, list) and [slot[0], slot[1]] not in [list(s) for s in slots]:
            continue
        fits = entry.get("fits")
        wanted = {"card": card, "x": slot[0], "y": slot[1], "turned": turned}
        if isinstance(fits, list) and wanted not in fits:
            continue
        return {"type": kind, **wanted}
    return None


def why_not(view: Frame, kind: str, card: int, slot: Slot, turned: bool) -> str:
    """Why :func:`placement` said no, in words (from the template that refused)."""
    entry = template(view, kind)
    if entry is None:
        return "You cannot place a card right now."
    if card not in entry.get("cards", []):
        return "That card cannot be played now."
    if turned not in entry.get("turned", [False]):
        return "Cards may not be turned at this table."
    slots = entry.get("slots")
    if isinstance(slots, list) and [slot[0], slot[1]] not in [list(s) for s in slots]:
        return "Place it at an open end of your line (the marked slots)."
    return "That card does not fit there (the marked slots show where it does)."


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


def bounds(slots: Iterable[Slot]) -> tuple[int, int, int, int]:
    """The smallest box around ``slots`` (at least one): min x, min y, max x, max y."""
    xs, ys = zip(*slots, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def region(cards: Iterable[Slot], flagged: Iterable[Slot] = ()) -> tuple[int, int, int, int]:
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
