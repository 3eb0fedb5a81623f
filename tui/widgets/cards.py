"""Slogan cards in a numbered rack: your hand, or the slogans on the table.

A card is playable only when the screen says so (from the view's ``legal``);
number keys and clicks highlight it, Enter or a second click plays it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from partyhost.tui.text import literal
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static


@dataclass(frozen=True)
class CardFace:
    """What one card in the rack shows, decided by the screen from the view."""

    text: str
    playable: bool = False
    face_down: bool = False
    tag: str = ""
    """A short note after the text: ``yours``, ``on the table``..."""


class SloganCard(Horizontal):
    """One slogan with its number; styled by whether it can be played or is chosen."""

    DEFAULT_CSS = """
    SloganCard {
        height: auto;
        width: 1fr;
        padding: 0 1;
        border: $edge $panel-lighten-2;
        color: $text-muted;
    }
    SloganCard.-playable { border: $edge $primary; color: $foreground; }
    SloganCard.-playable:hover { background: $boost; }
    SloganCard.-selected { border: heavy $accent; background: $accent 15%; color: $foreground; }
    SloganCard.-face-down { color: $text-disabled; }
    SloganCard > .card-number { width: 3; text-style: bold; }
    SloganCard > .card-text { width: 1fr; }
    """

    selected: reactive[bool] = reactive(False, toggle_class="-selected")

    class Chosen(Message):
        """A card was clicked: first click highlights, a click on the highlighted one plays."""

        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def __init__(self, number: int) -> None:
        super().__init__()
        self.number = number
        self.face: CardFace | None = None
        self.text = Static(classes="card-text")

    def compose(self) -> ComposeResult:
        yield Static(self._number_label(), classes="card-number")
        yield self.text

    def _number_label(self) -> str:
        # A marker besides the colour, so the chosen card shows on any terminal.
        return f">{self.number}" if self.selected else f" {self.number}"

    def watch_selected(self) -> None:
        if self.is_mounted:
            self.query_one(".card-number", Static).update(self._number_label())

    def show(self, face: CardFace, shade: str) -> None:
        if face == self.face:
            return
        self.face = face
        self.set_class(face.playable, "-playable")
        self.set_class(face.face_down, "-face-down")
        line = Text()
        if face.face_down:
            line.append(shade * 14)
        else:
            line.append_text(literal(face.text))
        if face.tag:
            line.append(f"  ({face.tag})", "italic")
        self.text.update(line)

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Chosen(self.number))


class CardRack(VerticalScroll):
    """A column of numbered cards; the highlighted number lives here, not in CSS."""

    DEFAULT_CSS = """
    CardRack { height: auto; max-height: 1fr; scrollbar-size-vertical: 1; }
    """

    highlighted: reactive[int | None] = reactive(None)
    """1-based number of the highlighted card."""

    def __init__(self, shade: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shade = shade
        self.faces: tuple[CardFace, ...] = ()
        self.cards: list[SloganCard] = []

    def show(self, faces: Sequence[CardFace]) -> None:
        """Show these cards; the highlight survives if its card is still playable."""
        faces = tuple(faces)
        if len(self.cards) != len(faces):
            self.remove_children()
            self.cards = [SloganCard(number) for number in range(1, len(faces) + 1)]
            self.mount_all(self.cards)
        self.faces = faces
        for card, face in zip(self.cards, faces, strict=True):
            card.show(face, self.shade)
        if self.highlighted is not None and not self.is_playable(self.highlighted):
            self.highlighted = None
        self._paint()

    def is_playable(self, number: int) -> bool:
        return 1 <= number <= len(self.faces) and self.faces[number - 1].playable

    def watch_highlighted(self) -> None:
        self._paint()

    def _paint(self) -> None:
        for card in self.cards:
            card.selected = card.number == self.highlighted
            if card.selected and card.is_mounted:
                self.scroll_to_widget(card, animate=False)

    def move(self, step: int) -> None:
        """Highlight the next (or previous) playable card."""
        playable = [n for n in range(1, len(self.faces) + 1) if self.is_playable(n)]
        if not playable:
            return
        if self.highlighted not in playable:
            self.highlighted = playable[0] if step > 0 else playable[-1]
            return
        index = playable.index(self.highlighted)
        self.highlighted = playable[(index + step) % len(playable)]
