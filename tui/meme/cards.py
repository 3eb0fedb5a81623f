"""The table's cards: your seven memes, in your color (a grid of faces on roomy terminals, else a
list of captions with the highlighted meme's face beside it), and the scenario card with its
two ten-sided dice (tens, units), a new roll landing lit for a moment when the app animates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from partyhost.tui.meme.text import MemeGlyphs, fit
from partyhost.tui.shared.picks import PickCard, PickRack
from partyhost.tui.text import Frame, Name, clean, literal
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widget import Widget
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


LANDING_SECONDS = 0.6
"""How long a new roll's dice stay lit."""


def die_lines(face: str, glyphs: MemeGlyphs, style: str = "") -> list[Text]:
    """A die as three lines: ``╭───╮`` / ``│ 7 │`` / ``╰───╯``."""
    tl, top, tr, side, bl, br = tuple(glyphs.box)
    return [
        Text(f"{tl}{top * 3}{tr}", style),
        Text.assemble((side, style), (f" {face} ", f"bold {style}".strip()), (side, style)),
        Text(f"{bl}{top * 3}{br}", style),
    ]


def dice_text(faces: tuple[str, str], glyphs: MemeGlyphs, style: str = "") -> Text:
    """Two dice side by side, three lines high."""
    pairs = zip(*(die_lines(face, glyphs, style) for face in faces), strict=True)
    return Text("\n", no_wrap=True).join(Text.assemble(one, " ", two) for one, two in pairs)


class ScenarioCard(Widget):
    """Dice on the left, the scenario's number and words on the right."""

    DEFAULT_CSS = """
    ScenarioCard {
        height: auto;
        border: $edge $accent;
        border-title-color: $text-accent;
        border-title-style: bold;
        padding: 0 1;
    }
    ScenarioCard.-custom { border: $edge $warning; }
    """

    def __init__(self, glyphs: MemeGlyphs, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.glyphs = glyphs
        self.scenario: Frame | None = None
        self.dice: tuple[int, int] | None = None
        self.reactor = Text()
        self.waiting = ""
        self.prompt = ""
        """Said instead of "X rolls the dice" when it is your roll."""
        self._timer: Timer | None = None
        self._awaiting_roll = False
        """Shown this turn before its dice were rolled: a roll now is lit."""

    def show(
        self,
        scenario: Frame | None,
        dice: Frame | None,
        reactor: Text,
        waiting: str,
        *,
        animate: bool,
        prompt: str = "",
    ) -> None:
        """Show the turn's scenario; a roll that is new to this card lands lit."""
        rolled = None
        if isinstance(dice, dict):
            rolled = (int(dice.get("tens", 0)), int(dice.get("units", 0)))
        fresh = rolled is not None and self._awaiting_roll
        self._awaiting_roll = scenario is None
        self.scenario, self.dice, self.reactor, self.waiting = scenario, rolled, reactor, waiting
        self.prompt = prompt
        if fresh and animate:
            self._light()
        elif rolled is None or not fresh:
            self._settle()
        custom = bool(scenario and scenario.get("custom"))
        self.set_class(custom, "-custom")
        self.border_title = self._title()
        self.refresh(layout=True)

    def _title(self) -> str:
        scenario = self.scenario
        if scenario is None:
            return "Scenario"
        if scenario.get("custom"):
            return f"{self.glyphs.pencil} The reactor's own scenario"
        return f"Scenario {int(scenario.get('number') or 0):02d}"

    @property
    def landing(self) -> bool:
        """Whether a new roll's dice are lit right now."""
        return self._timer is not None

    def _light(self) -> None:
        self._settle()
        self._timer = self.set_timer(LANDING_SECONDS, self._landed)

    def _landed(self) -> None:
        self._settle()
        self.refresh()

    def _settle(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def render(self) -> RenderableType:
        scenario = self.scenario
        custom = bool(scenario and scenario.get("custom"))
        words = Text()
        if scenario is None and self.prompt:
            words.append(self.prompt, "bold")
        elif scenario is None:
            words.append_text(self.reactor)
            words.append(f" rolls the dice{self.waiting}", "dim italic")
        else:
            words.append_text(literal(scenario.get("text", ""), "bold"))
            if custom:
                words.append("\n")
                words.append_text(Text.assemble(("written by ", "dim"), self.reactor))
        if custom:
            return words
        if self.dice is not None:
            faces = (str(self.dice[0]), str(self.dice[1]))
            style = "bold yellow" if self.landing else "bold"
        else:
            faces, style = ("?", "?"), "dim"
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True)
        grid.add_column(ratio=1)
        grid.add_row(dice_text(faces, self.glyphs, style), words)
        return grid


def rolloff_text(view: Frame, name: Name, ellipsis: str) -> Text:
    """Every roll-off attempt so far, one player a line: ``Ann   5  6``."""
    attempts = view.get("rolloff", {}).get("attempts", [])
    waiting = set(view.get("rolloff", {}).get("waiting", []))
    seats = [p.get("seat") for p in view.get("players", []) if isinstance(p, dict)]
    text = Text()
    text.append("Everyone rolls the die; the highest roll reacts first.\n", "italic")
    last = attempts[-1] if attempts else []
    top = max((r.get("value", -1) for r in last if isinstance(r, dict)), default=None)
    for seat in seats:
        text.append("\n")
        text.append_text(fit(name(seat), 14, ellipsis))
        rolls = [
            next((r.get("value") for r in attempt if r.get("seat") == seat), None)
            for attempt in attempts
        ]
        for number, value in enumerate(rolls):
            if value is None:
                continue
            newest = number == len(rolls) - 1
            style = "bold yellow" if newest and value == top else ("bold" if newest else "dim")
            text.append(f"[{value}]", style)
            text.append(" ")
        if seat in waiting:
            text.append(f"rolling{ellipsis}", "dim italic")
    if len(attempts) > 1:
        text.append(f"\n\nTied! Roll {len(attempts)}: only the tied players roll again.", "yellow")
    return text
