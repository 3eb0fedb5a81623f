"""What every partyhost screen shares: typed access to the app and its state, and the title bar."""

from __future__ import annotations

from operator import attrgetter
from typing import Any, ClassVar, Generic, TypeVar, cast

from partyhost.tui.party import Party
from partyhost.tui.text import Glyphs, literal
from rich.text import Text
from textual import events
from textual.app import App
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

ResultT = TypeVar("ResultT")
SOLO_QUIT = "Quit? It is just you and the bots here, so the game ends when you go."
HELP_KEY = Binding("f1", "app.help", "Help")
"""A dialog hides the app's keys, so each dialog offers Help itself, last in its footer."""
PAGE_KEYS: list[BindingType] = [
    Binding("pagedown", "page(1)", "Down", key_display="pgdn", priority=True),
    Binding("pageup", "page(-1)", "Up", key_display="pgup", priority=True),
]
"""A dialog's page keys, in its footer while what it shows is taller than the screen: a
finger cannot scroll a browser page's terminal."""


class PartyView:
    """Typed access to the app and its state, for every screen and dialog."""

    app: App[Any]

    @property
    def party(self) -> Party:
        return cast("Party", self.app)

    @property
    def glyphs(self) -> Glyphs:
        return self.party.glyphs

    def is_owner(self) -> bool:
        """Whether this client's seat owns the room."""
        seat = self.party.seat
        return seat is not None and (self.party.room or {}).get("owner") == seat

    _styled_under: tuple[object, ...] | None = None
    """What the app's styles were made of when this screen's were last applied in full."""

    def _style_sources(self) -> tuple[object, ...]:
        """Everything outside this screen its styles depend on: the app's parsed rules (a new
        theme or another screen's CSS parses them again), its classes and pseudo-classes."""
        app = self.app
        return (app.stylesheet.rules, app.classes, app.pseudo_classes)

    async def _on_compose(self, event: events.Compose) -> None:
        """Take the width's class before the widgets are made, not at the first resize (after
        they were styled, and styled again for it)."""
        self._take_width_class(self.app.size.width)

    def _take_width_class(self, width: int) -> None:
        """The class of the widest horizontal breakpoint ``width`` reaches, and no other."""
        screen = cast("Screen[Any]", self)
        breakpoints = screen.HORIZONTAL_BREAKPOINTS or self.app.HORIZONTAL_BREAKPOINTS or []
        reached = [(least, name) for least, name in breakpoints if width >= least]
        chosen = max(reached)[1] if reached else None
        screen.update_classes({name: name == chosen for _, name in breakpoints})

    def _on_mount(self, _event: events.Mount) -> None:
        self._styled_under = self._style_sources()

    async def _on_resize(self, event: events.Resize) -> None:
        """Leave out Textual's second layout of a screen at the size it was just laid out at,
        and of every screen beneath it; the width's class is still taken."""
        if cast("Screen[Any]", self).outer_size == event.size:
            event.stop()
            event.prevent_default()
            self._take_width_class(event.size.width)

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        """Leave out Textual's full restyle of a screen coming back on top when nothing its
        styles depend on changed: most of the work of showing a dialog again."""
        sources = self._style_sources()
        if self._styled_under is not None and all(
            now is then or now == then
            for now, then in zip(sources, self._styled_under, strict=True)
        ):
            event.refresh_styles = False
        self._styled_under = sources


class PartyScreen(PartyView, Screen[None]):
    """A main screen; ``KIND`` tells the app's router which one is showing."""

    KIND: ClassVar[str] = ""

    @property
    def on_stage(self) -> bool:
        """Still one of the app's screens: once the router swapped it out (even before it
        mounted), its widgets are going and a queued redraw must do nothing."""
        return self.display and self.is_attached and self in self.app.screen_stack

    def footer_key_display(self, binding: Binding) -> str | None:
        """What the footer shows for ``binding``'s keys now (None: what the binding says)."""
        return None


class PartyModal(PartyView, ModalScreen[ResultT], Generic[ResultT]):
    """A dialog over a main screen; Escape closes it without a result (``close``). One that
    lists :data:`PAGE_KEYS` pages through its :meth:`page_scroller`."""

    _watched_scrollers: tuple[ScrollableContainer, ...] = ()

    def action_close(self) -> None:
        self.dismiss(None)

    def page_scroller(self) -> ScrollableContainer | None:
        """The area the page keys scroll, if the dialog has one."""
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The page keys only while the area is taller than the screen, dimmed at its end."""
        if action != "page":
            return super().check_action(action, parameters)
        scroller = self.page_scroller()
        if scroller is None or scroller.max_scroll_y <= 0:
            return False
        if scroller not in self._watched_scrollers:
            self._watched_scrollers = (*self._watched_scrollers, scroller)
            self.watch(scroller, "scroll_y", self.refresh_bindings, init=False)
        down = not parameters or int(str(parameters[0])) > 0
        more = scroller.scroll_y < scroller.max_scroll_y if down else scroller.scroll_y > 0
        return True if more else None  # dimmed at its end, in its place for the finger

    def action_page(self, direction: int) -> None:
        scroller = self.page_scroller()
        if scroller is None:
            return
        if direction > 0:
            scroller.scroll_page_down(animate=False)
        else:
            scroller.scroll_page_up(animate=False)

    def on_resize(self) -> None:
        self.call_after_refresh(self.refresh_bindings)  # the page keys, if it now scrolls

    def dismiss(self, result: ResultT | None = None) -> AwaitComplete:
        """Close this dialog, only while it is on top: Textual pops whatever screen is on top,
        and a second close would answer the caller twice (``InvalidStateError``)."""
        if not self.is_active:
            done: AwaitComplete = AwaitComplete.nothing()  # type: ignore[no-untyped-call]
            return done
        return super().dismiss(result)


_LOOKS = attrgetter("style", "justify", "overflow", "no_wrap")
"""What a Text draws besides its characters and spans."""


def show_text(widget: Static, content: Text | str) -> None:
    """Update ``widget`` only if its text changed, and lay the screen out (the dearest part of
    a redraw) only if its size did."""
    old = widget.content
    if isinstance(old, Text) and isinstance(content, Text):
        # Text's == compares only the characters and their spans, not the whole line's style.
        same = old == content and _LOOKS(old) == _LOOKS(content)
    else:
        same = type(old) is type(content) and old == content
    if same:
        return
    rows = widget.content_size.height
    widget.update(content, layout=False)
    if resizes(widget, rows):
        widget.refresh(layout=True)


def resizes(widget: Static, rows: int) -> bool:
    """Whether ``widget``'s new content may change its size (it had ``rows`` rows of content);
    only a widget laid out already, of a fixed width, can tell."""
    styles = widget.styles
    width = widget.content_size.width
    if not widget.is_mounted or not width or (styles.width is not None and styles.width.is_auto):
        return True  # no width set: the widget fills its container, whatever it says
    height = styles.height
    if height is not None and not height.is_auto:
        return False
    return content_rows(widget, width) != rows


def content_rows(widget: Widget, width: int) -> int:
    """Rows ``widget``'s content takes at ``width`` columns, measured afresh."""
    widget.clear_cached_dimensions()
    return widget.get_content_height(widget.size, widget.app.size, width)


def deck_title(welcome: dict[str, Any] | None, game: object, deck: object) -> str:
    """A deck's title ("Classic") from the welcome, or its file name if unknown."""
    for description in (welcome or {}).get("games", []):
        if description.get("id") == game:
            for entry in description.get("decks", []):
                if entry.get("name") == deck:
                    return str(entry.get("title") or deck)
    return str(deck or "default")


def decks_title(welcome: dict[str, Any] | None, room: dict[str, Any]) -> Text:
    """The decks a room plays, by title: ``Classic + Office party (sent)``."""
    decks = [d for d in room.get("decks") or [] if isinstance(d, dict)]
    if not decks:
        return literal(deck_title(welcome, room.get("game"), room.get("deck")))
    text = Text()
    for number, deck in enumerate(decks):
        text.append(" + " if number else "")
        text.append_text(literal(deck.get("title") or deck.get("name") or "?"))
        if deck.get("source") == "upload":
            text.append(" (sent)", "dim")
    return text


def seat_name(room: dict[str, Any] | None, seat: object) -> str:
    """The name at ``seat`` as plain text (callers wrap it with ``literal``)."""
    if not isinstance(seat, int) or room is None:
        return "?" if seat is None else f"seat {seat}"
    for entry in room.get("seats", []):
        if isinstance(entry, dict) and entry.get("seat") == seat:
            return str(entry.get("name", f"seat {seat}"))
    return f"seat {seat}"


class TitleBar(Static):
    """The title bar every screen shows: ``partyhost``, then what the screen says (Textual's
    Header carries a clock and an icon that would break snapshots and ``--ascii``)."""

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
        self._line = Text()
        self._tail: Text | None = None
        self.set_parts(*parts)

    def set_parts(self, *parts: Text | str, tail: Text | None = None) -> None:
        """Set what follows the app name; ``str`` parts are trusted, ``Text`` ones literal.
        ``tail`` goes at the right-hand end, on a second row if the first has no room."""
        line = Text.assemble(("partyhost", "bold"))
        for part in parts:
            line.append("  ")
            line.append(part if isinstance(part, Text) else Text(part, style="dim"))
        self._line, self._tail = line, tail
        self._show()

    def on_resize(self) -> None:
        self._show()

    def _show(self) -> None:
        line, tail = self._line, self._tail
        rows: int | None = None
        if tail is not None and self.is_mounted:
            width = self.content_size.width
            line = line.copy()
            gap = width - line.cell_len - tail.cell_len
            if gap >= 2 or self.app.has_class("-upright") or width <= tail.cell_len:
                line.append(" " * max(2, gap))
            else:  # too long for one row: the tail takes the right-hand end of a second
                line.truncate(width, overflow="ellipsis")
                line.append("\n" + " " * (width - tail.cell_len))
                rows = 2
            line.append_text(tail)
        show_text(self, line)
        self._fit_rows(rows)

    def _fit_rows(self, rows: int | None) -> None:
        """Upright, the title takes the rows its words need, up to three; else ``rows``
        (None: one)."""
        if not self.is_mounted:
            return
        if self.app.has_class("-upright"):
            width = max(1, self.app.size.width - 2)
            content = self.content
            text = content if isinstance(content, Text) else Text(str(content))
            rows = min(3, len(text.wrap(self.app.console, width)))
        held = self.styles.inline.height
        if rows != (None if held is None else int(held.value)):
            self.styles.height = rows
