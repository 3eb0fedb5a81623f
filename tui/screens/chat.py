"""Chat as a dialog, for game screens too narrow to keep a chat column."""

from __future__ import annotations

from typing import ClassVar

from partyhost.tui.screens.base import PartyModal
from partyhost.tui.widgets.chat import ChatPanel
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer


class ChatScreen(PartyModal[None]):
    """The room's chat over the table; Escape goes back to the game."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Back to the game")]

    def compose(self) -> ComposeResult:
        with Vertical(id="chat-dialog", classes="dialog"):
            yield ChatPanel(id="chat")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(ChatPanel).focus_input()

    def action_close(self) -> None:
        self.dismiss(None)
