"""Which main screen the client's state calls for, and switching to it.

The app keeps one main screen (connect, lobby, room, game or results) above
Textual's default screen, with any dialogs above it. After each change the
host reports, :meth:`~partyhost.tui.app.PartyApp.route` asks
:func:`wanted_screen` which one the state calls for, and only when it differs
from the one shown does :func:`show_main_screen` close the dialogs and put the
new one in its place.
"""

from __future__ import annotations

from typing import Any

from textual.app import App

Frame = dict[str, Any]


def wanted_screen(welcome: Frame | None, link: str, room: Frame | None, view: Frame | None) -> str:
    """Which main screen a client with this welcome, link, room and view shows."""
    if welcome is None or link in ("offline", "connecting"):
        return "connect"
    if room is None:
        return "lobby"
    status = room.get("status")
    if status == "over" or (view is not None and view.get("phase") == "over"):
        return "results"
    if status == "playing" and view is not None:
        return "game"
    return "room"


def show_main_screen(app: App[Any], wanted: str, game: str) -> None:
    """Make ``wanted`` (for ``game``, a game id) the main screen, unless it already is."""
    from partyhost.tui.games import main_screen
    from partyhost.tui.shared.base import PartyScreen

    stack = app.screen_stack
    base = stack[1] if len(stack) > 1 else None
    if isinstance(base, PartyScreen) and wanted == base.KIND:
        return
    while len(app.screen_stack) > 2:
        app.pop_screen()
    if len(app.screen_stack) < 2:
        app.push_screen(main_screen(wanted, game))
    else:
        app.switch_screen(main_screen(wanted, game))
