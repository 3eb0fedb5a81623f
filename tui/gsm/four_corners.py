"""Four Corners: two lines through the middle card, each player building at the ends of theirs.

Enter places at an open end of your line, ``t`` takes back an end card,
``s`` says stuck.
"""

from __future__ import annotations

from typing import ClassVar

from partyhost.tui.gsm.screen import HEAD, TAIL, GsmScreen
from textual.binding import Binding, BindingType


class FourCornersScreen(GsmScreen):
    """Two lines through the middle card; each player builds only at the ends of their own."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *HEAD,
        Binding("enter", "confirm", "Place"),
        Binding("t", "take_back", "Take back"),
        Binding("backspace", "take_back", "Take back", show=False),
        Binding("s", "stuck", "Stuck"),
        *TAIL,
    ]
    OFFERED: ClassVar[dict[str, str]] = {"take_back": "take_back", "stuck": "stuck"}

    def action_take_back(self) -> None:
        self.play_card(
            "take_back",
            self.card_here(),
            "Put the cursor on your card at an end of your line to take it back.",
        )

    def action_stuck(self) -> None:
        self.play_simple("stuck", "You already said you are stuck.")
