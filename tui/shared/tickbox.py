"""A checkbox that reads without colour: ``[x]`` when ticked, ``[ ]`` when not.

Textual's compact checkbox draws the same ``▐X▌`` either way and shows the
state only by its colour, which a 16-colour theme or a colour-blind eye may
not tell apart.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Checkbox


class TickBox(Checkbox):
    """A :class:`Checkbox` whose box shows its state as a mark."""

    BUTTON_LEFT = "["
    BUTTON_RIGHT = "]"

    @property
    def _button(self) -> Content:
        mark = "x" if self.value else " "
        return Content.assemble(
            self.BUTTON_LEFT, (mark, self.get_visual_style("toggle--button")), self.BUTTON_RIGHT
        )
