"""The four Game, Set, Match! screens: each game's own keys on the shared table.

- Stealing Home: ``m``/Enter calls "Match!" with the chosen face-up card at
  the cursor (claim and placement are one command), ``n`` votes "no fit".
- Scramble: a private board to arrange freely: Enter places a hand card or
  picks up a board card to move it, ``r`` turns, ``t`` takes back, ``g``
  calls "Game!", ``s`` says stuck.
- Gridiron: Enter places on your turn; ``d`` draws and ``p`` passes when the
  host offers them (nothing fits).
- Four Corners: Enter places at an open end of your line, ``t`` takes back
  an end card, ``s`` says stuck.
"""

from __future__ import annotations

from typing import ClassVar

from partyhost.tui.screens import gsm_moves as moves
from partyhost.tui.screens.base import PartyScreen
from partyhost.tui.screens.gsm import Frame, GsmScreen
from partyhost.tui.screens.gsm_text import claim_feedback, scramble_feedback
from partyhost.tui.viewdata import legal_of
from rich.text import Text
from textual.binding import Binding, BindingType

CHOOSE = Binding.Group("Choose")
MOVE = Binding.Group("Move")
STEPS = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}
VIM = {"left": "h", "right": "l", "up": "k", "down": "j"}
HEAD: list[BindingType] = [
    *(
        Binding(str(n % 10), f"choose({n})", "Card", key_display="1-9", show=n == 1, group=CHOOSE)
        for n in range(1, 11)
    ),
    *(
        Binding(
            f"{way},{VIM[way]}",
            f"move({dx},{dy})",
            "Move",
            key_display="hjkl",
            show=way == "left",
            group=MOVE,
        )
        for way, (dx, dy) in STEPS.items()
    ),
    Binding("r", "turn", "Turn"),
]
TAIL: list[BindingType] = [
    Binding("i", "initials", "Color letters", show=False),
    Binding("c", "chat", "Chat"),
    Binding("escape", "leave", "Leave"),
]


CLAIM_SHOWN = 2.0
"""Seconds "Match! sent" shows when no new view answers the claim."""


class StealingHomeScreen(GsmScreen):
    """Race to place one of the two face-up cards; the first right claim wins it."""

    PLACE = "match"
    RACK_TITLE = "Face-up cards"
    BINDINGS: ClassVar[list[BindingType]] = [
        *HEAD,
        Binding("m", "confirm", "Match!"),
        Binding("enter", "confirm", "Match!", show=False),
        Binding("n", "no_fit", "No fit"),
        *TAIL,
    ]

    def hand(self) -> list[Frame]:
        return [c for c in self.view.get("face_up", []) if isinstance(c, dict)]

    def empty_rack(self) -> str:
        return "No cards are face up right now."

    def feedback(self) -> Text:
        return claim_feedback(self.view, self.party.events, self._who, self.claim_sent)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "no_fit":
            return bool(legal_of(self.view, "no_fit")) or None
        if action == "confirm":
            return bool(legal_of(self.view, "match")) or None
        return super().check_action(action, parameters)

    def why_not(self) -> str:
        if not legal_of(self.view, "match"):
            return self._cannot_claim()
        return super().why_not()

    def _cannot_claim(self) -> str:
        scores = {s.get("seat"): s for s in self.view.get("scores", []) if isinstance(s, dict)}
        if scores.get(self.view.get("you"), {}).get("locked"):
            return "You are locked out until the next round."
        if self.view.get("you") in self.view.get("called", []):
            return "Your Match! is being checked."
        return "You cannot claim right now."

    def confirm_without_card(self, here: Frame | None) -> None:
        if legal_of(self.view, "match"):
            self.notify("Choose a face-up card first: 1 or 2.", timeout=3)
        else:
            self.notify(self._cannot_claim(), timeout=3)

    def sent(self, command: Frame) -> None:
        self.claim_sent = True
        super().sent(command)
        self.set_timer(CLAIM_SHOWN, self._claim_answered)

    def _claim_answered(self) -> None:
        """No view came back (the host refused the claim and said why): stop saying "sent"."""
        if self.claim_sent:
            self.claim_sent = False
            self.redraw()

    def action_no_fit(self) -> None:
        self.play_simple("no_fit", "You cannot vote no fit right now.")


class ScrambleScreen(GsmScreen):
    """Your own board: place, move, turn and take back freely, then call Game!."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *HEAD,
        Binding("enter", "confirm", "Place/pick up"),
        Binding("t", "take_back", "Take back"),
        Binding("backspace", "take_back", "Take back", show=False),
        Binding("g", "call_game", "Game!"),
        Binding("s", "stuck", "Stuck"),
        *TAIL,
    ]

    def empty_rack(self) -> str:
        if legal_of(self.view, "call_game"):
            return "All your cards are on your board: press g to call Game!"
        return "No cards in hand."

    def feedback(self) -> Text:
        return scramble_feedback(self.view)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "call_game":
            return bool(legal_of(self.view, "call_game")) or None
        if action == "stuck":
            return bool(legal_of(self.view, "stuck")) or None
        if action == "take_back":
            return bool(legal_of(self.view, "take_back")) or None
        if action == "turn":
            return bool(moves.may_turn(self.view, "place")) or None
        return super().check_action(action, parameters)

    def _card_here(self) -> int | None:
        here = moves.board_cards(self.view).get(self.cursor) if self.cursor else None
        card = here.get("card") if here else None
        return card if isinstance(card, int) else None

    def sent(self, command: Frame) -> None:
        self._drop_selection()  # a moved card stays yours: do not keep carrying it
        super().sent(command)

    def confirm_without_card(self, here: Frame | None) -> None:
        card = self._card_here()
        if card is not None and moves.card_command(self.view, "take_back", card):
            self.selected, self.moving = card, True
            self.turned = bool(here.get("turned")) if here else False
            self.redraw()
        elif self.hand():
            self.notify("Choose a card first: press its number.", timeout=3)

    def action_turn(self) -> None:
        if self.selected is not None:
            super().action_turn()
            return
        card = self._card_here()
        command = moves.card_command(self.view, "turn", card) if card is not None else None
        if command is None:
            self.notify("Choose a card, or put the cursor on one of yours, to turn it.", timeout=3)
        else:
            self.party.play(command)

    def action_take_back(self) -> None:
        card = self.selected if self.moving else self._card_here()
        command = moves.card_command(self.view, "take_back", card) if card is not None else None
        if command is None:
            self.notify("Put the cursor on one of your cards to take it back.", timeout=3)
        elif self.party.play(command):
            self._drop_selection()
            self.redraw()

    def action_call_game(self) -> None:
        self.play_simple("call_game", "Put all your cards on your board before calling Game!")

    def action_stuck(self) -> None:
        self.play_simple("stuck", "You already said you are stuck.")


class GridironScreen(GsmScreen):
    """Turns: place a card; draw (or pass) only when the host says nothing fits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *HEAD,
        Binding("enter", "confirm", "Place"),
        Binding("d", "draw", "Draw"),
        Binding("p", "pass_turn", "Pass"),
        *TAIL,
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "draw":
            return bool(legal_of(self.view, "draw"))
        if action == "pass_turn":
            return bool(legal_of(self.view, "pass"))
        if action == "confirm":
            return bool(legal_of(self.view, "place")) or None
        return super().check_action(action, parameters)

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


SCREENS: dict[str, type[GsmScreen]] = {
    "stealing-home": StealingHomeScreen,
    "scramble": ScrambleScreen,
    "gridiron": GridironScreen,
    "four-corners": FourCornersScreen,
}


def gsm_screen(game: str, kind: str = "game") -> PartyScreen:
    """A fresh table (``kind`` "game") or results screen for one of the four games."""
    if kind == "results":
        from partyhost.tui.screens.gsm_results import GsmResultsScreen

        return GsmResultsScreen()
    return SCREENS[game]()
