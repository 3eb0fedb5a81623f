"""A clear notice in place of a table too small to play on: "Turn your phone sideways".

The Game, Set, Match! boards need about 80x18 cells; a phone held upright gives
the browser door's client about 43x40. Rather than a squeezed board no finger
can use, the screen shows this notice (its footer stays, so Leave and Chat
still work) until the terminal is large enough again.
"""

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
