"""Scramble: your own board to arrange freely, then call Game!.

Enter places a hand card or picks up a board card to move it, ``r`` turns,
``t`` takes back, ``g`` calls "Game!", ``s`` says stuck.
"""

from __future__ import annotations

from typing import ClassVar

from partyhost.tui.gsm import moves
from partyhost.tui.gsm.screen import HEAD, TAIL, GsmScreen, choose_words
from partyhost.tui.gsm.text import scramble_feedback
from partyhost.tui.party import legal_of
from partyhost.tui.text import Frame
from rich.text import Text
from textual.binding import Binding, BindingType


class ScrambleScreen(GsmScreen):
    """Your own board: place, move, turn and take back freely, then call Game!."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *HEAD,
        Binding("enter", "confirm", "Place"),
        Binding("t", "take_back", "Take back"),
        Binding("backspace", "take_back", "Take back", show=False),
        Binding("g", "call_game", "Game!"),
        Binding("s", "stuck", "Stuck"),
        *TAIL,
    ]
    OFFERED: ClassVar[dict[str, str]] = {
        "call_game": "call_game",
        "stuck": "stuck",
        "take_back": "take_back",
    }
    # Game! stays off the footer until the grid is whole: room for Turn.
    HIDDEN: ClassVar[frozenset[str]] = frozenset({"call_game"})

    def rack_title(self) -> Text:
        """Once cards lie on your board, how to pick one up again."""
        if self.moving or not self.hand() or not moves.board_cards(self.view):
            return super().rack_title()
        count = len(self.hand())
        turn = ", r turns it" if moves.may_turn(self.view, self.PLACE) else ""
        return Text(
            f"{self.RACK_TITLE} ({count}): {choose_words(count)}{turn};"
            " Enter picks up a placed card"
        )

    def empty_rack(self) -> str:
        if legal_of(self.view, "call_game"):
            return "All your cards are on your board: press g to call Game!"
        return "No cards in hand."

    def feedback(self) -> Text:
        return scramble_feedback(self.view)

    def round_result(self) -> tuple[str, Text]:
        """Who called Game! rightly, and where the match stands."""
        last = self.view.get("last")
        if not isinstance(last, dict) or not last.get("valid"):
            return super().round_result()
        text = Text.assemble(
            self._who(last.get("seat")), " called Game! and every card fits: ", ("a win", "bold")
        )
        needed = self.view.get("wins_needed")
        text.append(f" (first to {needed} wins the match).\n\n" if needed else ".\n\n")
        for entry in self.view.get("scores", []):
            if isinstance(entry, dict):
                text.append_text(self._who(entry.get("seat")))
                text.append(f"  {entry.get('wins', 0)} won\n")
        text.append("\nFresh cards are dealt for the next game.", "dim")
        number = self.view.get("game_number")
        decided = number - 1 if isinstance(number, int) and number > 1 else number
        return f"Game {decided} is decided", text

    def sent(self, command: Frame) -> None:
        self._drop_selection()  # a moved card stays yours: do not keep carrying it
        super().sent(command)

    def confirm_without_card(self, here: Frame | None) -> None:
        card = self.card_here()
        if card is not None and moves.card_command(self.view, "take_back", card):
            self.selected, self.moving = card, True
            self.turned = bool(here.get("turned")) if here else False
            self.redraw()
        elif self.hand():
            self.notify("Choose a card first: press its number.", timeout=3)

    def action_turn(self) -> None:
        if self.selected is not None:
            super().action_turn()
        else:
            refusal = "Choose a card, or put the cursor on one of yours, to turn it."
            self.play_card("turn", self.card_here(), refusal)

    def action_take_back(self) -> None:
        card = self.selected if self.moving else self.card_here()
        refusal = "Put the cursor on one of your cards to take it back."
        if self.play_card("take_back", card, refusal):
            self._drop_selection()
            self.redraw()

    def action_call_game(self) -> None:
        self.play_simple("call_game", "Put all your cards on your board before calling Game!")

    def action_stuck(self) -> None:
        self.play_simple("stuck", "You already said you are stuck.")
