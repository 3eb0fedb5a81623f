"""Taking a seat back by name: "Ann is back?" for the person the host asks, and the visitor's
wait; when the time runs out the host has taken silence for no, so nothing is sent."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from partyhost.tui.shared.base import show_text
from partyhost.tui.shared.dialogs import ConfirmScreen
from partyhost.tui.text import literal
from rich.text import Text
from textual.app import App
from textual.widgets import Static


def reclaim_question(name: str, seconds_left: int) -> Text:
    """``Ann is back? Someone joined as Ann ...``, with the seconds left to answer."""
    return Text.assemble(
        literal(name, "bold"),
        " is back? (y/n)\nSomeone joined under the name ",
        literal(name),
        " to take that seat back, hand and score included. Say yes only if it is really them.\n",
        (f"{max(0, seconds_left)} s left; no answer counts as no.", "italic"),
    )


class ReclaimAskScreen(ConfirmScreen):
    """The host's question to this player: is the visitor the absent player they claim?"""

    def __init__(
        self, name: str, seconds: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.name_asked = name
        self._clock = clock
        self.ends = clock() + seconds
        self.expired = False
        """The time to answer ran out: the host has answered no already."""
        super().__init__(reclaim_question(name, self.seconds_left()), "Yes, it's them")

    def seconds_left(self) -> int:
        return math.ceil(self.ends - self._clock())

    def on_mount(self) -> None:
        self.set_interval(1.0, self.tick)

    def tick(self) -> None:
        """Count down; close (answering nothing) when the time is up."""
        left = self.seconds_left()
        show_text(
            self.query_one("#confirm-question", Static), reclaim_question(self.name_asked, left)
        )
        if left <= 0 and not self.expired:
            self.expired = True
            self.dismiss(False)


def ask_about_reclaim(
    app: App[Any], ask: int, name: str, seconds: float, answer: Callable[[int, bool], object]
) -> None:
    """Put the host's question ``ask`` on screen; ``answer(ask, yes)`` once it is answered
    in time."""
    screen = ReclaimAskScreen(name, seconds)

    def answered(yes: bool | None) -> None:
        if not screen.expired:
            answer(ask, bool(yes))

    app.push_screen(screen, answered)


def waiting_words(name: str, seconds: float) -> str:
    """What the visitor reads while the table decides."""
    return (
        f"Waiting for the table to confirm that you are {name} (up to {math.ceil(seconds)} s)."
        " A name alone does not give a seat back; your seat token would."
    )
