"""The end of The T-Shirt Game: the shared results screen with points and the cards won."""

from __future__ import annotations

from typing import Any

from partyhost.tui.shared.results import ResultsScreen
from rich.text import Text

Frame = dict[str, Any]
END_REASONS = {
    "target": "reached the target",
    "hot_or_not_empty": "the Hot or Not deck ran out: highest score wins",
}


class TShirtResultsScreen(ResultsScreen):
    """Final scores with the points of every Hot or Not card each player won."""

    def ending(self, view: Frame, winners: list[int]) -> Text:
        reason = END_REASONS.get(str(view.get("end_reason")), "")
        return Text(f"\n({reason})", "dim") if reason else Text()

    def player_note(self, player: Frame) -> Text:
        cards = [str(c.get("points")) for c in player.get("cards", []) if isinstance(c, dict)]
        return Text(f"  ({', '.join(cards)})", "dim") if cards else Text()
