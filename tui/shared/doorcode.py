"""``w`` in the lobby: the host's browser door as a QR code, for a newcomer's phone camera
(half blocks, so a LAN URL's code fits 80x24; white on black whatever the theme)."""

from __future__ import annotations

from typing import ClassVar

from partyhost.net.qrdrawing import draw_qr
from partyhost.tui.shared.base import HELP_KEY, PartyModal
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.text import literal
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

ON_SCREEN_QUIET_ZONE = 2
"""Light modules around the code in the dialog: half the standard's four, which cameras
read off a screen, so a version 3 code (29 modules) still fits 24 rows with its URL."""
DIALOG_WIDTH = 64
EDGES = 6
"""Columns around the code: the dialog's border and padding, and room for a scroll bar."""
CODE_STYLE = "#ffffff on #000000"
"""Light ink, dark ground: the drawing's ink marks the light modules."""


class DoorCodeScreen(PartyModal[None]):
    """The browser door's URL and its QR code; Escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,w", "close", "Close"),
        HELP_KEY,
    ]
    DEFAULT_CSS = """
    DoorCodeScreen #door-code-scroll { height: auto; max-height: 1fr; align-horizontal: center; }
    DoorCodeScreen #door-code-drawing { width: auto; height: auto; }
    DoorCodeScreen #door-code-url { width: 1fr; content-align: center middle; }
    """

    def __init__(self, url: str, ascii_only: bool) -> None:
        super().__init__()
        self.url = url
        lines = draw_qr(url, ascii_only=ascii_only, border=ON_SCREEN_QUIET_ZONE)
        self.code = Text("\n".join(lines), style=CODE_STYLE, no_wrap=True, overflow="crop")

    def compose(self) -> ComposeResult:
        with Vertical(id="door-code", classes="dialog"):
            yield Static("Join from a phone", classes="dialog-title")
            with VerticalScroll(id="door-code-scroll"):
                yield Static(self.code, id="door-code-drawing")
            yield Static(literal(self.url, "bold"), id="door-code-url")
            yield Static("Point a phone's camera at the code. Escape closes this.", classes="hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        # As wide as the code and the dialog's edges (an ASCII code is twice as wide, so
        # wider than a dialog), never narrower than a dialog.
        code_width = max(line.cell_len for line in self.code.split())
        self.query_one("#door-code").styles.width = max(DIALOG_WIDTH, code_width + EDGES)
