"""The end of a Game, Set, Match! game: the shared results screen with each game's standings.

The views of the four games keep their scores in ``scores`` (cards won, cards
left in hand, games won) rather than points, so this screen writes the
standings and the reason the game ended; the rest is the shared screen.
"""

from __future__ import annotations

from typing import Any

from partyhost.tui.gsm.text import OVER_REASONS, TITLES
from partyhost.tui.shared.results import ResultsScreen
from rich.text import Text

Frame = dict[str, Any]


def standings(view: Frame) -> list[tuple[int, str]]:
    """(seat, what they have) from best to worst, as the game counts it."""
    game = view.get("game")
    rows = [s for s in view.get("scores", []) if isinstance(s, dict) and "seat" in s]

    def plural(number: object, word: str) -> str:
        value = int(number) if isinstance(number, int) else 0
        return f"{value} {word}{'' if value == 1 else 's'}"

    if game == "stealing-home":
        rows.sort(key=lambda s: -int(s.get("cards", 0)))
        return [(s["seat"], plural(s.get("cards"), "card") + " won") for s in rows]
    if game == "scramble":
        rows.sort(key=lambda s: (-int(s.get("wins", 0)), -int(s.get("placed", 0))))
        return [(s["seat"], plural(s.get("wins"), "game") + " won") for s in rows]
    rows.sort(key=lambda s: int(s.get("hand", 0)))
    return [(s["seat"], plural(s.get("hand"), "card") + " left") for s in rows]


class GsmResultsScreen(ResultsScreen):
    """Winners, why the game ended, and every seat's final count."""

    def heading(self, view: Frame) -> str:
        return f"{TITLES.get(str(view.get('game')), 'Game, Set, Match!')}: game over"

    def ending(self, view: Frame, winners: list[int]) -> Text:
        over = next((e for e in reversed(self.party.events) if e.get("kind") == "game_over"), {})
        reason = OVER_REASONS.get(str(over.get("reason")), "")
        if reason and len(winners) == 1:
            return Text.assemble("\n(", self._who(winners[0]), f" {reason})")
        return Text()

    def standings(self, view: Frame) -> Text:
        text = Text()
        text.append("\n\nFinal standings\n", "bold underline")
        for rank, (seat, count) in enumerate(standings(view), start=1):
            text.append(f"{rank:>2}. ")
            text.append_text(self._who(seat))
            text.append(f"  {count}\n", "bold")
        return text
