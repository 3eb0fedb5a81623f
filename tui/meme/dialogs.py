"""Dialogs of What Do You Meme?: writing your own scenario, and the last turn in full."""

from __future__ import annotations

from typing import ClassVar

from partyhost.tui.shared.base import HELP_KEY, PartyModal
from partyhost.tui.shared.dialogs import Dialog
from partyhost.tui.shared.footer import KeyFooter
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Input, Static

SCENARIO_LIMIT = 280


class WriteScenarioScreen(Dialog[str]):
    """Returns the typed scenario (trimmed, one line), or ``None`` to roll after all."""

    DEFAULT_CSS = """
    WriteScenarioScreen #scenario-input { margin-top: 1; height: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Cancel"),
        Binding("ctrl+s", "confirm", "Use it"),
        HELP_KEY,
    ]

    def __init__(self, limit: int = SCENARIO_LIMIT) -> None:
        super().__init__()
        self.limit = limit

    def compose(self) -> ComposeResult:
        with Vertical(id="meme-write", classes="dialog"):
            yield Static("Your own scenario", classes="dialog-title")
            yield Static(
                "Describe something that could happen to anyone. Everyone reads it, "
                "then you pick how you would react.",
                classes="hint",
            )
            yield Input(
                placeholder="e.g. Your phone autocorrects 'meeting' to 'meatball'",
                max_length=self.limit,
                compact=True,
                id="scenario-input",
            )
            yield Static("", id="scenario-count", classes="hint")
            yield self.buttons("Use it")
        yield KeyFooter()

    def on_mount(self) -> None:
        if not self.query(Input):
            return  # taken down as it opened (the turn moved on)
        self.query_one(Input).focus()
        self._count("")

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self._count(event.value)

    def _count(self, value: str) -> None:
        left = self.limit - len(value)
        style = "bold yellow" if left < 20 else ""
        self.query_one("#scenario-count", Static).update(
            Text(f"{len(value)}/{self.limit} characters", style)
        )

    def result(self) -> str | None:
        value = self.query_one(Input).value.strip()
        if not value:
            self.notify("Write a scenario first, or press Escape to roll.", severity="warning")
            return None
        return value


class LastTurnScreen(PartyModal[None]):
    """The turn just played, in full: guesses, the reaction, bets and payouts."""

    DEFAULT_CSS = """
    LastTurnScreen #meme-last { width: 76; }
    LastTurnScreen #meme-last VerticalScroll { height: auto; max-height: 20; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,t,enter", "close", "Back to the game"),
        HELP_KEY,
    ]

    def __init__(self, reveal: Text) -> None:
        super().__init__()
        self.reveal = reveal

    def compose(self) -> ComposeResult:
        with Vertical(id="meme-last", classes="dialog"):
            yield Static("The last turn", classes="dialog-title")
            with VerticalScroll():
                yield Static(self.reveal)
        yield KeyFooter()
