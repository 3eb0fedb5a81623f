"""A notice in place of a table too small to play on (a Game, Set, Match! board on a phone
held upright): "Turn your phone sideways"; the footer stays."""

from __future__ import annotations

from textual.geometry import Size
from textual.widgets import Static

NEEDED = Size(80, 18)
"""The smallest terminal a Game, Set, Match! table is drawn in."""


def fits(size: Size, needed: Size = NEEDED) -> bool:
    return size.width >= needed.width and size.height >= needed.height


class SidewaysNotice(Static):
    """Shown by a screen in place of its table while the terminal is too small for it."""

    DEFAULT_CSS = """
    SidewaysNotice {
        height: 1fr;
        width: 1fr;
        content-align: center middle;
        text-align: center;
        text-style: bold;
        padding: 1 2;
    }
    """

    def __init__(self, needed: Size = NEEDED, *, id: str | None = None) -> None:
        super().__init__(
            "Turn your phone sideways\n\n"
            f"This game needs a screen at least {needed.width} columns wide "
            f"and {needed.height} rows high.",
            id=id,
        )
        self.needed = needed
