"""Whether a screen shows all it means to: no text cut off, and Help offered in the footer.

Read from the widgets' own geometry rather than from the screen's text, so a
check names the widget that lost something and why:

- a container that cannot scroll (overflow hidden) but whose content is
  larger than it (text past its right edge or below its bottom is lost);
- a widget whose text needs more lines at its width than it is given
  (a fixed or capped height);
- a log whose lines were wrapped wider than the room its scrollbar leaves;
- a footer whose keys run past its right edge, or without the Help key.

A scrollable container with more content than room is fine (it scrolls),
and so is text shortened with an ellipsis on purpose.
"""

from __future__ import annotations

from typing import Any

from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import Footer, RichLog
from textual.widgets._footer import FooterKey

HELP_ACTIONS = {"help", "app.help"}


def _name(widget: Widget) -> str:
    ident = f"#{widget.id}" if widget.id else ""
    return f"{type(widget).__name__}{ident}"


def _shown(widget: Widget) -> bool:
    node: Any = widget
    while node is not None and isinstance(node, Widget):
        if not node.display or not node.visible:
            return False
        node = node.parent
    return widget.region.width > 0 and widget.region.height > 0


def _container_problems(widget: Widget) -> list[str]:
    """Content larger than a container that cannot scroll to it."""
    problems = []
    room = widget.scrollable_content_region
    content = widget.virtual_size
    styles = widget.styles
    if not widget.children or isinstance(widget, Footer):
        return problems
    if styles.overflow_x == "hidden" and content.width > room.width:
        problems.append(f"{_name(widget)}: content {content.width} wide in {room.width} columns")
    if styles.overflow_y == "hidden" and content.height > room.height:
        problems.append(f"{_name(widget)}: content {content.height} high in {room.height} lines")
    return problems


def _text_problems(widget: Widget) -> list[str]:
    """A leaf widget whose wrapped text needs more lines than it has."""
    if widget.children or widget.is_scrollable or isinstance(widget, RichLog):
        return []
    region = widget.content_region
    if region.width <= 0:
        return []
    needed = widget.get_content_height(widget.size, widget.app.size, region.width)
    if needed > region.height:
        return [f"{_name(widget)}: text needs {needed} lines, has {region.height}"]
    return []


def _log_problems(log: RichLog) -> list[str]:
    room = log.scrollable_content_region.width
    widest = max((line.cell_length for line in log.lines), default=0)
    if widest > room:
        return [f"{_name(log)}: a line {widest} wide in {room} columns"]
    return []


def _footer_problems(footer: Footer) -> list[str]:
    keys = [key for key in footer.query(FooterKey) if key.display]
    right = footer.region.right
    problems = [
        f"Footer: {key.key_display or key.key} {key.description!r} runs past the edge"
        for key in keys
        if key.region.right > right
    ]
    if not any(key.action in HELP_ACTIONS for key in keys) and not _is_help(footer.screen):
        problems.append("Footer: no Help key")
    return problems


def _is_help(screen: Any) -> bool:
    """The help screen's footer offers Close instead."""
    return type(screen).__name__ == "HelpScreen"


def layout_problems(app: Any) -> list[str]:
    """Everything cut off on the app's current screen (empty when all is shown)."""
    screen = app.screen
    problems: list[str] = []
    for widget in screen.walk_children(Widget):
        if not _shown(widget):
            continue
        if isinstance(widget, Footer):
            problems.extend(_footer_problems(widget))
        elif isinstance(widget, RichLog):
            problems.extend(_log_problems(widget))
        else:
            problems.extend(_container_problems(widget))
            problems.extend(_text_problems(widget))
    try:
        screen.query_one(Footer)
    except NoMatches:
        problems.append(f"{type(screen).__name__}: no footer")
    return problems
