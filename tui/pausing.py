"""Asking the host to pause: the owner's ``P``, and ``partyhost play``'s dialogs.

Against bots alone, any dialog over a real-time game pauses it until it closes, so
reading the help loses no round; a pause asked for with ``P`` stays.
"""

from __future__ import annotations

from typing import Any, cast

from partyhost.tui.games import is_real_time
from partyhost.tui.party import Party
from textual.app import App
from textual.screen import ModalScreen


class Pauser:
    """Sends ``pause_game`` and ``resume_game`` for the app, and remembers why it paused."""

    def __init__(self, app: App[Any], *, with_dialogs: bool) -> None:
        self.app = app
        self.party = cast(Party, app)
        self.with_dialogs = with_dialogs
        self.for_dialog = False
        """The game is paused because a dialog is open: closing it resumes."""

    @property
    def paused(self) -> bool:
        return bool((self.party.room or {}).get("paused"))

    def toggle(self) -> None:
        """The owner's ``P``: pause, or resume (a pause made for a dialog becomes theirs)."""
        if self.for_dialog:
            self.for_dialog = False
            self.app.notify("The game stays paused after this dialog: P resumes it.")
        elif self.paused:
            self.party.requests.resume_game()
        else:
            self.party.requests.pause_game()

    def dialog_opened(self) -> None:
        """A screen went over the game's table: pause if it is a dialog over a real-time game."""
        party, room = self.party, self.party.room or {}
        if not self.with_dialogs or self.for_dialog or self.paused:
            return
        if not isinstance(self.app.screen, ModalScreen) or party.link != "online":
            return
        if getattr(self.app.screen, "holds_the_clock", False):
            return  # a round's result: the host holds the game's clock already
        owner = party.seat is not None and room.get("owner") == party.seat
        if owner and room.get("status") == "playing" and is_real_time(str(room.get("game"))):
            self.for_dialog = party.requests.pause_game()

    def dialog_closed(self) -> None:
        """The table is on top again: undo a pause made for the dialog."""
        if self.for_dialog:
            self.for_dialog = False
            if self.paused:
                self.party.requests.resume_game()

    def left_room(self) -> None:
        self.for_dialog = False
