"""The Booyah choice: keep the card for its points, or steal (each button a ``legal`` command)."""

from __future__ import annotations

from typing import ClassVar

from partyhost.tui.shared.base import HELP_KEY, PartyModal, seat_name
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.text import Frame, counted, literal
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Button, Static


class BooyahScreen(PartyModal[Frame | None]):
    """Returns the chosen legal command, or ``None`` to decide later (press b)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k", "choose(0)", "Keep"),
        *(
            Binding(str(n), f"choose({n})", "Steal", key_display="1-9", show=n == 1)
            for n in range(1, 10)
        ),
        Binding("escape", "close", "Later"),
        HELP_KEY,
    ]

    def __init__(self, commands: list[Frame], booyah: Frame, players: list[Frame]) -> None:
        super().__init__()
        self.keeps = [c for c in commands if c.get("choice") == "keep"]
        self.steals = [c for c in commands if c.get("choice") == "steal"]
        self.commands = self.keeps + self.steals
        self.booyah = booyah
        self.players = {p.get("seat"): p for p in players if isinstance(p, dict)}

    def compose(self) -> ComposeResult:
        with Vertical(id="booyah", classes="dialog"):
            yield Static(f"{self.glyphs.booyah} Booyah!", classes="dialog-title")
            yield Static(
                Text.assemble(
                    literal(self.booyah.get("verdict", ""), "italic"),
                    "\n\nKeep it for ",
                    (f"{self.booyah.get('points', 400)} points", "bold"),
                    ", or give it up to take a random Hot or Not card from another player.",
                ),
                id="booyah-text",
            )
            for number, command in enumerate(self.commands):
                if command.get("choice") == "keep":
                    key = 0
                    label = Text.assemble(("k ", "bold"), f"Keep: {self.booyah.get('points', 400)}")
                else:
                    key = number - len(self.keeps) + 1  # the steals come after the keep
                    label = Text.assemble(
                        (f"{key} ", "bold"), "Steal from ", self._victim(command.get("victim"))
                    )
                button = Button(label, id=f"choice-{number}", compact=True, classes="choice")
                button.action = f"screen.choose({key})"  # a button does what its key does
                yield button
        yield KeyFooter()

    def _victim(self, seat: object) -> Text:
        player = self.players.get(seat, {})
        cards = [c for c in player.get("cards", []) if isinstance(c, dict)]
        values = " ".join(str(c.get("points")) for c in cards)
        return Text.assemble(
            literal(seat_name(self.party.room, seat), "bold"),
            f" ({counted(len(cards), 'card')}: {values})",
        )

    def action_choose(self, number: int) -> None:
        """``0`` keeps; ``n`` steals from the n-th player offered."""
        if number == 0 and self.keeps:
            self.dismiss(self.keeps[0])
        elif 1 <= number <= len(self.steals):
            self.dismiss(self.steals[number - 1])
