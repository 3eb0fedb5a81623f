"""The end of a Game, Set, Match! game: standings in each game's own count (not points),
and the final board whole in sight, under, beside or over them."""

from __future__ import annotations

from partyhost.tui.gsm.boardview import BoardView
from partyhost.tui.gsm.cards import Legend, Painter
from partyhost.tui.gsm.moves import (
    BESIDE_GAP,
    FinalFit,
    ResultsRoom,
    final_fit,
    final_picture,
    final_region,
    shape,
)
from partyhost.tui.gsm.text import OVER_REASONS, TIED_REASONS, TITLES
from partyhost.tui.shared.results import ResultsScreen, ranked
from partyhost.tui.text import Frame, counted, names
from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, ScrollableContainer, Vertical, VerticalScroll
from textual.widgets import Static


class GsmResultsScreen(ResultsScreen):
    """Winners, why the game ended, every seat's final count and the final board."""

    DEFAULT_CSS = """
    GsmResultsScreen #final-headline { display: none; height: auto; }
    GsmResultsScreen #final-sides { height: auto; layout: vertical; }
    GsmResultsScreen #final-standings, GsmResultsScreen #final-side { height: auto; width: 1fr; }
    GsmResultsScreen #final-board-scroll {
        height: auto; width: 1fr; overflow-x: auto; overflow-y: hidden; scrollbar-size: 1 1;
    }
    GsmResultsScreen #final-title { margin-top: 1; }
    GsmResultsScreen.-board-beside #final-sides { layout: horizontal; }
    GsmResultsScreen.-board-beside #final-title { margin-top: 0; }
    GsmResultsScreen.-board-first #final-headline { display: block; }
    """
    ABOVE_BOARD = 2
    """Lines the board's title takes (with its margin)."""
    MARGINS = 2
    """Blank lines around the results (``#results`` padding), given up for a board."""
    NARROWEST_STANDINGS = 24

    def __init__(self) -> None:
        super().__init__()
        self.zoom = "normal"
        self.board_layout = "below"

    def body(self) -> ComposeResult:
        yield Static("", id="final-headline")
        with Horizontal(id="final-sides"):
            with Vertical(id="final-standings"):
                yield from super().body()
            with Vertical(id="final-side"):
                yield Static("The final board", classes="section-title", id="final-title")
                with ScrollableContainer(id="final-board-scroll", can_focus=False):
                    yield BoardView(self._painter(), id="final-board")

    def _painter(self) -> Painter:
        return Painter(
            Legend.from_view(self.party.view or {}),
            ascii_only=self.party.ascii_only,
            initials=True,
            native=self.app.native_ansi_color,
            zoom=self.zoom,
        )

    def show_result(self, view: Frame) -> None:
        super().show_result(view)
        self.query_one("#final-title", Static).update(self._board_title(view))
        self._show_board(view)
        self.call_after_refresh(self._show_board, view)

    def on_resize(self) -> None:
        self.call_after_refresh(self._show_board, self.party.view or {})

    def _show_board(self, view: Frame) -> None:
        """The final board whole in sight, its cards as big as the layout that fits allows."""
        if not self.is_mounted or not self.query("#results"):
            return  # queued before the screen was taken down (Play again): nothing to fit
        fit = self._fit(view)
        self.zoom, self.board_layout = fit.zoom, fit.layout
        self._arrange(view, fit)
        picture = final_picture(view, self.zoom, self.party.ascii_only)
        titled = fit.spare <= self.MARGINS  # beyond the margins the title gave its line
        self.query_one("#final-title").display = picture is not None and titled
        self.query_one("#final-board-scroll").display = picture is not None
        if picture is not None:
            self.query_one("#final-board", BoardView).show(picture, self._painter())

    @staticmethod
    def _board_title(view: Frame) -> str:
        return "Your board" if view.get("game") == "scramble" else "The final board"

    def _fit(self, view: Frame) -> FinalFit:
        """Where the board goes (under, beside or over the standings) and its drawing."""
        region = final_region(view)
        width = self.podium_width()
        height = self.query_one("#results", VerticalScroll).region.height - self.MARGINS
        if region is None or width <= 0:
            return FinalFit("below", "normal")
        winners = self._winners(view)
        room = ResultsRoom(
            width=width,
            below=height
            - self._lines(self.hung(self.podium(view), width), width)
            - self.ABOVE_BOARD,
            beside=height - self.ABOVE_BOARD + 1,
            first=height - self._lines(self._headline(view), width) - self.ABOVE_BOARD,
            standings=max(
                self.NARROWEST_STANDINGS,
                self._widest(self.winners_line(view, winners)),
                self._widest(self.standings(view)),
                cell_len(f"  {self.play_again_command() or ''}"),  # indented, never split
            ),
            spares=(0, self.MARGINS, self.MARGINS + 1),
            title=cell_len(self._board_title(view)) + 2,  # the section title's padding
        )
        return final_fit(region, shape(view), room, self.party.ascii_only)

    def _arrange(self, view: Frame, fit: FinalFit) -> None:
        """Lay the standings and the board out as ``fit`` says."""
        self.set_class(fit.layout == "beside", "-board-beside")
        self.set_class(fit.layout == "first", "-board-first")
        results = self.query_one("#results", VerticalScroll)
        if fit.spare >= self.MARGINS:
            results.styles.padding = (0, results.styles.padding.right)
        else:
            results.styles.clear_rule("padding")
        sides = self.query_one("#final-sides", Horizontal)
        standings, side = self.query_one("#final-standings"), self.query_one("#final-side")
        board_first = sides.children[0] is side
        if fit.layout == "first" and not board_first:
            sides.move_child(side, before=standings)
        elif fit.layout != "first" and board_first:
            sides.move_child(side, after=standings)
        beside = fit.layout == "beside"
        standings.styles.width = fit.standings_width if beside else "1fr"
        standings.styles.margin = (0, BESIDE_GAP if beside else 0, 0, 0)
        podium = self.podium(view)
        if fit.layout == "first":
            self.query_one("#final-headline", Static).update(self._headline(view))
            podium = Text("").join(podium.split("\n", include_separator=True)[1:])
        width = fit.standings_width if beside else None
        self.show_hung(self.query_one("#podium", Static), podium, width)

    def _headline(self, view: Frame) -> Text:
        """The winners line over a board drawn first, and where the standings went."""
        text = self.winners_line(view, self._winners(view))
        arrow = "v" if self.party.ascii_only else "\u2193"
        text.append(f"   {arrow} standings under the board", "dim")
        return text

    @staticmethod
    def _winners(view: Frame) -> list[int]:
        return [w for w in view.get("winners") or [] if isinstance(w, int)]

    def _lines(self, text: Text, width: int) -> int:
        """Lines ``text`` takes wrapped to ``width`` columns."""
        return len(text.wrap(self.app.console, max(width, 1)))

    @staticmethod
    def _widest(text: Text) -> int:
        return max((line.cell_len for line in text.split("\n")), default=0)

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
        """Best to worst as the game counts: cards won, games won, or fewest cards left."""
        game = view.get("game")
        scores = [s for s in view.get("scores", []) if isinstance(s, dict) and "seat" in s]
        if game == "stealing-home":
            scores.sort(key=lambda s: -int(s.get("cards", 0)))
            counts = [counted(s.get("cards"), "card") + " won" for s in scores]
        elif game == "scramble":
            scores.sort(key=lambda s: (-int(s.get("wins", 0)), -int(s.get("placed", 0))))
            counts = [counted(s.get("wins"), "game") + " won" for s in scores]
        else:
            scores.sort(key=lambda s: int(s.get("hand", 0)))
            counts = [counted(s.get("hand"), "card") + " left" for s in scores]
        rows = [
            (self._who(s["seat"]), Text(f"  {count}", "bold"))
            for s, count in zip(scores, counts, strict=True)
        ]
        return ranked("Final standings", rows)
