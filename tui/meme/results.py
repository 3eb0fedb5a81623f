"""The end of What Do You Meme?: the winner, the money, the calls that paid, the last reveal."""

from __future__ import annotations

from partyhost.tui.meme.rows import Look, reveal_text
from partyhost.tui.meme.text import caption_of, color_style, fit, meme_glyphs, nets_text
from partyhost.tui.shared.base import seat_name
from partyhost.tui.shared.results import ResultsScreen, ranked, section_title
from partyhost.tui.text import Frame, literal
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static


class MemeResultsScreen(ResultsScreen):
    """Podium by money, read from the final view (the host decides the winners)."""

    DEFAULT_CSS = """
    MemeResultsScreen #results { scrollbar-size-vertical: 1; }
    MemeResultsScreen #meme-podium { height: auto; }
    MemeResultsScreen #meme-final {
        height: auto;
        margin-top: 1;
        border: $edge $success;
        border-title-color: $success;
        padding: 0 1;
    }
    """

    def body(self) -> ComposeResult:
        yield Static("", id="meme-podium")
        yield Static("", id="meme-final")

    def _who(self, seat: object) -> Text:
        view = self.party.view or {}
        return literal(seat_name(self.party.room, seat), f"bold {color_style(view, seat)}")

    def show_result(self, view: Frame) -> None:
        self.show_hung(self.query_one("#meme-podium", Static), self.podium(view))
        final = self.query_one("#meme-final", Static)
        record = view.get("last_turn")
        final.display = isinstance(record, dict)
        if isinstance(record, dict):
            final.border_title = "The last reveal"
            width = final.content_region.width or 60
            look = Look(view, self._who, self.glyphs, meme_glyphs(self.party.ascii_only), width)
            final.update(reveal_text(look, record, None))

    def standings(self, view: Frame) -> Text:
        players = sorted(
            (p for p in view.get("players", []) if isinstance(p, dict)),
            key=lambda p: -int(p.get("money", 0)),
        )
        money = [int(player.get("money", 0)) for player in players]
        rows = []
        for player, amount in zip(players, money, strict=True):
            name = self._who(player.get("seat"))
            if player.get("left"):
                name.append(" (left)", "dim")
            rows.append((fit(name, 14, self.glyphs.ellipsis), Text(f"${amount}".rjust(6), "bold")))
        return ranked("Final money", rows, money)

    def recap(self, view: Frame) -> Text:
        """Every turn whose bets moved money: the reactor's meme and what each bettor won or
        lost (the final round's cash is lost on a wrong guess)."""
        turns = [t for t in view.get("history") or [] if isinstance(t, dict) and t.get("paid")]
        if not turns:
            return Text("\n\nNo bet won or lost any money this game.", "dim")
        text = section_title("Bets that won or lost")
        for turn in turns:
            text.append(f"Turn {turn.get('turn', '?'):>2}: ", "bold")
            text.append_text(self._who(turn.get("reactor")))
            text.append(" reacted with ")
            text.append_text(literal(caption_of(view, turn.get("reaction")), "bold"))
            text.append("\n    ")
            text.append_text(nets_text([p for p in turn["paid"] if isinstance(p, dict)], self._who))
            text.append("\n")
        return text
