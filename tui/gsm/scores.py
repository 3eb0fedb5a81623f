"""Game, Set, Match! scores: one line per seat with its count and what it is doing
(cards won, cards in hand, cards placed, a lockout, a line's axis...)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from partyhost.tui.shared.scoreboard import Badge, ScoreLine
from partyhost.tui.text import Frame, Glyphs, counted
from rich.text import Text

NameOf = Callable[[object], str]


def score_rows(
    view: Frame, name_of: NameOf, glyphs: Glyphs, ascii_only: bool, presence: Mapping[int, Badge]
) -> list[ScoreLine]:
    """The scoreboard for any of the four games, from its view; a badge first for each player
    who is not there (``○87s``, ``☾bot``, ``✗gone``), in place of the game's "away", which
    says less."""
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
            value = counted(entry.get("cards"), "card")
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
            value = counted(entry.get("hand"), "card")
            if game == "gridiron" and seat == view.get("turn"):
                marker = glyphs.you
            mark = axis_mark(axes.get(seat), ascii_only)
            if mark:
                badges.append((mark, "bold"))
        if seat in stuck:
            badges.append(("stuck", "dim"))
        if entry.get("away") and seat not in presence:
            badges.append((glyphs.away + "away", "yellow"))
        if seat in winners:
            badges.append((glyphs.trophy, "bold yellow"))
        if seat in presence:
            badges.insert(0, presence[seat])
        rows.append(
            ScoreLine(
                seat,
                name_of(seat),
                value,
                Text(marker, "bold yellow"),
                left=bool(entry.get("left")),
                you=seat == you,
                badges=tuple(badges),
            )
        )
    return rows


def axis_mark(axis: object, ascii_only: bool) -> str:
    """A Four Corners line's direction: left-right or up-down."""
    if axis == "h":
        return "<->" if ascii_only else "↔"
    if axis == "v":
        return "^v" if ascii_only else "↕"
    return ""
