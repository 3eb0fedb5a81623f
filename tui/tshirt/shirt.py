"""The round's T-shirt card, drawn as a shirt with its art (or else its words) on the front."""

from __future__ import annotations

import textwrap
from typing import Any, ClassVar

from partyhost.tui.text import clean, literal
from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text
from textual.widget import Widget

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
