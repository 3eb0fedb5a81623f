"""Scores with progress toward the target, who is judging or still playing, and who is gone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from partyhost.tui.shared.seats import seat_markers, seat_style
from partyhost.tui.text import Glyphs, clean, literal, progress_bar
from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.widget import Widget

Frame = dict[str, Any]
NAME_WIDTH = 14


@dataclass(frozen=True)
class Standing:
    """Everything the scoreboard needs, taken from the view and the room."""

    players: tuple[Frame, ...]
    room: Frame
    you: int | None
    judge: int | None
    target: int
    submitted: frozenset[int]
    waiting: frozenset[int]
    winners: frozenset[int] = frozenset()
    presence: tuple[tuple[int, str, str], ...] = ()
    """(seat, badge, style) for each player who is not there: ``○87s``, ``☾bot``, ``✗gone``."""


class Scoreboard(Widget):
    """One line per seat (two with the cards won, when there is room)."""

    DEFAULT_CSS = """
    Scoreboard { height: auto; width: 1fr; }
    """

    def __init__(self, glyphs: Glyphs, *, detailed: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.glyphs = glyphs
        self.detailed = detailed
        self.standing: Standing | None = None

    def show(self, standing: Standing) -> None:
        if standing != self.standing:
            # One line (or two) per player: only a player more or fewer changes the height.
            rows_changed = self.standing is None or len(standing.players) != len(
                self.standing.players
            )
            self.standing = standing
            self.refresh(layout=rows_changed)

    def set_detailed(self, detailed: bool) -> None:
        if detailed != self.detailed:
            self.detailed = detailed
            self.refresh(layout=True)

    def render(self) -> Text:
        standing = self.standing
        if standing is None:
            return Text()
        width = max(24, self.size.width or 40)
        text = Text(no_wrap=True, overflow="crop")
        for player in standing.players:
            if text.plain:
                text.append("\n")
            text.append_text(self._line(player, standing, width))
            if self.detailed:
                text.append("\n")
                text.append_text(self._cards(player))
        return text

    def _status(self, seat: int, presence: str, standing: Standing) -> Text:
        glyphs = self.glyphs
        if seat in standing.winners:
            return Text(glyphs.trophy, "bold yellow")
        if presence == "left":
            return Text(glyphs.offline, "dim")
        if presence == "away":
            return Text(glyphs.away, "yellow")
        if seat == standing.judge:
            return Text(glyphs.judge, "bold magenta")
        if seat in standing.submitted:
            return Text(glyphs.submitted, "green")
        return Text(" ")

    def _line(self, player: Frame, standing: Standing, width: int) -> Text:
        seat = player.get("seat")
        score = int(player.get("score", 0))
        entry = next(
            (s for s in standing.room.get("seats", []) if s.get("seat") == seat),
            {"seat": seat, "name": f"seat {seat}"},
        )
        name = clean(entry.get("name", f"seat {seat}"))
        badge, badge_style = next(((b, s) for n, b, s in standing.presence if n == seat), ("", ""))
        name_width = min(NAME_WIDTH, max(6, width - 22))
        if badge:
            name_width = max(4, name_width - len(badge) - 1)
        cut = self.glyphs.ellipsis if len(self.glyphs.ellipsis) == 1 else "~"
        shown = name if cell_len(name) <= name_width else set_cell_size(name, name_width - 1) + cut
        left = player.get("presence") == "left"
        line = Text()
        line.append_text(
            self._status(seat, str(player.get("presence")), standing)
            if isinstance(seat, int)
            else Text(" ")
        )
        line.append(" ")
        line.append_text(seat_markers(entry, standing.room, self.glyphs))
        line.append(" ")
        name_style = f"bold {seat_style(seat)}" + (" strike dim" if left else "")
        if seat == standing.you:
            name_style += " underline"
        line.append_text(literal(shown, name_style))
        if badge:
            line.append(" ")
            line.append(badge, badge_style)
        line.append(" " * (name_width - cell_len(shown) + 1))
        line.append(f"{score:>5}", "bold")
        bar_width = width - line.cell_len - 2
        if bar_width >= 4 and standing.target > 0:
            line.append(" ")
            line.append(
                progress_bar(max(score, 0), standing.target, bar_width, self.glyphs),
                "green" if seat in standing.winners else seat_style(seat),
            )
        return line

    def _cards(self, player: Frame) -> Text:
        cards = [card for card in player.get("cards", []) if isinstance(card, dict)]
        line = Text("      ")
        if not cards:
            line.append("no Hot or Not cards yet", "dim italic")
            return line
        for number, card in enumerate(cards):
            if number:
                line.append(" ")
            points = int(card.get("points", 0))
            style = "red" if points < 0 else ("yellow" if card.get("booyah") else "dim")
            line.append(f"{self.glyphs.hot}{points}", style)
        return line
