"""What The T-Shirt Game's and What Do You Meme?'s tables do alike.

Both redraw from the app's view, room and events; both count the view's
deadline down in the status line, keep the chat beside the table on wide
terminals, and treat a click on a numbered card as the keys a person would
press: the first click chooses the card, a click on the chosen one plays it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from partyhost.tui.shared.chat import ChatPanel, ChatScreen
from partyhost.tui.shared.dialogs import ConfirmScreen
from partyhost.tui.shared.gametable import GameScreen
from partyhost.tui.shared.moment import follow_pause
from partyhost.tui.shared.picks import PickCard, PickRack
from partyhost.tui.text import clock_text
from rich.text import Text
from textual import on
from textual.timer import Timer
from textual.widgets import Static

WIDE = 110
"""Columns from which the chat and each game's extras get their own space (see the .tcss)."""


class TableScreen(GameScreen):
    """A game's table with a status clock, a log, a chat panel and a rack of numbered cards."""

    LEAVE_QUESTION: ClassVar[str] = "Leave this game?"

    def __init__(self) -> None:
        super().__init__()
        self._clock: Timer | None = None

    def on_mount(self) -> None:
        self.watch(self.app, "view", self._show_view)
        self.watch(self.app, "room", self._show_view, init=False)
        self.watch(self.app, "events", self._show_log)
        self.watch(self.app, "room", self._names_changed)
        self.watch(self.app, "room", lambda: follow_pause(self), init=False)

    def on_resize(self) -> None:
        self._show_view()

    # --- what each game draws its own way -----------------------------------------

    def _show_view(self) -> None:
        """Redraw everything from the view."""
        raise NotImplementedError

    def status(self) -> Text:
        """The status line for the view (the clock is added after it)."""
        raise NotImplementedError

    def picks(self) -> PickRack[Any]:
        """The rack whose numbered cards the number keys and clicks choose from."""
        raise NotImplementedError

    def action_choose(self, number: int) -> None:
        raise NotImplementedError

    def play_chosen(self) -> None:
        """Enter: play the chosen card."""
        raise NotImplementedError

    # --- shared ---------------------------------------------------------------

    def _wide(self) -> bool:
        return self.app.size.width >= WIDE

    def redraw_table(self) -> None:
        self._show_view()

    def _show_status(self) -> None:
        if not self.on_stage:
            return
        line = self.status()
        deadline = self.view.get("deadline")
        if isinstance(deadline, int | float) and deadline > 0:
            left = max(0, round(deadline - self.game_time()))
            line = Text.assemble(clock_text(left), " ", line)
            if self._clock is None:
                self._clock = self.set_interval(1, self._show_status)
        elif self._clock is not None:
            self._clock.stop()
            self._clock = None
        self.query_one("#status", Static).update(Text.assemble(self.pause_note(), line))

    @on(PickCard.Chosen)
    def _card_clicked(self, event: PickCard.Chosen) -> None:
        if self.picks().highlighted == event.number:
            self.play_chosen()
        else:
            self.action_choose(event.number)

    def action_chat(self) -> None:
        if self._wide():
            self.query_one(ChatPanel).focus_input()
        else:
            self.app.push_screen(ChatScreen())

    def action_leave(self) -> None:
        self.app.push_screen(ConfirmScreen(*self.leave_question(self.LEAVE_QUESTION)), self._leave)
