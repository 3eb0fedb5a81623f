"""Slogan cards in a numbered rack (your hand, or the slogans on the table), and the round's
T-shirt card, drawn as a shirt with its art (or else its words) on the front."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from partyhost.tui.shared.base import content_rows
from partyhost.tui.shared.picks import PickCard, PickRack
from partyhost.tui.text import clean, literal
from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widget import Widget

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
        if old is not None and replace(old, playable=face.playable) == face:
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


SLEEVE = 3
MIN_INNER = 24
MAX_INNER = 34
BOX = {"h": "─", "v": "│", "tl": "╭", "tr": "╮", "bl": "╰", "br": "╯"}
ASCII_BOX = {"h": "-", "v": "|", "tl": ".", "tr": ".", "bl": "'", "br": "'"}


def shirt_rows(content: list[str], inner: int, box: dict[str, str]) -> list[tuple[str, str, str]]:
    """The shirt as rows of (left edge, middle of ``inner`` cells, right edge), so the print
    can be coloured apart from the outline; ``content`` is centred on the front."""
    h, v, tl, tr, bl, br = (box[k] for k in ("h", "v", "tl", "tr", "bl", "br"))
    shoulder = max(3, (inner - max(4, inner // 3)) // 2)
    neck = inner - 2 * shoulder
    pad = " " * SLEEVE
    edge = h * (shoulder - 2)
    top = f"{pad} {tl}{edge}{tr}{' ' * neck}{tl}{edge}{tr} {pad}"
    gap = " " * (shoulder - 2)
    yoke = f"{tl}{h * SLEEVE}{br}{gap}{bl}{h * neck}{br}{gap}{bl}{h * SLEEVE}{tr}"
    rows: list[tuple[str, str, str]] = [(top, "", ""), (yoke, "", "")]
    lines = content + [""] * max(0, 3 - len(content))
    for number, line in enumerate(lines):
        middle = line.center(inner)[:inner]
        if number == 0:
            rows.append((f"{v}{pad}", middle, f"{pad}{v}"))
        elif number == 1:
            rows.append((f"{bl}{h * (SLEEVE - 1)}{tr}", middle, f"{tl}{h * (SLEEVE - 1)}{br}"))
        else:
            rows.append((f"{pad}{v}", middle, f"{v}{pad}"))
    rows.append((f"{pad}{bl}{h * inner}{br}{pad}", "", ""))
    return rows


class Shirt(Widget):
    """Renders ``tshirt`` (``{picture, art}`` from the view) as a shirt and a caption."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"shirt--outline", "shirt--print", "shirt--caption"}
    DEFAULT_CSS = """
    Shirt { height: auto; width: 1fr; }
    Shirt > .shirt--outline { color: $accent; }
    Shirt > .shirt--print { color: $foreground; text-style: bold; }
    Shirt > .shirt--caption { color: $text-muted; text-style: italic; }
    """

    def __init__(self, *, ascii_only: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.box = ASCII_BOX if ascii_only else BOX
        self.tshirt: dict[str, Any] | None = None

    def show(self, tshirt: dict[str, Any] | None) -> None:
        if tshirt != self.tshirt:
            self.tshirt = tshirt
            self.refresh(layout=True)

    def _inner_width(self, art: list[str]) -> int:
        available = max(MIN_INNER, (self.size.width or 40) - 2 * SLEEVE - 2)
        wanted = max([MIN_INNER + 4, *(len(line) + 4 for line in art)])
        return max(MIN_INNER, min(MAX_INNER, available, wanted))

    def render(self) -> RenderableType:
        if self.tshirt is None:
            return Text("The judge is drawing a T-shirt" + "...", style="dim italic")
        picture = clean(self.tshirt.get("picture", ""))
        art = clean(self.tshirt.get("art") or "", multiline=True).rstrip("\n").split("\n")
        art = [line.rstrip() for line in art] if any(line.strip() for line in art) else []
        inner = self._inner_width(art)
        if art:
            indent = min(len(line) - len(line.lstrip()) for line in art if line.strip())
            width = max(len(line) for line in art) - indent
            content = [line[indent:].ljust(width)[: inner - 2] for line in art]
            caption: Text | None = literal(picture, multiline=False)
        else:
            content = textwrap.wrap(picture, inner - 2) or [""]
            caption = None
        outline = self.get_component_rich_style("shirt--outline")
        printed = self.get_component_rich_style("shirt--print")
        drawing = Text(no_wrap=True, overflow="crop")
        for left, middle, right in shirt_rows(content, inner, self.box):
            if drawing.plain:
                drawing.append("\n")
            drawing.append(left, outline)
            drawing.append(middle, printed)
            drawing.append(right, outline)
        if caption is None:
            return drawing
        caption.stylize(self.get_component_rich_style("shirt--caption") or Style())
        return Group(drawing, caption)
