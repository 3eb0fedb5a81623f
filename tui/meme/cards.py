"""Your seven memes, in your color: a grid of faces on roomy terminals, else a list of
captions with the highlighted meme's face beside it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from partyhost.tui.shared.picks import PickCard, PickRack
from partyhost.tui.text import clean, literal
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

FACE_WIDTH = 16
FACE_LINES = 6


def face_text(face: str, style: str = "") -> Text:
    """A meme's face: at most 16x6, its lines kept as drawn (never markup)."""
    lines = clean(face, multiline=True).rstrip("\n").split("\n")[:FACE_LINES]
    lines = [line.rstrip()[:FACE_WIDTH] for line in lines]
    text = Text(no_wrap=True, overflow="crop", style=style)
    text.append("\n".join(line.ljust(FACE_WIDTH) for line in lines))
    return text


@dataclass(frozen=True)
class MemeFace:
    """What one card shows, decided by the screen from the view."""

    meme: int
    caption: str
    face: str
    playable: bool = False
    tag: str = ""
    """``on the table`` for the meme you played."""


class MemeCard(PickCard[MemeFace]):
    """One meme; styled by whether it can be played, is highlighted, or is on the table."""

    DEFAULT_CSS = """
    MemeCard { height: 1; width: 1fr; padding: 0 1; color: $text-muted; }
    MemeCard.-playable { color: $foreground; }
    MemeCard.-playable:hover { background: $boost; }
    MemeCard.-selected { background: $accent 30%; color: $foreground; text-style: bold; }
    MemeCard.-played { color: $foreground; text-style: bold; }
    MemeCard > Static { width: 1fr; height: auto; }
    MemeCard > .meme-face { display: none; }
    """

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.style_name = ""
        self.line = Static(classes="meme-line")
        self.drawing = Static(classes="meme-face")

    def compose(self) -> ComposeResult:
        yield self.line
        yield self.drawing

    def show(self, face: MemeFace, style: str) -> None:
        if face == self.face and style == self.style_name:
            return
        self.face, self.style_name = face, style
        self.set_class(face.playable, "-playable")
        self.set_class(bool(face.tag), "-played")
        line = Text.assemble((f"{self.number} ", "bold"), literal(face.caption, style))
        if face.tag:
            line.append(f"  {face.tag}", "italic")
        self.line.update(line)
        self.drawing.update(face_text(face.face, "bold"))
        self.border_title = f"{self.number}"
        caption = literal(face.caption, "bold")
        if face.tag:
            caption.append(" *", "bold")
        self.border_subtitle = caption


class MemeHand(PickRack[MemeFace]):
    """Seven numbered memes, and the highlighted one's face drawn large beside them."""

    DEFAULT_CSS = """
    MemeHand { height: auto; border: $edge $primary-darken-1; border-title-color: $text-accent; }
    MemeHand > Horizontal { height: auto; }
    MemeHand #hand-cards { width: 24; height: auto; }
    MemeHand #hand-preview { width: 1fr; height: auto; min-height: 7; padding: 0 1; }
    MemeHand.-grid #hand-cards {
        width: 1fr;
        layout: grid;
        grid-size: 4;
        grid-gutter: 0 1;
        grid-columns: 18;
        grid-rows: 8;
    }
    MemeHand.-grid #hand-preview { display: none; }
    MemeHand.-grid MemeCard {
        height: 8;
        padding: 0;
        border: $edge $panel-lighten-2;
        border-title-align: left;
        border-subtitle-align: center;
    }
    MemeHand.-grid MemeCard > .meme-face { display: block; }
    MemeHand.-grid MemeCard > .meme-line { display: none; }
    MemeHand.-grid MemeCard.-playable { border: $edge $primary; }
    MemeHand.-grid MemeCard.-selected { border: $edge $accent; background: $accent 20%; }
    MemeHand.-grid MemeCard.-played { border: $edge $success; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.style_name = ""
        self.border_title = "Your memes"

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Vertical(id="hand-cards")
            yield Static(id="hand-preview")

    def new_card(self, number: int) -> MemeCard:
        return MemeCard(number)

    def show(self, faces: Sequence[MemeFace], style: str, title: str) -> None:
        """Show these memes in ``style`` (your color); the highlight survives if still playable."""
        self.border_title = title
        self.style_name = style
        self.show_faces(faces, self.query_one("#hand-cards"), style)

    def _paint(self) -> None:
        super()._paint()
        shown = self.highlighted
        if shown is None:
            shown = next((f for f in range(1, len(self.faces) + 1) if self.faces[f - 1].tag), None)
        preview = self.query_one("#hand-preview", Static)
        if shown is None or not 1 <= shown <= len(self.faces):
            preview.update(Text("Press its number or tap a meme to look at it.", "dim italic"))
            return
        face = self.faces[shown - 1]
        text = face_text(face.face, "bold")
        text.append("\n")
        text.append_text(literal(face.caption.center(FACE_WIDTH), f"bold {self.style_name}"))
        preview.update(text)
