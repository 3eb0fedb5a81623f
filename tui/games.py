"""Which screens draw which game: the one table from a game id to its screens and help.

The app's router asks :func:`main_screen` for the screen the state calls for,
and the help screen lists :data:`GAMES` in order. A game's screens live in its
own folder (``tshirt/``, ``meme/``, ``gsm/``); what every game uses lives in
``shared/``. A game the host offers but this table lacks gets the shared
"cannot show this game" and results screens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from partyhost.tui.gsm import help as gsm_help
from partyhost.tui.gsm.four_corners import FourCornersScreen
from partyhost.tui.gsm.gridiron import GridironScreen
from partyhost.tui.gsm.results import GsmResultsScreen
from partyhost.tui.gsm.scramble import ScrambleScreen
from partyhost.tui.gsm.stealing_home import StealingHomeScreen
from partyhost.tui.meme import help as meme_help
from partyhost.tui.meme.dialogs import LastTurnScreen, WriteScenarioScreen
from partyhost.tui.meme.results import MemeResultsScreen
from partyhost.tui.meme.screen import MemeScreen
from partyhost.tui.shared.base import PartyScreen
from partyhost.tui.shared.connect import ConnectScreen
from partyhost.tui.shared.lobby import LobbyScreen
from partyhost.tui.shared.results import ResultsScreen
from partyhost.tui.shared.room import RoomScreen
from partyhost.tui.shared.unsupported import UnsupportedGameScreen
from partyhost.tui.tshirt import help as tshirt_help
from partyhost.tui.tshirt.dialogs import BooyahScreen
from partyhost.tui.tshirt.results import TShirtResultsScreen
from partyhost.tui.tshirt.screen import TShirtScreen
from textual.binding import BindingType
from textual.screen import Screen

Places = list[tuple[str, list[BindingType]]]
"""Where keys work ("The T-Shirt Game", "Booyah choice") and the bindings that work there."""


@dataclass(frozen=True)
class GameScreens:
    """One game as the client shows it: its table, its results and its help page."""

    title: str
    table: type[PartyScreen]
    results: type[ResultsScreen]
    rules: str
    """How to play, for the help (paragraphs; lines are joined when shown)."""
    dialogs: tuple[tuple[str, type[Screen[Any]]], ...] = field(default=())
    """The game's dialogs with keys of their own, as the help names them."""

    def keys(self) -> Places:
        """The table's keys, then each dialog's, read from their bindings."""
        return [
            (self.title, list(self.table.BINDINGS)),
            *((place, list(screen.BINDINGS)) for place, screen in self.dialogs),
        ]


GAMES: dict[str, GameScreens] = {
    "tshirt": GameScreens(
        "The T-Shirt Game",
        TShirtScreen,
        TShirtResultsScreen,
        tshirt_help.RULES,
        (("Booyah choice", BooyahScreen),),
    ),
    "stealing-home": GameScreens(
        "Stealing Home", StealingHomeScreen, GsmResultsScreen, gsm_help.STEALING_HOME
    ),
    "scramble": GameScreens("Scramble", ScrambleScreen, GsmResultsScreen, gsm_help.SCRAMBLE),
    "gridiron": GameScreens("Gridiron", GridironScreen, GsmResultsScreen, gsm_help.GRIDIRON),
    "four-corners": GameScreens(
        "Four Corners", FourCornersScreen, GsmResultsScreen, gsm_help.FOUR_CORNERS
    ),
    "meme": GameScreens(
        "What Do You Meme?",
        MemeScreen,
        MemeResultsScreen,
        meme_help.RULES,
        (("Writing a scenario", WriteScenarioScreen), ("Last turn", LastTurnScreen)),
    ),
}
"""Every game the client has screens for, in the order the help lists them."""

SHARED_SCREENS: dict[str, type[PartyScreen]] = {
    "connect": ConnectScreen,
    "lobby": LobbyScreen,
    "room": RoomScreen,
}
"""The main screens that are the same whatever the game."""


def main_screen(kind: str, game: str = "") -> PartyScreen:
    """A fresh main screen of ``kind`` (connect, lobby, room, game, results) for ``game``."""
    shared = SHARED_SCREENS.get(kind)
    if shared is not None:
        return shared()
    screens = GAMES.get(game)
    if kind == "game":
        return screens.table() if screens else UnsupportedGameScreen()
    if kind == "results":
        return screens.results() if screens else ResultsScreen()
    raise ValueError(f"no main screen of kind {kind!r}")
