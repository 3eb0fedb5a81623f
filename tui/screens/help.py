"""F1 / ?: how to play, and every key of every screen (read from their bindings)."""

from __future__ import annotations

from typing import ClassVar

from partyhost.tui.screens.base import PartyModal
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

TSHIRT_RULES = """\
Collect Hot or Not cards worth the target score (3000 by default) to win.

Each round one player is the judge. A T-shirt card is turned face up, and
everyone else picks the slogan from their hand that suits the shirt best.
The slogans are shuffled and revealed without names; the judge picks the
funniest match. Its author draws a Hot or Not card and scores its points
(some cards are worth little, or even less than nothing).

The Booyah card: keep it for 400 points, or give it up to steal a random
Hot or Not card from another player who has one.

Then everyone is dealt back up to 3 slogans and the next player judges.
The first to reach the target wins; if the Hot or Not deck runs out,
the highest score wins."""

GENERAL = """\
partyhost is played in the terminal with friends on the same network.
Connect to a host, pick or create a room, add bots if you are few, and start.
The host keeps the rules: the client only shows what you may do right now."""

RULES = {"tshirt": ("The T-Shirt Game", TSHIRT_RULES)}


def _screens() -> list[tuple[str, list[BindingType]]]:
    from partyhost.tui.app import PartyApp
    from partyhost.tui.screens.connect import ConnectScreen
    from partyhost.tui.screens.lobby import LobbyScreen, RoomsTable
    from partyhost.tui.screens.results import ResultsScreen
    from partyhost.tui.screens.room import RoomScreen
    from partyhost.tui.screens.tshirt import TShirtScreen
    from partyhost.tui.widgets.chat import ChatInput

    return [
        ("Everywhere", [*PartyApp.BINDINGS, Binding("ctrl+q", "quit", "Quit partyhost")]),
        ("Connect", list(ConnectScreen.BINDINGS)),
        ("Lobby", [*RoomsTable.BINDINGS, *LobbyScreen.BINDINGS]),
        ("Room", list(RoomScreen.BINDINGS)),
        ("The T-Shirt Game", list(TShirtScreen.BINDINGS)),
        ("Chat box", [Binding("enter", "send", "Send"), *ChatInput.BINDINGS]),
        ("Results", list(ResultsScreen.BINDINGS)),
    ]


class HelpScreen(PartyModal[None]):
    """Rules and keys; Escape, F1 or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("f1", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help", classes="dialog"):
            yield Static("Help", classes="dialog-title")
            yield Static(self._rules(), id="help-rules")
            yield Static(self._keys(), id="help-keys")
            yield Static("Escape closes this help.", classes="hint")
        yield Footer()

    def _rules(self) -> Text:
        room = self.party.room or {}
        title, rules = RULES.get(str(room.get("game", "tshirt")), ("partyhost", GENERAL))
        return Text.assemble((f"How to play {title}\n", "bold"), rules, "\n")

    def _keys(self) -> Text:
        text = Text("Keys\n", style="bold")
        for place, bindings in _screens():
            text.append(f"\n{place}\n", "bold underline")
            seen: set[tuple[str, str]] = set()
            for binding in bindings:
                if not isinstance(binding, Binding) or not binding.description:
                    continue
                key = binding.key_display or self.app.get_key_display(binding)
                if (key, binding.description) in seen:
                    continue
                seen.add((key, binding.description))
                text.append(f"  {key:<10}", "bold cyan")
                text.append(f"{binding.description}\n")
        return text

    def action_close(self) -> None:
        self.dismiss(None)
