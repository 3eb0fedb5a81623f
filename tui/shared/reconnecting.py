"""Shown over the last view while the link is down; goes away by itself when it is back."""

from __future__ import annotations

from typing import ClassVar

from partyhost.tui.shared.base import HELP_KEY, PartyModal
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, Static


class ReconnectingScreen(PartyModal[None]):
    """A small banner over the dimmed table: the game is still there underneath."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "give_up", "Stop waiting"),
        HELP_KEY,
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="reconnecting", classes="dialog"):
            yield Static("Connection lost", classes="dialog-title")
            yield Static("", id="reconnect-text")
            yield Static("Your seat is kept. Escape stops waiting.", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        self.watch(self.app, "link", self._show_state)

    def _show_state(self) -> None:
        dots = self.glyphs.ellipsis
        text = (
            f"Trying to reach the host again{dots}"
            if self.party.link == "reconnecting"
            else f"The host stopped answering. Reconnecting{dots}"
        )
        self.query_one("#reconnect-text", Static).update(text)

    def action_give_up(self) -> None:
        self.party.disconnect()
