"""A game this client cannot draw yet: say so, keep the chat, let the player leave."""

from __future__ import annotations

from typing import ClassVar

from partyhost.tui.shared.bar import TitleBar
from partyhost.tui.shared.base import PartyScreen
from partyhost.tui.shared.chat import ChatPanel
from partyhost.tui.text import literal
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Static


class UnsupportedGameScreen(PartyScreen):
    KIND = "game"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "chat", "Chat"),
        Binding("escape", "leave", "Leave"),
    ]

    def compose(self) -> ComposeResult:
        yield TitleBar(id="title")
        with Horizontal(id="room-body"):
            yield Static("", id="unsupported", classes="status")
            yield ChatPanel(id="chat")
        yield Footer()

    def on_mount(self) -> None:
        game = (self.party.room or {}).get("game", "?")
        self.query_one("#unsupported", Static).update(
            Text.assemble(
                "This version of partyhost cannot show the game ",
                literal(game, "bold"),
                " yet. Update partyhost, or leave with Escape.",
            )
        )

    def action_chat(self) -> None:
        self.query_one(ChatPanel).focus_input()

    def action_leave(self) -> None:
        self.party.leave_room()
