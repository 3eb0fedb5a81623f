"""The one-line title bar every screen shows (instead of Textual's Header, which
carries a clock and an icon that would break snapshots and ``--ascii``)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class TitleBar(Static):
    """``partyhost`` on the left, then whatever the screen wants to say."""

    DEFAULT_CSS = """
    TitleBar {
        dock: top;
        height: 1;
        width: 1fr;
        background: $panel;
        color: $foreground;
        padding: 0 1;
    }
    """

    def __init__(self, *parts: Text | str, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_parts(*parts)

    def set_parts(self, *parts: Text | str) -> None:
        """Set what follows the app name; ``str`` parts are trusted, ``Text`` ones literal."""
        line = Text.assemble(("partyhost", "bold"))
        for part in parts:
            line.append("  ")
            line.append(part if isinstance(part, Text) else Text(part, style="dim"))
        self.update(line)
