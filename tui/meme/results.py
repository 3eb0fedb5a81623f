"""The end of What Do You Meme?: the winner, everyone's cash in bills, and the final reveal.

The shared results screen (winners line, keys, next step) with this game's
standings in money and the last reveal beside them.
"""

from __future__ import annotations

from typing import Any

from partyhost.tui.meme.bits import fit
from partyhost.tui.meme.rows import Look, reveal_text
from partyhost.tui.meme.text import bills_text, color_style, meme_glyphs
from partyhost.tui.shared.bar import TitleBar
from partyhost.tui.shared.base import seat_name
from partyhost.tui.shared.chat import ChatPanel, ChatScreen
from partyhost.tui.shared.results import ResultsScreen
from partyhost.tui.text import literal
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Static

Frame = dict[str, Any]
WIDE = 110


class MemeResultsScreen(ResultsScreen):
    """Podium by money, read from the final view (the host decides the winners)."""

    DEFAULT_CSS = """
    MemeResultsScreen #results { scrollbar-size-vertical: 1; }
    MemeResultsScreen.-narrow #chat { display: none; }
    MemeResultsScreen #meme-podium { height: auto; }
    MemeResultsScreen #meme-final {
        height: auto;
        margin-top: 1;
        border: $edge $success;
        border-title-color: $success;
        padding: 0 1;
    }
    """

    def compose(self) -> ComposeResult:
        yield TitleBar(id="title")
        with Horizontal(id="room-body"):
            with VerticalScroll(id="results"):
                yield Static("", id="meme-podium")
                yield Static("", id="meme-final")
            yield ChatPanel(id="chat")
        yield Footer()

    def action_chat(self) -> None:
        if self.app.size.width >= WIDE:
            super().action_chat()
        else:
            self.app.push_screen(ChatScreen())

    def on_resize(self) -> None:
        self._show()

    def _who(self, seat: object) -> Text:
        view = self.party.view or {}
        return literal(seat_name(self.party.room, seat), f"bold {color_style(view, seat)}")

    def show_result(self, view: Frame) -> None:
        self.query_one("#meme-podium", Static).update(self.podium(view))
        final = self.query_one("#meme-final", Static)
        record = view.get("last_turn")
        final.display = isinstance(record, dict)
        if isinstance(record, dict):
            final.border_title = "The last reveal"
            width = final.content_region.width or 60
            look = Look(view, self._who, self.glyphs, meme_glyphs(self.party.ascii_only), width)
            final.update(reveal_text(look, record, None))

    def standings(self, view: Frame) -> Text:
        text = Text()
        text.append("\n\nFinal money\n", "bold underline")
        players = sorted(
            (p for p in view.get("players", []) if isinstance(p, dict)),
            key=lambda p: -int(p.get("money", 0)),
        )
        place, last = 0, None
        for rank, player in enumerate(players, start=1):
            money = int(player.get("money", 0))
            if money != last:
                place, last = rank, money
            text.append(f"{place:>2}. ")
            name = self._who(player.get("seat"))
            if player.get("left"):
                name.append(" (left)", "dim")
            text.append_text(fit(name, 12, self.glyphs.ellipsis))
            text.append(f"{'$' + str(money):>6}  ", "bold")
            text.append_text(bills_text(money, width=18))
            text.append("\n")
        return text
