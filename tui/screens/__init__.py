"""Full screens of the client: connect, lobby, room, one per game, results, help."""

from __future__ import annotations

from partyhost.tui.screens.base import PartyScreen


def main_screen(kind: str, game: str = "") -> PartyScreen:
    """A fresh main screen of ``kind`` (``game`` picks the game screen)."""
    from partyhost.tui.screens.connect import ConnectScreen
    from partyhost.tui.screens.lobby import LobbyScreen
    from partyhost.tui.screens.results import ResultsScreen
    from partyhost.tui.screens.room import RoomScreen
    from partyhost.tui.screens.unsupported import UnsupportedGameScreen

    if game == "meme" and kind in ("game", "results"):
        from partyhost.tui.screens.meme import meme_screen

        return meme_screen(kind)
    gsm = ("stealing-home", "scramble", "gridiron", "four-corners")
    if game in gsm and kind in ("game", "results"):
        from partyhost.tui.screens.gsm_variants import gsm_screen

        return gsm_screen(game, kind)
    if kind == "game":
        if game == "tshirt":
            from partyhost.tui.screens.tshirt import TShirtScreen

            return TShirtScreen()
        return UnsupportedGameScreen()
    screens: dict[str, type[PartyScreen]] = {
        "connect": ConnectScreen,
        "lobby": LobbyScreen,
        "room": RoomScreen,
        "results": ResultsScreen,
    }
    return screens[kind]()
