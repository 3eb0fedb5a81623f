"""Stealing Home: race to place one of the two face-up cards.

``m``/Enter calls "Match!" with the chosen face-up card at the cursor (claim
and placement are one command), ``n`` votes "no fit". The board, hand and
scores are the shared Game, Set, Match! table (:mod:`.screen`).
"""

from __future__ import annotations

from typing import ClassVar

from partyhost.tui.gsm.screen import HEAD, TAIL, GsmScreen
from partyhost.tui.gsm.text import claim_feedback, round_result_text
from partyhost.tui.party import legal_of
from partyhost.tui.text import Frame
from rich.text import Text
from textual.binding import Binding, BindingType

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
    OFFERED: ClassVar[dict[str, str]] = {"no_fit": "no_fit", "confirm": "match"}

    def hand(self) -> list[Frame]:
        return [c for c in self.view.get("face_up", []) if isinstance(c, dict)]

    def empty_rack(self) -> str:
        return "No cards are face up right now."

    def feedback(self) -> Text:
        return claim_feedback(self.view, self.party.events, self._who, self.claim_sent)

    def round_result(self) -> tuple[str, Text]:
        """Who matched (the card is outlined on the board), a tie, or no fit and why."""
        return "The round's result", round_result_text(self.view, self._who)

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
        if self.stray_key():
            return  # Enter meant for a result that had just closed by itself
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
