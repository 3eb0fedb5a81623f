"""F1 / ?: how to play each game, and every key of every screen (read from their bindings).

The game on screen (the room's game) comes first, rules and keys; then the
keys every screen shares; then the other games, each with its rules and its
own keys. Keys are never written out here: they are read from the screens'
``BINDINGS``, so the help cannot drift from what the keys do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from partyhost.tui.screens.base import PartyModal
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

Places = list[tuple[str, list[BindingType]]]
"""Where keys work ("Lobby", "Booyah choice") and the bindings that work there."""

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

GSM_CARDS = """\
Game, Set, Match! cards show sports gear (golf ball, racket, glove, helmet,
sneaker, soccer ball) in colors. A card goes down beside a card already on
the board, sharing a full side. Wherever cards meet, touching cells (across
corners too) must differ in object AND in color. A card may be turned
upside down when the room allows it."""

STEALING_HOME_RULES = """\
A race. Each round two cards are turned face up. Spot where one of them
fits and call Match! naming the card and the place: the first right call
places it, and its caller keeps the other card. A wrong call locks you out
until the next round; calls a blink apart are a tie, and only the tied
players race on two new cards. Nothing fits? Vote no fit (the round timer
ends the round too). When the cards run out, most cards kept wins."""

SCRAMBLE_RULES = """\
A race. Everyone gets 7 cards and arranges them on a private board: place,
move, turn and take back freely, nothing is checked yet. When all 7 form
one grid and every touching pair obeys the rule, call Game! A wrong call
sends all your cards back to your hand and play goes on. When everyone is
stuck the hand is void and fresh cards are dealt. The room may play a
best of 3 or 5."""

GRIDIRON_RULES = """\
Turns. Everyone gets 7 cards; one card starts the board. On your turn put
down one card where it fits. Only when none of yours fits anywhere do you
draw one (and your turn ends), or pass once the pile is empty. The first
player out of cards wins; if everyone passes in a row, the fewest cards in
hand wins."""

FOUR_CORNERS_RULES = """\
A race for two. Each gets 10 cards; one card lies in the middle. The first
card put beside it fixes your line, across or up and down, and the other
player gets the other line. Build only at the two ends of your own line;
take an end card back to use it elsewhere. First out of cards wins; if no
card is placed before the stall timer runs out, or both say stuck, fewer
cards in hand wins."""

MEME_RULES = """\
Four rounds; in each, every player is the reactor once. The reactor rolls
two dice for a scenario (or writes one, if the room allows) and picks one
of their 7 memes face down. Everyone else guesses it by playing a meme from
their own hand, face down.

The reactor bets 1 to 3 tokens on the others' guesses. The guesses are
shown, and everyone else bets up to 3 tokens (at most 2 on their own
guess). Then the reactor's meme is revealed: each token on a right guess
pays $1. In the final round you bet your own cash instead: a right bet
doubles, a wrong one is lost. Most money after round 4 wins."""

GENERAL = """\
partyhost is played in the terminal with friends on the same network.
Connect to a host, pick or create a room, add bots if you are few, and start.
The host keeps the rules: the client only shows what you may do right now."""


def flowed(text: str) -> str:
    """Paragraphs as single lines, so the help wraps them to whatever width it has."""
    return "\n\n".join(" ".join(part.split("\n")) for part in text.split("\n\n"))


def key_list(keys: Sequence[str]) -> str:
    """Keys that do the same thing: a run of digits as a range ("1-6"), else "t/⌫"."""
    if len(keys) > 2 and all(len(k) == 1 and k.isdigit() for k in keys):
        numbers = sorted(int(k) for k in keys)
        if numbers == list(range(numbers[0], numbers[-1] + 1)):
            return f"{numbers[0]}-{numbers[-1]}"
    return "/".join(keys)


def _tshirt_keys() -> Places:
    from partyhost.tui.screens.booyah import BooyahScreen
    from partyhost.tui.screens.tshirt import TShirtScreen

    return [
        ("The T-Shirt Game", list(TShirtScreen.BINDINGS)),
        ("Booyah choice", list(BooyahScreen.BINDINGS)),
    ]


def _gsm_keys(game: str) -> Callable[[], Places]:
    def places() -> Places:
        from partyhost.tui.screens.gsm_variants import SCREENS

        return [(HELP[game].title, list(SCREENS[game].BINDINGS))]

    return places


def _meme_keys() -> Places:
    from partyhost.tui.screens.meme import MemeScreen
    from partyhost.tui.screens.meme_dialogs import LastTurnScreen, WriteScenarioScreen

    return [
        ("What Do You Meme?", list(MemeScreen.BINDINGS)),
        ("Writing a scenario", list(WriteScenarioScreen.BINDINGS)),
        ("Last turn", list(LastTurnScreen.BINDINGS)),
    ]


@dataclass(frozen=True)
class GameHelp:
    """One game's page: its title, a rules summary and where its keys come from."""

    title: str
    rules: str
    keys: Callable[[], Places]


HELP: dict[str, GameHelp] = {
    "tshirt": GameHelp("The T-Shirt Game", TSHIRT_RULES, _tshirt_keys),
    "stealing-home": GameHelp(
        "Stealing Home", f"{STEALING_HOME_RULES}\n\n{GSM_CARDS}", _gsm_keys("stealing-home")
    ),
    "scramble": GameHelp("Scramble", f"{SCRAMBLE_RULES}\n\n{GSM_CARDS}", _gsm_keys("scramble")),
    "gridiron": GameHelp("Gridiron", f"{GRIDIRON_RULES}\n\n{GSM_CARDS}", _gsm_keys("gridiron")),
    "four-corners": GameHelp(
        "Four Corners", f"{FOUR_CORNERS_RULES}\n\n{GSM_CARDS}", _gsm_keys("four-corners")
    ),
    "meme": GameHelp("What Do You Meme?", MEME_RULES, _meme_keys),
}
"""Every game the client has a screen for, in the order the help lists them."""


def _screens() -> Places:
    """The keys of the screens every game shares."""
    from partyhost.tui.app import PartyApp
    from partyhost.tui.screens.connect import ConnectScreen
    from partyhost.tui.screens.lobby import LobbyScreen, RoomsTable
    from partyhost.tui.screens.results import ResultsScreen
    from partyhost.tui.screens.room import BotLevelScreen, RoomScreen
    from partyhost.tui.widgets.chat import ChatInput

    return [
        ("Everywhere", [*PartyApp.BINDINGS, Binding("ctrl+q", "quit", "Quit partyhost")]),
        ("Connect", list(ConnectScreen.BINDINGS)),
        ("Lobby", [*RoomsTable.BINDINGS, *LobbyScreen.BINDINGS]),
        ("Room", list(RoomScreen.BINDINGS)),
        ("Adding a bot (B)", list(BotLevelScreen.BINDINGS)),
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
        current = self.current_game()
        with VerticalScroll(id="help", classes="dialog"):
            yield Static("Help", classes="dialog-title")
            yield Static(self._rules(current), id="help-rules")
            yield Static(self._keys(current), id="help-keys")
            others = [game for game in HELP if game != current]
            yield Static(
                Text("Other games" if current else "The games", "bold"), classes="help-heading"
            )
            for game in others:
                yield Static(self._game(game), id=f"help-{game}", classes="help-game")
            yield Static("Escape closes this help.", classes="hint")
        yield Footer()

    def current_game(self) -> str | None:
        """The id of the room's game, if the client has a screen for it."""
        game = str((self.party.room or {}).get("game", ""))
        return game if game in HELP else None

    def _rules(self, game: str | None) -> Text:
        if game is None:
            return Text.assemble(("How to play\n", "bold"), flowed(GENERAL), "\n")
        page = HELP[game]
        return Text.assemble((f"How to play {page.title}\n", "bold"), flowed(page.rules), "\n")

    def _keys(self, game: str | None) -> Text:
        text = Text("Keys\n", style="bold")
        places = [*(HELP[game].keys() if game else []), *_screens()]
        text.append_text(self._places(places))
        return text

    def _game(self, game: str) -> Text:
        page = HELP[game]
        text = Text.assemble(
            "\n", (f" {page.title} ", "bold reverse"), "\n", flowed(page.rules), "\n"
        )
        (_, main), *dialogs = page.keys()
        text.append_text(self._places([("Keys", main), *dialogs]))
        return text

    def _places(self, places: Sequence[tuple[str, Sequence[BindingType]]]) -> Text:
        text = Text()
        for place, bindings in places:
            text.append(f"\n{place}\n", "bold underline")
            for keys, description in self._rows(bindings):
                text.append(f"  {keys:<9} ", "bold cyan")
                text.append(f"{description}\n")
        return text

    def _rows(self, bindings: Sequence[BindingType]) -> list[tuple[str, str]]:
        """One row per description, naming every key that does it ("t/⌫", "1-6")."""
        keys_of: dict[str, list[str]] = {}
        for binding in Binding.make_bindings(bindings):
            if not binding.description:
                continue
            key = binding.key_display or self.app.get_key_display(binding)
            keys = keys_of.setdefault(binding.description, [])
            if key not in keys:
                keys.append(key)
        return [(key_list(keys), description) for description, keys in keys_of.items()]

    def action_close(self) -> None:
        self.dismiss(None)
