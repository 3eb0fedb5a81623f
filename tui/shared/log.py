"""The game log: the events this seat may see, with the host's notices and the table's chat
between them (a line said during a game is seen without opening the chat)."""

from __future__ import annotations

from collections.abc import Callable

from partyhost.tui.hostlink import CHAT, NOTICE
from partyhost.tui.shared.seats import seat_style
from partyhost.tui.text import Frame, literal
from rich.text import Text
from textual.events import Resize
from textual.widgets import RichLog

Describe = Callable[[Frame], Text | None]


LINE_LIMIT = 300
ROW_LIMIT = 4 * LINE_LIMIT
"""Screen rows a log keeps (a long line wraps into several): a flood cannot grow the client."""


def chat_text(line: Frame) -> Text:
    """``Ann: hi`` for people (for the chat panel and the log alike); host notices dim."""
    seat = line.get("seat")
    name = line.get("name") or ""
    if not name:
        return literal(line.get("text", ""), "dim italic")
    shown = literal(name, f"bold {seat_style(seat)}")
    if seat is None:
        shown.append(" (watching)", "dim")
    shown.append(": ")
    shown.append_text(literal(line.get("text", "")))
    return shown


class ReflowLog(RichLog):
    """A RichLog that wraps its lines again when its width changes (it wraps a line once,
    when written); every log keeps its scrollbar's column, or lines wrapped before the
    scrollbar appeared would lose their last character under it."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            max_lines=ROW_LIMIT, wrap=True, markup=False, auto_scroll=True, min_width=10, id=id
        )
        self.kept: list[Text] = []
        self._width = 0
        self._one_row = False
        self._last: Frame | None = None

    def follow(self, items: tuple[Frame, ...], line_of: Callable[[Frame], Text | None]) -> None:
        """Append the items after the last one shown (found by identity; all again if it is
        gone from them)."""
        start = next((n + 1 for n in range(len(items) - 1, -1, -1) if items[n] is self._last), 0)
        if start == 0 and self._last is not None:
            self.reset()
        for item in items[start:]:
            line = line_of(item)
            if line is not None:
                self.add(line)
        self._last = items[-1] if items else None

    def add(self, line: Text) -> None:
        self.kept.append(line)
        del self.kept[:-LINE_LIMIT]
        self.write(self._fitted(line))

    def _fitted(self, line: Text) -> Text:
        """``line`` as written: a log one row high (a short screen's side panel) shows each
        line's start, cut short, where the row would show the last piece of it wrapped."""
        region = self.scrollable_content_region
        if region.height != 1 or region.width < 2:
            return line
        cut = line.copy()
        cut.truncate(region.width, overflow="ellipsis")
        return cut

    def reset(self) -> None:
        self.kept.clear()
        self.clear()
        self._last = None

    def on_resize(self, event: Resize) -> None:
        one_row = self.scrollable_content_region.height == 1
        if event.size.width != self._width or one_row != self._one_row:
            self._width, self._one_row = event.size.width, one_row
            self.clear()
            for line in self.kept:
                self.write(self._fitted(line))


class GameLog(ReflowLog):
    """Appends new events as they arrive; the app keeps the (capped) history."""

    DEFAULT_CSS = """
    GameLog {
        height: 1fr;
        min-height: 3;
        background: transparent;
        border: $edge $border-blurred;
        border-title-color: $text-muted;
        scrollbar-size-vertical: 1;
        scrollbar-gutter: stable;
        overflow-x: hidden;
        overflow-y: auto;
        padding: 0 1;
    }
    """

    def __init__(self, describe: Describe, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.describe = describe
        self.border_title = "Log"
        self._events: tuple[Frame, ...] = ()

    def show(self, events: tuple[Frame, ...]) -> None:
        self.follow(events, self._line)
        self._events = events

    def _line(self, event: Frame) -> Text | None:
        """A game event in the game's words; a notice or a chat line as the table's."""
        if "kind" in event:
            return self.describe(event)
        notice = event.get(NOTICE)
        if notice is not None:
            return literal(notice, "italic")
        said = event.get(CHAT)
        if isinstance(said, dict):
            return Text.assemble(("said ", "dim"), chat_text(said))  # not read as a move
        return self.describe(event)

    def rename(self) -> None:
        """Describe every event shown again: the room's names changed (a seat that joined
        mid-game can be in a view before the room message that names it)."""
        self.reset()
        self.show(self._events)
