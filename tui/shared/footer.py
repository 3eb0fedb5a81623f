"""The footer every screen shows: Textual's, and on a phone held upright its keys in rows.

Upright, one row of keys would run past the edge where no finger reaches, so the keys
stand in a grid: the focused widget's keys on rows of their own, then the screen's, then
the app's; docked at the bottom and growing upwards, a key a finger learned stays in its
place. It is rebuilt only when what it shows changes: a tap that lands while Textual
replaces the keys is lost.
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Static
from textual.widgets._footer import FooterKey

UPRIGHT = 60
"""Columns below which the app is upright: parts stack, the footer wraps."""
COLUMNS = 2
"""Keys a row on an upright footer: each cell is half the width, wide enough for every label."""


def is_upright(app: App[Any]) -> bool:
    """Whether the terminal is narrower than :data:`UPRIGHT` columns."""
    return app.size.width < UPRIGHT


Shown = tuple[object, ...]
"""What a footer draws, to tell whether it must be drawn again."""


class KeyFooter(Footer):
    """Textual's footer, in rows of keys that keep their places on an upright terminal."""

    _drawn: Shown | None = None

    def _keys(self) -> list[tuple[int, Binding, bool, str]]:
        """The keys shown, each ranked by where it works: the focused widget 0, the screen 1,
        the app 2."""
        screen, app = self.screen, self.app
        return [
            (2 if node is app else 1 if node is screen else 0, binding, enabled, tooltip)
            for node, binding, enabled, tooltip in screen.active_bindings.values()
            if binding.show
        ]

    def _shown(self) -> Shown:
        """The keys as they would be drawn now: each with its place, label and state."""
        # A binding is a frozen dataclass: equal when its key, action and words are.
        keys = tuple((*key, self.app.get_key_display(key[1])) for key in self._keys())
        return (self.app.has_class("-upright"), self.show_command_palette, keys)

    async def recompose(self) -> None:
        """Rebuild the keys only when they changed, so that no tap meets a footer in flux."""
        if not self.is_attached or not self._bindings_ready:
            await super().recompose()
            return
        shown = self._shown()
        if shown == self._drawn and self.children:
            return
        self._drawn = shown
        await super().recompose()

    def compose(self) -> ComposeResult:
        if not self.app.has_class("-upright"):
            yield from super().compose()
            return
        if not self._bindings_ready:
            return
        shown: dict[str, tuple[int, Binding, bool, str]] = {}
        for key in self._keys():
            shown.setdefault(key[1].action, key)
        keys = sorted(shown.values(), key=lambda key: key[0])
        self.styles.grid_size_columns = COLUMNS
        focused = sum(1 for key in keys if key[0] == 0)
        for number, (_rank, binding, enabled, tooltip) in enumerate(keys):
            if number == focused:  # the focused widget's keys fill whole rows
                for _ in range(-focused % COLUMNS):
                    yield Static(classes="-filler")  # blank: a bare Widget shows its name
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                disabled=not enabled,
                tooltip=tooltip,
            ).data_bind(compact=Footer.compact)
