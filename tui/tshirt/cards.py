"""Slogan cards in a numbered rack: your hand, or the slogans on the table.

A card is playable only when the screen says so (from the view's ``legal``);
number keys and clicks highlight it, Enter or a second click plays it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from partyhost.tui.shared.picks import PickCard, PickRack
from partyhost.tui.text import literal
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static


@dataclass(frozen=True)
class CardFace:
    """What one card in the rack shows, decided by the screen from the view."""

    text: str
    playable: bool = False
    face_down: bool = False
    tag: str = ""
    """A short note after the text: ``yours``, ``on the table``..."""


class SloganCard(Horizontal, PickCard[CardFace]):
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

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.text = Static(classes="card-text")

    def compose(self) -> ComposeResult:
        yield Static(self._number_label(), classes="card-number")
        yield self.text

    def _number_label(self) -> str:
        # A marker besides the colour, so the chosen card shows on any terminal.
        return f">{self.number}" if self.selected else f" {self.number}"

    def watch_selected(self) -> None:
        if self.is_mounted:  # the number's width is fixed: no layout of the whole screen
            self.query_one(".card-number", Static).update(self._number_label(), layout=False)

    def show(self, face: CardFace, shade: str) -> None:
        if face == self.face:
            return
        self.face = face
        # One restyle of the card for both classes (each restyle walks its children).
        self.update_classes({"-playable": face.playable, "-face-down": face.face_down})
        line = Text()
        if face.face_down:
            line.append(shade * 14)
        else:
            line.append_text(literal(face.text))
        if face.tag:
            line.append(f"  ({face.tag})", "italic")
        self.text.update(line)


class CardRack(VerticalScroll, PickRack[CardFace]):
    """A column of numbered cards that scrolls the highlighted one into sight."""

    DEFAULT_CSS = """
    CardRack { height: auto; max-height: 1fr; scrollbar-size-vertical: 1; }
    """

    def __init__(self, shade: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shade = shade

    def new_card(self, number: int) -> SloganCard:
        return SloganCard(number)

    def show(self, faces: Sequence[CardFace]) -> None:
        """Show these cards; the highlight survives if its card is still playable."""
        self.show_faces(faces, self, self.shade)

    def _paint(self) -> None:
        super()._paint()
        for card in self.cards:
            if card.selected and card.is_mounted:
                self.scroll_to_widget(card, animate=False)
