"""``partyhost replay GAME``: the replay screen on its own, without a host to talk to.

The replay was built (from a data folder) or fetched (from a host) before the
app starts; the app only shows it and ends when the screen is closed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from partyhost.tui.replay.screen import ReplayScreen
from partyhost.tui.text import glyphs_for
from partyhost.tui.toasts import guard_toasts
from textual.app import App

Frame = dict[str, Any]


class ReplayApp(App[int]):
    """One replay, full screen; Escape or q closes it (and the app)."""

    TITLE = "partyhost replay"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, info: Frame, steps: Sequence[Frame], *, ascii_only: bool = False) -> None:
        guard_toasts()
        self.info = info
        self.steps = list(steps)
        self.ascii_only = ascii_only
        super().__init__()

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {"edge": "ascii" if self.ascii_only else "round"}

    def on_mount(self) -> None:
        if not self.is_headless and self.console.color_system in ("standard", "windows"):
            self.theme = "ansi-dark"
        screen = ReplayScreen(
            self.info, self.steps, glyphs_for(self.ascii_only), ascii_only=self.ascii_only
        )
        self.push_screen(screen, lambda _: self.exit(0))


def run_replay_viewer(info: Frame, steps: Sequence[Frame], ascii_only: bool) -> int:
    result = ReplayApp(info, steps, ascii_only=ascii_only).run()
    return result if isinstance(result, int) else 0
