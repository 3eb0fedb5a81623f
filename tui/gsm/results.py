"""The end of a Game, Set, Match! game: the shared results screen with each game's standings.

The views of the four games keep their scores in ``scores`` (cards won, cards
left in hand, games won) rather than the points the generic results screen
lists, so this screen writes the standings itself and keeps everything else.
"""

from __future__ import annotations

from typing import Any

from partyhost.tui.screens.gsm_text import OVER_REASONS, TITLES
from partyhost.tui.screens.results import ResultsScreen
from partyhost.tui.widgets.bar import TitleBar
from rich.text import Text
from textual.widgets import Static

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

    def _show(self) -> None:
        view = self.party.view or {}
        title = TITLES.get(str(view.get("game")), "Game, Set, Match!")
        self.query_one("#title", TitleBar).set_parts(
            Text(f"room {self.party.room_code or ''}", "bold"), f"{title}: game over"
        )
        winners = [w for w in view.get("winners", []) if isinstance(w, int)]
        text = Text.assemble((f"{self.glyphs.trophy} ", "bold yellow"))
        if view.get("you") in winners and len(winners) == 1:
            text.append("You win!", "bold")
        elif winners:
            for number, seat in enumerate(winners):
                text.append(" and " if number else "")
                text.append_text(self._who(seat))
            text.append(" win!" if len(winners) > 1 else " wins!", "bold")
        else:
            text.append("The game is over.", "bold")
        over = next((e for e in reversed(self.party.events) if e.get("kind") == "game_over"), {})
        reason = OVER_REASONS.get(str(over.get("reason")), "")
        if reason and len(winners) == 1:
            text.append_text(Text.assemble("\n(", self._who(winners[0]), f" {reason})"))
        text.append("\n\nFinal standings\n", "bold underline")
        for rank, (seat, count) in enumerate(standings(view), start=1):
            text.append(f"{rank:>2}. ")
            text.append_text(self._who(seat))
            text.append(f"  {count}\n", "bold")
        room = self.party.room or {}
        if self.party.seat is not None and room.get("owner") == self.party.seat:
            text.append("\nPress s to play again, or Enter to go back to the lobby.", "dim")
        else:
            text.append("\nPress r if you are up for another game, Enter for the lobby.", "dim")
        self.query_one("#podium", Static).update(text)
