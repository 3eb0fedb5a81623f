"""Game, Set, Match! scores: one line per seat with its count and what it is doing.

The screen builds :class:`ScoreRow` entries from the view (cards won, cards in
hand, cards placed, a lockout, a line's axis...); this widget lays them out
with names that are always shown literally.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from partyhost.tui.shared.seats import seat_style
from partyhost.tui.text import Glyphs, clean, literal
from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.widget import Widget

Frame = dict[str, Any]
NameOf = Callable[[object], str]


@dataclass(frozen=True)
class ScoreRow:
    """A seat's line: a marker (turn, you), its count and short badges."""

    seat: int
    value: str
    marker: str = " "
    badges: tuple[tuple[str, str], ...] = ()
    left: bool = False
    you: bool = False


def score_rows(view: Frame, glyphs: Glyphs, ascii_only: bool) -> list[ScoreRow]:
    """The scoreboard for any of the four games, from its view."""
    game, you = view.get("game"), view.get("you")
    called = view.get("called", []) or []
    tiebreak = view.get("tiebreak")
    stuck = view.get("stuck", []) or []
    axes = {a.get("seat"): a.get("axis") for a in view.get("axes", []) if isinstance(a, dict)}
    winners = view.get("winners", []) or []
    rows = []
    for entry in view.get("scores", []):
        if not isinstance(entry, dict) or not isinstance(entry.get("seat"), int):
            continue
        seat = entry["seat"]
        badges: list[tuple[str, str]] = []
        marker = " "
        if game == "stealing-home":
            value = _plural(entry.get("cards"), "card")
            if entry.get("locked"):
                badges.append((f"{glyphs.lock}locked", "bold red"))
            if seat in called:
                badges.append(("Match!", "bold yellow"))
            if entry.get("voted"):
                badges.append(("no fit", "dim"))
            if isinstance(tiebreak, list) and seat in tiebreak:
                badges.append(("tiebreak", "yellow"))
        elif game == "scramble":
            placed, hand = int(entry.get("placed", 0)), int(entry.get("hand", 0))
            value = f"{placed}/{placed + hand} down"
            if int(view.get("wins_needed", 1)) > 1:
                badges.append((f"{glyphs.trophy}{entry.get('wins', 0)}", "yellow"))
        else:
            value = _plural(entry.get("hand"), "card")
            if game == "gridiron" and seat == view.get("turn"):
                marker = glyphs.you
            mark = axis_mark(axes.get(seat), ascii_only)
            if mark:
                badges.append((mark, "bold"))
        if seat in stuck:
            badges.append(("stuck", "dim"))
        if entry.get("away"):
            badges.append((glyphs.away + "away", "yellow"))
        if seat in winners:
            badges.append((glyphs.trophy, "bold yellow"))
        rows.append(
            ScoreRow(seat, value, marker, tuple(badges), bool(entry.get("left")), seat == you)
        )
    return rows


def with_presence(
    rows: Sequence[ScoreRow], badges: Mapping[int, tuple[str, str]], glyphs: Glyphs
) -> list[ScoreRow]:
    """The rows with a badge for each player who is not there (``○87s``, ``☾bot``, ``✗gone``),
    in place of the game's own "away" badge, which says less."""
    marked = []
    for row in rows:
        badge = badges.get(row.seat)
        if badge is None:
            marked.append(row)
            continue
        kept = tuple(b for b in row.badges if not b[0].startswith(glyphs.away))
        marked.append(replace(row, badges=(badge, *kept)))
    return marked


def axis_mark(axis: object, ascii_only: bool) -> str:
    """A Four Corners line's direction: left-right or up-down."""
    if axis == "h":
        return "<->" if ascii_only else "↔"
    if axis == "v":
        return "^v" if ascii_only else "↕"
    return ""


def _plural(number: object, word: str) -> str:
    value = int(number) if isinstance(number, int) else 0
    return f"{value} {word}{'' if value == 1 else 's'}"


class GsmScores(Widget):
    """The rows, names cut to fit the column."""

    DEFAULT_CSS = """
    GsmScores { height: auto; width: 1fr; padding: 0 1; }
    """

    def __init__(self, name_of: NameOf, ellipsis: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.name_of = name_of
        self.ellipsis = ellipsis if len(ellipsis) == 1 else "~"
        self.rows: tuple[ScoreRow, ...] = ()
        self._names: tuple[str, ...] = ()

    def show(self, rows: Sequence[ScoreRow]) -> None:
        rows = tuple(rows)
        names = tuple(self.name_of(row.seat) for row in rows)
        if (rows, names) != (self.rows, self._names):
            self.rows, self._names = rows, names
            self.refresh(layout=True)

    def render(self) -> Text:
        width = max(20, self.size.width or 30)
        name_width = max(6, min(14, width - 22))
        text = Text(no_wrap=True, overflow="ellipsis")
        for number, (row, raw) in enumerate(zip(self.rows, self._names, strict=True)):
            if number:
                text.append("\n")
            text.append(row.marker, "bold yellow")
            text.append(" ")
            name = clean(raw)
            if cell_len(name) > name_width:
                name = set_cell_size(name, name_width - 1) + self.ellipsis
            style = f"bold {seat_style(row.seat)}"
            style += " underline" if row.you else ""
            style += " strike dim" if row.left else ""
            text.append_text(literal(name, style))
            text.append(" " * (name_width - cell_len(name) + 1))
            text.append(f"{row.value:>8}", "bold")
            for badge, badge_style in row.badges:
                text.append(" ")
                text.append(badge, badge_style)
        return text
