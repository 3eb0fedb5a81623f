"""The table of a turn: the reactor's card and the guesses, one row each, plus the betting panel.

Rows are built by the screen from the view (see :mod:`.rows`); this module
only lays them out, keeps the highlighted row and turns clicks into messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Click
from textual.message import Message
from textual.widgets import Button, Static


@dataclass(frozen=True)
class RowSpec:
    """One line of the table; ``number`` (1-based) when it can carry a bet."""

    text: Text
    number: int | None = None


class TableRow(Static):
    """A guess (or the reactor's card); clicking a bettable row selects it."""

    DEFAULT_CSS = """
    TableRow { height: auto; width: 1fr; padding: 0 1; }
    TableRow.-bettable:hover { background: $boost; }
    TableRow.-selected { background: $accent 30%; }
    """

    class Picked(Message):
        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def __init__(self) -> None:
        super().__init__()
        self.spec: RowSpec | None = None

    def show(self, spec: RowSpec, selected: bool) -> None:
        self.set_class(spec.number is not None, "-bettable")
        self.set_class(selected, "-selected")
        if spec != self.spec:
            self.spec = spec
            self.update(spec.text)

    def on_click(self, event: Click) -> None:
        event.stop()
        if self.spec is not None and self.spec.number is not None:
            self.post_message(self.Picked(self.spec.number))


class GuessTable(Vertical):
    """Rows in a box; the screen says which numbered row is selected."""

    DEFAULT_CSS = """
    GuessTable {
        height: auto;
        border: $edge $panel-lighten-2;
        border-title-color: $text-accent;
        border-title-style: bold;
        border-subtitle-color: $text-muted;
    }
    GuessTable.-betting { border: $edge $primary; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[TableRow] = []

    def show(
        self, title: str, rows: Sequence[RowSpec], selected: int | None, *, betting: bool = False
    ) -> None:
        self.border_title = title
        self.set_class(betting, "-betting")
        if len(self.rows) != len(rows):
            self.remove_children()
            self.rows = [TableRow() for _ in rows]
            self.mount_all(self.rows)
        for row, spec in zip(self.rows, rows, strict=True):
            row.show(spec, selected is not None and spec.number == selected)


class BetPanel(Vertical):
    """What is still allowed, and buttons for the mouse: less, more, place the bet."""

    DEFAULT_CSS = """
    BetPanel { height: auto; padding: 0 1; }
    BetPanel > #bet-limits { width: 1fr; height: auto; }
    BetPanel > Horizontal { height: 1; width: 1fr; }
    BetPanel Button { margin-right: 2; min-width: 5; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="bet-limits")
        with Horizontal():
            yield Button("-", id="bet-less", compact=True)
            yield Button("+", id="bet-more", compact=True)
            yield Button("Place bet", id="bet-place", variant="primary", compact=True)
            yield Button("Clear", id="bet-clear", compact=True)

    def on_mount(self) -> None:
        for button in self.query(Button):
            button.can_focus = False
        for button in self.query("#bet-less, #bet-more").results(Button):
            button.active_effect_duration = 0  # quick clicks each count

    def show(self, limits: Text) -> None:
        self.query_one("#bet-limits", Static).update(limits)
