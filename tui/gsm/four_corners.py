"""Four Corners: two lines through the middle card, each player building at the ends of theirs.

Enter places at an open end of your line, ``t`` takes back an end card,
``s`` says stuck.
"""

from __future__ import annotations

from typing import ClassVar

from partyhost.tui.gsm import moves
from partyhost.tui.gsm.screen import HEAD, TAIL, GsmScreen
from partyhost.tui.party import legal_of
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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "take_back":
            return bool(legal_of(self.view, "take_back")) or None
        if action == "stuck":
            return bool(legal_of(self.view, "stuck")) or None
        return super().check_action(action, parameters)

    def action_take_back(self) -> None:
        here = moves.board_cards(self.view).get(self.cursor) if self.cursor else None
        card = here.get("card") if here else None
        command = (
            moves.card_command(self.view, "take_back", card) if isinstance(card, int) else None
        )
        if command is None:
            self.notify(
                "Put the cursor on your card at an end of your line to take it back.", timeout=3
            )
        else:
            self.party.play(command)

    def action_stuck(self) -> None:
        self.play_simple("stuck", "You already said you are stuck.")
