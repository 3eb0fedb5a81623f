"""Gridiron: take turns placing a card; draw or pass only when the host offers it.

Enter places on your turn; ``d`` draws and ``p`` passes when nothing fits (and
then Enter does too: it is the only move there is).
"""

from __future__ import annotations

from typing import ClassVar

from partyhost.tui.gsm.screen import HEAD, TAIL, GsmScreen
from partyhost.tui.party import legal_of
from partyhost.tui.text import Frame
from textual.binding import Binding, BindingType


class GridironScreen(GsmScreen):
    """Turns: place a card; draw (or pass) only when the host says nothing fits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *HEAD,
        Binding("enter", "confirm", "Place"),
        Binding("d", "draw", "Draw"),
        Binding("p", "pass_turn", "Pass"),
        Binding("enter", "draw", "Draw", show=False),
        Binding("enter", "pass_turn", "Pass", show=False),
        *TAIL,
    ]
    OFFERED: ClassVar[dict[str, str]] = {"draw": "draw", "pass_turn": "pass", "confirm": "place"}
    HIDDEN: ClassVar[frozenset[str]] = frozenset({"draw", "pass_turn"})

    def why_not(self) -> str:
        return self._not_now() or super().why_not()

    def confirm_without_card(self, here: Frame | None) -> None:
        self.notify(self._not_now() or "Choose a card first: press its number.", timeout=3)

    def _not_now(self) -> str:
        """Why no card may be placed now ("" when one may)."""
        if legal_of(self.view, "draw") or legal_of(self.view, "pass"):
            return "None of your cards fits: draw (d) or pass (p)."
        if not legal_of(self.view, "place"):
            return f"It is {self._name_of(self.view.get('turn'))}'s turn."
        return ""

    def action_draw(self) -> None:
        self.play_simple("draw", "You may draw only when none of your cards fits.")

    def action_pass_turn(self) -> None:
        self.play_simple("pass", "You may pass only when nothing fits and the pile is empty.")
