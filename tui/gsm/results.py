"""The end of a Game, Set, Match! game: each game's standings, then the final board.

The views of the four games keep their scores in ``scores`` (cards won, cards
left in hand, games won) rather than points, so this screen writes the
standings and the reason the game ended, and draws the board as the game
left it (scrolling sideways when it is wider than the screen); the rest is
the shared screen.
"""

from __future__ import annotations

from partyhost.tui.gsm.boardview import BoardView
from partyhost.tui.gsm.cards import CELL_WIDTH, Legend, Painter
from partyhost.tui.gsm.picture import final_picture
from partyhost.tui.gsm.text import OVER_REASONS, TIED_REASONS, TITLES
from partyhost.tui.shared.results import ResultsScreen
from partyhost.tui.text import Frame, counted, names
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import ScrollableContainer
from textual.geometry import Size
from textual.widgets import Static


def standings(view: Frame) -> list[tuple[int, str]]:
    """(seat, what they have) from best to worst, as the game counts it."""
    game = view.get("game")
    rows = [s for s in view.get("scores", []) if isinstance(s, dict) and "seat" in s]

    if game == "stealing-home":
        rows.sort(key=lambda s: -int(s.get("cards", 0)))
        return [(s["seat"], counted(s.get("cards"), "card") + " won") for s in rows]
    if game == "scramble":
        rows.sort(key=lambda s: (-int(s.get("wins", 0)), -int(s.get("placed", 0))))
        return [(s["seat"], counted(s.get("wins"), "game") + " won") for s in rows]
    rows.sort(key=lambda s: int(s.get("hand", 0)))
    return [(s["seat"], counted(s.get("hand"), "card") + " left") for s in rows]


class GsmResultsScreen(ResultsScreen):
    """Winners, why the game ended, every seat's final count and the final board."""

    DEFAULT_CSS = """
    GsmResultsScreen #final-board-scroll {
        height: auto; width: 1fr; overflow-x: auto; overflow-y: hidden; scrollbar-size: 1 1;
    }
    GsmResultsScreen #final-title { margin-top: 1; }
    """

    def body(self) -> ComposeResult:
        yield from super().body()
        yield Static("The final board", classes="section-title", id="final-title")
        with ScrollableContainer(id="final-board-scroll", can_focus=False):
            yield BoardView(self._painter(), id="final-board")

    def _painter(self) -> Painter:
        legend = Legend.from_view(self.party.view or {})
        native = self.app.native_ansi_color
        return Painter(legend, ascii_only=self.party.ascii_only, initials=True, native=native)

    def show_result(self, view: Frame) -> None:
        super().show_result(view)
        picture = final_picture(view, Size(CELL_WIDTH, 1))
        title = self.query_one("#final-title", Static)
        title.update("Your board" if view.get("game") == "scramble" else "The final board")
        for part in (title, self.query_one("#final-board-scroll")):
            part.display = picture is not None
        if picture is not None:
            self.query_one("#final-board", BoardView).show(picture, self._painter())

    def heading(self, view: Frame) -> str:
        return f"{TITLES.get(str(view.get('game')), 'Game, Set, Match!')}: game over"

    def ending(self, view: Frame, winners: list[int]) -> Text:
        over = next((e for e in reversed(self.party.events) if e.get("kind") == "game_over"), {})
        kind = str(over.get("reason"))
        reason = OVER_REASONS.get(kind, "")
        if reason and len(winners) == 1:
            return Text.assemble("\n(", self._who(winners[0]), f" {reason})")
        tied = TIED_REASONS.get(kind, "")
        if tied and len(winners) > 1:
            return Text.assemble("\n(", names(winners, self._who), f" {tied})")
        return Text()

    def standings(self, view: Frame) -> Text:
        text = Text()
        text.append("\n\nFinal standings\n", "bold underline")
        for rank, (seat, count) in enumerate(standings(view), start=1):
            text.append(f"{rank:>2}. ")
            text.append_text(self._who(seat))
            text.append(f"  {count}\n", "bold")
        return text
