"""Why the host refused a deck: every problem with its file, line and column."""

from __future__ import annotations

from typing import Any, ClassVar

from partyhost.tui.shared.base import PartyModal
from partyhost.tui.text import literal
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Footer, Static

Frame = dict[str, Any]


def problem_line(problem: Frame) -> Text:
    """``office.yaml:14:5`` in bold, then what is wrong."""
    where = f"{problem.get('file', '?')}:{problem.get('line', '?')}:{problem.get('column', '?')}"
    return Text.assemble(literal(where, "bold"), "  ", literal(problem.get("message", "")))


class DeckProblemsScreen(PartyModal[None]):
    """The host's answer to a deck it cannot use; the create dialog keeps your choices."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter", "close", "Close"),
    ]

    def __init__(self, message: str, problems: list[Frame]) -> None:
        super().__init__()
        self.message = message
        self.problems = problems

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="deck-problems"):
            yield Static("The host cannot use this deck", classes="dialog-title")
            count = len(self.problems)
            yield Static(
                Text(f"{count} problem{'s' if count != 1 else ''}, each at its line and column:")
            )
            with VerticalScroll(id="deck-problem-list"):
                for problem in self.problems:
                    yield Static(problem_line(problem), classes="deck-problem")
            yield Static(
                "Fix the file and create the room again (c): the dialog keeps your choices.",
                classes="hint",
            )
            yield Horizontal(
                Button("OK", id="close", variant="primary", compact=True), classes="buttons"
            )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#close", Button).focus()

    def action_close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#close")
    def _ok_pressed(self) -> None:
        self.dismiss(None)
