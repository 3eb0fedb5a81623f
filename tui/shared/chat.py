"""Room chat: the lines so far and a box to type in, as a panel or as a dialog over a table."""

from __future__ import annotations

from typing import Any, ClassVar, cast

from partyhost.net.protocol import MAX_CHAT_LENGTH
from partyhost.tui.party import Party
from partyhost.tui.shared.base import HELP_KEY, PartyModal
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.shared.log import ReflowLog, chat_text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input

WIDE = 110
"""Columns from which the chat stays beside a table or the results (the app's ``-wide``
breakpoint; each game's extras get their own space there too, see the .tcss)."""


class ChatInput(Input):
    """The chat box; Escape hands the keys back to the game, closing the chat screen if the
    chat has one (a second tap on the footer's Escape would be needed otherwise)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", "Done chatting")]

    def action_leave(self) -> None:
        if isinstance(self.screen, ChatScreen):
            self.screen.action_close()
        else:
            self.screen.set_focus(None)


class ChatPanel(Vertical):
    """Chat lines from the app's ``chat`` reactive, plus the input."""

    DEFAULT_CSS = """
    ChatPanel {
        height: 1fr;
        min-height: 4;
        border: $edge $border-blurred;
        border-title-color: $text-muted;
    }
    ChatPanel:focus-within { border: $edge $border; }
    ChatPanel ReflowLog {
        height: 1fr;
        background: transparent;
        scrollbar-size-vertical: 1;
        scrollbar-gutter: stable;
        overflow-x: hidden;
        overflow-y: auto;
    }
    ChatPanel Input { height: 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Chat"

    def compose(self) -> ComposeResult:
        yield ReflowLog()
        yield ChatInput(
            placeholder="say something (Enter sends)",
            max_length=MAX_CHAT_LENGTH,
            compact=True,
        )

    @property
    def party(self) -> Party:
        return cast("Party", self.app)

    def on_mount(self) -> None:
        self.watch(self.app, "chat", self._show_lines)

    def _show_lines(self) -> None:
        logs = self.query(ReflowLog)
        if logs:  # a panel taken down as it came up (the app quitting) has no log
            logs.first(ReflowLog).follow(self.party.chat, chat_text)

    def focus_input(self) -> None:
        self.query_one(ChatInput).focus()

    @on(Input.Submitted)
    def _send(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if text and self.party.requests.chat(text):
            event.input.clear()


class ChatScreen(PartyModal[None]):
    """The room's chat over a table too narrow to keep a chat column; Escape goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back to the game"),
        HELP_KEY,
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="chat-dialog", classes="dialog"):
            yield ChatPanel(id="chat")
        yield KeyFooter()

    def on_mount(self) -> None:
        for panel in self.query(ChatPanel):  # none when the game ended as this opened
            panel.focus_input()


def open_chat(screen: Screen[Any]) -> None:
    """Into the chat beside the screen on wide terminals; over it on narrow ones, where the
    panel is hidden."""
    if screen.app.size.width >= WIDE:
        screen.query_one(ChatPanel).focus_input()
    else:
        screen.app.push_screen(ChatScreen())
