"""Which screens draw which game: the one table from a game id to its screens, help and
replay parts (a game it lacks gets the shared "cannot show this game" and results)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from partyhost.tui.gsm import text as gsm_text
from partyhost.tui.meme import text as meme_text
from partyhost.tui.shared.base import PartyScreen
from partyhost.tui.shared.connect import ConnectScreen
from partyhost.tui.shared.gametable import UnsupportedGameScreen
from partyhost.tui.shared.lobbyscreen import LobbyScreen
from partyhost.tui.shared.replayparts import PLAIN, ReplayParts
from partyhost.tui.shared.results import ResultsScreen
from partyhost.tui.shared.roomscreen import RoomScreen
from partyhost.tui.tshirt import text as tshirt_text
from textual.binding import BindingType
from textual.screen import Screen

Places = list[tuple[str, list[BindingType]]]
"""Where keys work ("The T-Shirt Game", "Booyah choice") and the bindings that work there."""


@dataclass(frozen=True)
class Screens:
    """A game's screen classes: its table, its results, and its dialogs that have keys."""

    table: type[PartyScreen]
    results: type[ResultsScreen]
    dialogs: tuple[tuple[str, type[Screen[Any]]], ...] = field(default=())
    """Each dialog with the name the help gives the place its keys work."""


@dataclass(frozen=True)
class GameScreens:
    """One game as the client shows it: its title, its rules for the help, its screens
    (imported by ``load`` only when first needed, so starting pays for no game)."""

    title: str
    rules: str
    """How to play, for the help (paragraphs; lines are joined when shown)."""
    load: Callable[[], Screens]
    replay: Callable[[], ReplayParts] = lambda: PLAIN
    """How a replay of this game draws its table and words its log (imported when needed)."""
    real_time: bool = False
    """Played against the clock, not in turns: ``partyhost play`` pauses it for dialogs."""

    def keys(self) -> Places:
        """The table's keys, then each dialog's, read from their bindings."""
        screens = self.load()
        return [
            (self.title, list(screens.table.BINDINGS)),
            *((place, list(screen.BINDINGS)) for place, screen in screens.dialogs),
        ]


def _named(path: str) -> Any:
    """``module:Name`` under ``partyhost.tui``, imported now (not when the client starts)."""
    module, name = path.split(":")
    return getattr(importlib.import_module(f"partyhost.tui.{module}"), name)


def _later(path: str) -> Callable[[], Any]:
    return lambda: _named(path)


def _screens(table: str, results: str, *dialogs: tuple[str, str]) -> Callable[[], Screens]:
    """A game's screens named ``module:Class``, each dialog with the help's name for it."""
    return lambda: Screens(
        _named(table), _named(results), tuple((place, _named(path)) for place, path in dialogs)
    )


GSM_RESULTS = "gsm.results:GsmResultsScreen"
GAMES: dict[str, GameScreens] = {
    "tshirt": GameScreens(
        "The T-Shirt Game",
        tshirt_text.RULES,
        _screens(
            "tshirt.screen:TShirtScreen",
            "tshirt.results:TShirtResultsScreen",
            ("Booyah choice", "tshirt.dialogs:BooyahScreen"),
        ),
        _later("tshirt.replay:PARTS"),
    ),
    "stealing-home": GameScreens(
        "Stealing Home",
        gsm_text.RULES["stealing-home"],
        _screens("gsm.screen:StealingHomeScreen", GSM_RESULTS),
        _later("gsm.replay:PARTS"),
        real_time=True,
    ),
    "scramble": GameScreens(
        "Scramble",
        gsm_text.RULES["scramble"],
        _screens("gsm.screen:ScrambleScreen", GSM_RESULTS),
        _later("gsm.replay:SCRAMBLE"),
        real_time=True,
    ),
    "gridiron": GameScreens(
        "Gridiron",
        gsm_text.RULES["gridiron"],
        _screens("gsm.screen:GridironScreen", GSM_RESULTS),
        _later("gsm.replay:CARDS_DOWN"),
    ),
    "four-corners": GameScreens(
        "Four Corners",
        gsm_text.RULES["four-corners"],
        _screens("gsm.screen:FourCornersScreen", GSM_RESULTS),
        _later("gsm.replay:CARDS_DOWN"),
        real_time=True,
    ),
    "meme": GameScreens(
        "What Do You Meme?",
        meme_text.RULES,
        _screens(
            "meme.screen:MemeScreen",
            "meme.results:MemeResultsScreen",
            ("Writing a scenario", "meme.dialogs:WriteScenarioScreen"),
            ("Last turn", "meme.dialogs:LastTurnScreen"),
        ),
        _later("meme.replay:PARTS"),
    ),
}
"""Every game the client has screens for, in the order the help lists them."""

SHARED_SCREENS: dict[str, type[PartyScreen]] = {
    "connect": ConnectScreen,
    "lobby": LobbyScreen,
    "room": RoomScreen,
}
"""The main screens that are the same whatever the game."""


def is_real_time(game: str) -> bool:
    """Whether ``game`` is played against the clock (a race), as far as this client knows."""
    known = GAMES.get(game)
    return known is not None and known.real_time


def main_screen(kind: str, game: str = "") -> PartyScreen:
    """A fresh main screen of ``kind`` (connect, lobby, room, game, results) for ``game``."""
    shared = SHARED_SCREENS.get(kind)
    if shared is not None:
        return shared()
    known = GAMES.get(game)
    screens = known.load() if known else None
    if kind == "game":
        return screens.table() if screens else UnsupportedGameScreen()
    if kind == "results":
        return screens.results() if screens else ResultsScreen()
    raise ValueError(f"no main screen of kind {kind!r}")


def replay_parts(game: str) -> ReplayParts:
    """How replays of ``game`` are drawn and told (plain data for a game this client lacks)."""
    known = GAMES.get(game)
    return known.replay() if known else PLAIN
