"""The round-result moment: the table stops while everyone reads what won and why.

While the room's ``pause`` waits for this seat, any key (or a click) closes it and tells
the host; the host closes it for everyone once all have, or its time is up.
"""

from __future__ import annotations

import time
from typing import ClassVar

from partyhost.tui.shared.base import HELP_KEY, PartyModal
from partyhost.tui.shared.footer import KeyFooter
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Static

GO_ON = "Tap, or press any key, to go on."


class RoundResultScreen(PartyModal[bool]):
    """Returns True when closed by a key or click (the host is told), False by the host."""

    holds_the_clock: ClassVar[bool] = True
    """The host holds the game's clock while a result is read: no pause is needed for it."""

    DEFAULT_CSS = """
    RoundResultScreen #round-result VerticalScroll { height: auto; max-height: 16; }
    RoundResultScreen #round-result-clock { margin-top: 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "go_on", "Go on"),
        HELP_KEY,
    ]

    def __init__(self, title: str, body: Text, until: float | None) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.until = until
        self._clock: Timer | None = None
        self._answered = False
        """Closed once already (not ``_closed``: that name is Textual's, for a finished pump)."""
        self._host_closed = False
        """The host closed the moment while a dialog (help, chat) was open over it."""

    def compose(self) -> ComposeResult:
        with Vertical(id="round-result", classes="dialog"):
            yield Static(self.title_text, classes="dialog-title")
            with VerticalScroll(can_focus=False):
                yield Static(self.body, id="round-result-body")
            yield Static("", id="round-result-clock")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._tick()
        if self.until is not None:
            self._clock = self.set_interval(1, self._tick)

    def _tick(self) -> None:
        clocks = list(self.query("#round-result-clock").results(Static))
        if not clocks:
            return  # taken down as it opened (the game ended)
        line = Text(GO_ON, "bold")
        if self.until is not None:
            left = max(0, round(self.until - time.time()))
            line.append(f"  (By itself in {left} s.)", "dim")
        clocks[0].update(line)

    def on_key(self, event: events.Key) -> None:
        if event.key == "f1":
            return  # the help opens over this
        event.stop()
        event.prevent_default()
        self.close(True)

    def on_click(self) -> None:
        self.close(True)

    def action_go_on(self) -> None:
        self.close(True)

    def on_screen_resume(self) -> None:
        if self._host_closed:
            self.close(False)

    def close(self, by_key: bool) -> None:
        """Close once (a second key tells the host nothing); the host's close waits while a
        dialog is open over this one."""
        if self._answered:
            return
        if not self.is_active:
            self._host_closed = self._host_closed or not by_key
            return
        self._answered = True
        self.dismiss(by_key)
