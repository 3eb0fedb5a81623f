"""F1 / ?: how to play each game, a page a game (the one on screen first), and every key of
every screen, read from their ``BINDINGS`` so the help cannot drift from what keys do."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from partyhost.tui.games import GAMES, Places
from partyhost.tui.party import APP_BINDINGS
from partyhost.tui.rejoin import SeatOfferScreen
from partyhost.tui.replay.screen import ReplayScreen
from partyhost.tui.shared.base import HELP_KEY, PAGE_KEYS, PartyModal
from partyhost.tui.shared.chat import ChatInput
from partyhost.tui.shared.connect import ConnectScreen
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.shared.lobbyscreen import lobby_keys
from partyhost.tui.shared.pastgamesscreen import PastGamesScreen, PastGamesTable
from partyhost.tui.shared.results import ResultsScreen
from partyhost.tui.shared.roomscreen import BotLevelScreen, RoomScreen
from partyhost.tui.shared.tablecontrols import TableControlsScreen
from partyhost.tui.text import tap_to
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer, Vertical, VerticalScroll
from textual.widgets import ContentSwitcher, Static

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


def _screens(web_door: bool) -> Places:
    """The keys of the screens every game shares (the lobby's ``w`` only with a ``web_door``)."""
    return [
        ("Everywhere", [*APP_BINDINGS, Binding("ctrl+q", "quit", "Quit partyhost")]),
        ("Connect", list(ConnectScreen.BINDINGS)),
        ("Lobby", lobby_keys(web_door)),
        ("Past games", [*PastGamesTable.BINDINGS, *PastGamesScreen.BINDINGS]),
        ("Watching a replay", list(ReplayScreen.BINDINGS)),
        ("Room", list(RoomScreen.BINDINGS)),
        ("Adding a bot (B)", list(BotLevelScreen.BINDINGS)),
        ("The table during a game (o)", list(TableControlsScreen.BINDINGS)),
        ("Back to your seat?", list(SeatOfferScreen.BINDINGS)),
        ("Chat box", [Binding("enter", "send", "Send"), *ChatInput.BINDINGS]),
        ("Results", list(ResultsScreen.BINDINGS)),
    ]


class HelpScreen(PartyModal[None]):
    """Rules and keys, a page a game; arrows turn the pages, Escape, F1 or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        # Priority: the page's scroll bindings would otherwise hide these in the footer.
        Binding("right", "turn(1)", "Next game", priority=True),
        Binding("left", "turn(-1)", "Previous game", priority=True),
        *PAGE_KEYS,
        Binding("f1", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
    ]

    def compose(self) -> ComposeResult:
        current = self.current_game()
        with Vertical(id="help", classes="dialog"):
            yield Static("Help", classes="dialog-title")
            yield Static(id="help-pages")
            with ContentSwitcher(initial="help-here"):
                with VerticalScroll(id="help-here", classes="help-page"):
                    yield Static(self._rules(current), id="help-rules")
                    yield Static(self._keys(current), id="help-keys")
                for game in self._others():
                    with VerticalScroll(id=f"page-{game}", classes="help-page"):
                        yield Static(self._game(game), id=f"help-{game}", classes="help-game")
            yield Static(
                "Tap a game's name, or use the arrow keys, to read its page; Escape closes this"
                " help.",
                classes="hint",
            )
        yield KeyFooter()

    def on_mount(self) -> None:
        self._show_pages()

    def pages(self) -> list[str]:
        """The pages in turning order: this game (or the general help) first."""
        return ["help-here", *(f"page-{game}" for game in self._others())]

    def action_turn(self, step: int) -> None:
        """Show the next (or previous) game's page, round and round."""
        pages = self.pages()
        shown = self.query_one(ContentSwitcher).current or pages[0]
        self.action_show_page(pages[(pages.index(shown) + step) % len(pages)])

    def action_show_page(self, page: str) -> None:
        """Show ``page`` (its name was tapped), from its top."""
        if page not in self.pages():
            return
        self.query_one(ContentSwitcher).current = page
        self._show_pages()
        self.call_after_refresh(self.refresh_bindings)  # the page keys, for this page

    def page_scroller(self) -> ScrollableContainer | None:
        shown = self.query_one(ContentSwitcher).current
        return None if shown is None else self.query_one(f"#{shown}", VerticalScroll)

    def _show_pages(self) -> None:
        """The page names, the one on show highlighted, so the other games are seen to be there."""
        current = self.current_game()
        shown = self.query_one(ContentSwitcher).current
        names = [("help-here", GAMES[current].title if current else "How to play")]
        names += [(f"page-{game}", GAMES[game].title) for game in self._others()]
        line = Text()
        for number, (page, title) in enumerate(names):
            line.append("  " if number else "")
            look = "bold reverse" if page == shown else "dim"
            line.append(title, tap_to(f"screen.show_page({page!r})", look))
        self.query_one("#help-pages", Static).update(line)

    def _others(self) -> list[str]:
        current = self.current_game()
        return [game for game in GAMES if game != current]

    def current_game(self) -> str | None:
        """The id of the room's game, if the client has a screen for it."""
        game = str((self.party.room or {}).get("game", ""))
        return game if game in GAMES else None

    def _rules(self, game: str | None) -> Text:
        if game is None:
            return Text.assemble(("How to play\n", "bold"), flowed(GENERAL), "\n")
        page = GAMES[game]
        return Text.assemble((f"How to play {page.title}\n", "bold"), flowed(page.rules), "\n")

    def _keys(self, game: str | None) -> Text:
        text = Text("Keys\n", style="bold")
        web_door = bool((self.party.welcome or {}).get("web_door"))
        places = [*(GAMES[game].keys() if game else []), *_screens(web_door)]
        text.append_text(self._places(places))
        return text

    def _game(self, game: str) -> Text:
        text = self._rules(game)
        (_, main), *dialogs = GAMES[game].keys()
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
            if not binding.description or binding.action == HELP_KEY.action:
                continue
            key = binding.key_display or self.app.get_key_display(binding)
            keys = keys_of.setdefault(binding.description, [])
            if key not in keys:
                keys.append(key)
        return [(key_list(keys), description) for description, keys in keys_of.items()]
