"""Slogan cards in a numbered rack: your hand, or the slogans on the table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from partyhost.tui.shared.base import content_rows
from partyhost.tui.shared.picks import PickCard, PickRack
from partyhost.tui.text import literal
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll

NUMBER_WIDTH = 3
"""Columns of a card's number: a marker and up to two digits."""


@dataclass(frozen=True)
class CardFace:
    """What one card in the rack shows, decided by the screen from the view."""

    text: str
    playable: bool = False
    face_down: bool = False
    tag: str = ""
    """A short note after the text: ``yours``, ``on the table``..."""


class SloganCard(PickCard[CardFace]):
    """One slogan with its number, one widget (a two-column grid) so a rack handles each card as
    one node."""

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
    """

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.line = Text()
        """The slogan as shown, after the number (its tag included)."""

    def render(self) -> RenderableType:
        # A marker besides the colour, so the chosen card shows on any terminal.
        marker = ">" if self.selected else " "
        grid = Table.grid()
        grid.add_column(width=NUMBER_WIDTH, no_wrap=True)
        grid.add_column(ratio=1)
        grid.add_row(Text.assemble((f"{marker}{self.number}", "bold")), self.line)
        return grid

    def watch_selected(self) -> None:
        self.refresh()  # the marker; the card keeps its size

    def show(self, face: CardFace, shade: str) -> None:
        if face == self.face:
            return
        old = self.face
        self.face = face
        # One restyle of the card for both classes.
        self.update_classes({"-playable": face.playable, "-face-down": face.face_down})
        if old is not None and (old.text, old.face_down, old.tag) == (
            face.text,
            face.face_down,
            face.tag,
        ):
            return  # only the look changed: the classes repaint it
        line = Text()
        if face.face_down:
            line.append(shade * 14)
        else:
            line.append_text(literal(face.text))
        if face.tag:
            line.append(f"  ({face.tag})", "italic")
        rows, width = self.content_size.height, self.content_size.width
        self.line = line
        # A layout of the screen only if the new text wraps into more or fewer rows.
        same_rows = self.is_mounted and width > 0 and content_rows(self, width) == rows
        self.refresh(layout=not same_rows)


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
