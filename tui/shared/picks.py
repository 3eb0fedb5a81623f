"""Numbered cards picked by number key, arrow or click: what every card rack shares (the
highlight walks only the playable cards)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class Playable(Protocol):
    """A card's face as the screen decided it: only ``playable`` matters to the rack."""

    @property
    def playable(self) -> bool: ...


FaceT = TypeVar("FaceT", bound=Playable)


class PickCard(Widget, Generic[FaceT]):
    """One numbered card; ``selected`` adds the ``-selected`` class for the styles."""

    selected: reactive[bool] = reactive(False, toggle_class="-selected")

    @dataclass
    class Chosen(Message):
        """A card was clicked: first click highlights, a click on the highlighted one plays."""

        number: int

    def __init__(self, number: int) -> None:
        super().__init__()
        self.number = number
        self.face: FaceT | None = None

    def show(self, face: FaceT, look: str) -> None:
        """Draw ``face``; ``look`` is each rack's own extra (a shade, a colour)."""
        raise NotImplementedError

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Chosen(self.number))


class PickRack(Widget, Generic[FaceT]):
    """The numbered cards' faces and which one is highlighted (1-based)."""

    highlighted: reactive[int | None] = reactive(None)
    """1-based number of the highlighted card; setting the same number repaints nothing."""

    faces: tuple[FaceT, ...] = ()
    cards: tuple[PickCard[FaceT], ...] = ()

    def new_card(self, number: int) -> PickCard[FaceT]:
        """A card widget for position ``number``."""
        raise NotImplementedError

    def show_faces(self, faces: Sequence[FaceT], holder: Widget, look: str) -> None:
        """Show these faces in cards under ``holder``; the highlight survives if still playable."""
        faces = tuple(faces)
        # Cards are kept by position: a played card removes one, not the whole rack.
        for card in self.cards[len(faces) :]:
            card.remove()
        more = tuple(self.new_card(number) for number in range(len(self.cards) + 1, len(faces) + 1))
        self.cards = self.cards[: len(faces)] + more
        if more:
            holder.mount_all(more)
        self.faces = faces
        for card, face in zip(self.cards, faces, strict=True):
            card.show(face, look)
        if self.highlighted is not None and not self.is_playable(self.highlighted):
            self.highlighted = None  # repaints through watch_highlighted
        elif more:
            self._paint()  # new cards start unmarked; nothing else changed

    def is_playable(self, number: int) -> bool:
        return 1 <= number <= len(self.faces) and self.faces[number - 1].playable

    def watch_highlighted(self) -> None:
        self._paint()

    def _paint(self) -> None:
        """Mark the highlighted card; racks add what else follows the highlight."""
        for card in self.cards:
            card.selected = card.number == self.highlighted

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
