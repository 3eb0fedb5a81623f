"""The scoreboard every game shows: one line per seat, built by the game from its view;
more lines than rows stand in two columns of compact lines."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from partyhost.tui.shared.seats import seat_style
from partyhost.tui.text import Glyphs, clean, literal, progress_bar
from rich.cells import cell_len, set_cell_size
from rich.console import OverflowMethod
from rich.text import Text
from textual.widget import Widget

Badge = tuple[str, str]
"""A short word and its style, such as ``("☾away", "yellow")``."""


@dataclass(frozen=True)
class ScoreLine:
    """A seat's line, as the game wants it drawn."""

    seat: object
    name: str
    value: str
    mark: Text
    """The status in front: a turn or judge glyph, a trophy, or a blank."""
    left: bool = False
    you: bool = False
    seat_marks: Text | None = None
    """Owner/bot markers between the status and the name."""
    name_badge: Badge | None = None
    """Right after the name (the name gives up room for it)."""
    badges: tuple[Badge, ...] = ()
    """After the score."""
    bar: tuple[int, int, str] | None = None
    """(score, target, style) for a bar in the room left on the line."""
    below: Text | None = None
    """A second line, shown only when the board is ``detailed``."""

    def short_value(self) -> str:
        """The score without its unit ("5" for "5 cards"), for two columns."""
        return self.value.split(" ", 1)[0]


class Scoreboard(Widget):
    """The lines, names cut to the column and scores right-aligned in ``value_width``."""

    DEFAULT_CSS = """
    Scoreboard { height: auto; width: 1fr; }
    """

    def __init__(
        self,
        glyphs: Glyphs,
        *,
        value_width: int,
        widths: tuple[int, int] = (24, 40),
        overflow: OverflowMethod = "crop",
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.glyphs = glyphs
        self.value_width = value_width
        self.widths = widths
        """The narrowest width the lines are laid out for, and the width before layout."""
        self.overflow = overflow
        self.detailed = False
        self.columns = 1
        self.lines: tuple[ScoreLine, ...] = ()

    def show(
        self, lines: Sequence[ScoreLine], *, detailed: bool = False, rows: int | None = None
    ) -> None:
        """Draw ``lines``; more of them than ``rows`` stand in two columns."""
        lines = tuple(lines)
        columns = 2 if rows is not None and len(lines) > max(rows, 1) else 1
        if (lines, detailed, columns) != (self.lines, self.detailed, self.columns):
            # One line (or two, detailed) per player: only a player more or fewer, or the
            # other layout, changes the height; a new score redraws without a layout.
            was = (len(self.lines), self.detailed, self.columns)
            resized = (len(lines), detailed, columns) != was
            self.lines, self.detailed, self.columns = lines, detailed, columns
            self.refresh(layout=resized)

    def render(self) -> Text:
        narrowest, unlaid = self.widths
        width = max(narrowest, self.size.width or unlaid)
        if self.columns == 2:
            return self._two_columns(self.size.width or unlaid)
        text = Text(no_wrap=True, overflow=self.overflow)
        for number, line in enumerate(self.lines):
            if number:
                text.append("\n")
            text.append_text(self._line(line, width))
            if self.detailed and line.below is not None:
                text.append("\n")
                text.append_text(line.below)
        return text

    def _two_columns(self, width: int) -> Text:
        """Half the lines on the left, the rest on the right, each cut to its column."""
        column = (width - 1) // 2
        down = -(-len(self.lines) // 2)
        text = Text(no_wrap=True, overflow="crop")
        for row in range(down):
            if row:
                text.append("\n")
            left = self._compact(self.lines[row], column)
            text.append_text(left)
            if row + down < len(self.lines):
                text.append(" " * (column - left.cell_len + 1))
                text.append_text(self._compact(self.lines[row + down], column))
        return text

    def _fitted_name(self, line: ScoreLine, width: int) -> Text:
        """The seat's name in at most ``width`` cells, styled for its seat (you, left)."""
        ellipsis = self.glyphs.ellipsis if len(self.glyphs.ellipsis) == 1 else "~"
        name = clean(line.name)
        if cell_len(name) > width:
            name = set_cell_size(name, width - 1) + ellipsis
        style = f"bold {seat_style(line.seat)}"
        style += " underline" if line.you else ""
        style += " strike dim" if line.left else ""
        return literal(name, style)

    def _compact(self, line: ScoreLine, width: int) -> Text:
        """Mark, name, bare score and short badges in ``width`` cells."""
        value = line.short_value()
        tail = Text()
        for badge_text, style in line.badges:
            tail.append(" " if not tail else "")
            tail.append(badge_text[:1], style)
        name_width = max(3, width - 2 - len(value) - 1 - tail.cell_len)
        name = self._fitted_name(line, name_width)
        gap = " " * (name_width - name.cell_len + 1)
        text = Text.assemble(line.mark, " ", name, gap, (value, "bold"), tail)
        text.truncate(width)
        return text

    def _aligned_value(self, value: str) -> str:
        """``value`` in ``value_width`` cells, its leading number lined up with the others'
        (``0 cards`` above `` 1 card `` above ``12 cards``), not the word after it."""
        number, space, word = value.partition(" ")
        if not number.lstrip("-").isdigit() or not space:
            return f"{value:>{self.value_width}}"
        widest = max(
            (len(line.value.partition(" ")[2]) for line in self.lines if " " in line.value),
            default=len(word),
        )
        return f"{number} {word:<{widest}}".rjust(self.value_width)

    def _line(self, line: ScoreLine, width: int) -> Text:
        name_width = max(6, min(14, width - 22))
        if line.name_badge:
            name_width = max(4, name_width - len(line.name_badge[0]) - 1)
        name = self._fitted_name(line, name_width)
        text = Text.assemble(line.mark, " ")
        if line.seat_marks is not None:
            text.append_text(Text.assemble(line.seat_marks, " "))
        text.append_text(name)
        if line.name_badge:
            text.append_text(Text.assemble(" ", line.name_badge))
        text.append(" " * (name_width - name.cell_len + 1))
        text.append(self._aligned_value(line.value), "bold")
        for badge in line.badges:
            text.append(" ")
            text.append(*badge)
        bar_width = width - text.cell_len - 2
        if line.bar is not None and bar_width >= 4 and line.bar[1] > 0:
            score, target, bar_style = line.bar
            text.append(" ")
            text.append(progress_bar(max(score, 0), target, bar_width, self.glyphs), bar_style)
        return text
