"""The end of a Game, Set, Match! game: each game's standings, then the final board.

The views of the four games keep their scores in ``scores`` (cards won, cards
left in hand, games won) rather than points, so this screen writes the
standings and the reason the game ended, and draws the board as the game
left it, its cards as big as lets the whole board show at once (below the
standings when it fits there, else in one screenful); the rest is the shared
screen.
"""

from __future__ import annotations

from partyhost.tui.gsm.boardview import BoardView
from partyhost.tui.gsm.cards import Legend, Painter
from partyhost.tui.gsm.moves import shape
from partyhost.tui.gsm.picture import Space, drawn_size, final_picture, final_region, fitting_zoom
from partyhost.tui.gsm.text import OVER_REASONS, TIED_REASONS, TITLES
from partyhost.tui.shared.results import ResultsScreen
from partyhost.tui.text import Frame, counted, names
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Center, ScrollableContainer, VerticalScroll
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
    ABOVE_BOARD = 2
    """Lines the board's title takes (with its margin)."""

    def __init__(self) -> None:
        super().__init__()
        self.zoom = "normal"

    def body(self) -> ComposeResult:
        yield from super().body()
        yield Static("The final board", classes="section-title", id="final-title")
        with ScrollableContainer(id="final-board-scroll", can_focus=False):
            yield BoardView(self._painter(), id="final-board")

    def _painter(self) -> Painter:
        legend = Legend.from_view(self.party.view or {})
        native = self.app.native_ansi_color
        return Painter(
            legend,
            ascii_only=self.party.ascii_only,
            initials=True,
            native=native,
            zoom=self.zoom,
        )

    def show_result(self, view: Frame) -> None:
        super().show_result(view)
        title = self.query_one("#final-title", Static)
        title.update("Your board" if view.get("game") == "scramble" else "The final board")
        self._show_board(view)
        self.call_after_refresh(self._show_board, view)

    def on_resize(self) -> None:
        self.call_after_refresh(self._show_board, self.party.view or {})

    def _show_board(self, view: Frame) -> None:
        """The final board, its cards as big as lets it show whole."""
        if not self.is_mounted or not self.query("#results"):
            return  # queued before the screen was taken down (Play again): nothing to fit
        self.zoom = self._fitting_zoom(view)
        picture = final_picture(view, self.zoom, self.party.ascii_only)
        for part in (self.query_one("#final-title"), self.query_one("#final-board-scroll")):
            part.display = picture is not None
        if picture is not None:
            self.query_one("#final-board", BoardView).show(picture, self._painter())

    def _fitting_zoom(self, view: Frame) -> str:
        """Below the standings when the board fits there with letters, else in one screenful
        with letters, else the color map wherever it fits."""
        region = final_region(view)
        viewport = self.query_one("#results", VerticalScroll).scrollable_content_region
        if region is None or not viewport.width:
            return "normal"
        ascii_only, card = self.party.ascii_only, shape(view)
        below = viewport.height - self.query_one(Center).outer_size.height - self.ABOVE_BOARD
        whole = viewport.height - self.ABOVE_BOARD
        fitting = []
        for height in (below, whole):
            zoom = fitting_zoom(region, card, Space(viewport.width, height), ascii_only)
            width, lines = drawn_size(region, card, zoom, ascii_only)
            if width <= viewport.width and lines <= height:
                fitting.append(zoom)
        lettered = [zoom for zoom in fitting if zoom != "mini"]
        return (lettered or fitting or ["mini"])[0]

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
