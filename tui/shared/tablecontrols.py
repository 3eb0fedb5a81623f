"""The table during a game (``o``): every seat and its presence, and the owner's controls
on the highlighted seat (the host judges them; only a question it would refuse is not asked)."""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from partyhost.tui.shared.base import HELP_KEY, PartyModal, seat_name
from partyhost.tui.shared.dialogs import confirm_then
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.shared.seats import (
    SeatList,
    offer_the_room,
    presence_of,
    presence_words,
    seat_line,
)
from partyhost.tui.text import Frame, literal
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

OWNER_ACTIONS = {"bot_now", "kick", "make_owner", "pause"}


class TableControlsScreen(PartyModal[None]):
    """Seats, presence and the owner's keys; Escape (or ``o``) closes it."""

    AUTO_FOCUS = "#table-seats"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "bot_now", "Bot plays now"),
        Binding("k", "kick", "Kick"),
        Binding("m", "make_owner", "Make owner"),
        Binding("p,P", "pause", "Pause/resume"),  # P pauses on the game screen too
        Binding("escape,o", "close", "Close"),
        HELP_KEY,
    ]
    DEFAULT_CSS = """
    TableControlsScreen #table-controls { width: 72; }
    TableControlsScreen #table-note { height: auto; margin-top: 1; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(id="table-controls", classes="dialog"):
            yield Static("The table", classes="dialog-title")
            yield SeatList(id="table-seats")
            yield Static("", id="table-note", classes="hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.watch(self.app, "room", self._show)
        self.set_interval(1, self._show)

    @property
    def room(self) -> Frame:
        return self.party.room or {}

    def _show(self) -> None:
        room, you, glyphs = self.room, self.party.seat, self.glyphs
        lines = []
        for entry in room.get("seats", []):
            if not isinstance(entry, dict):
                continue
            grace = self.party.clock.grace_left(entry)
            line = seat_line(entry, room, you, glyphs, lobby=False, grace_left=grace)
            if presence_of(entry) == "connected":  # the others say where they are already
                line.append("  ")
                line.append_text(presence_words(entry, glyphs, None))
            lines.append((entry, line))
        self.query_one(SeatList).show_lines(lines, first=True)
        self.query_one("#table-note", Static).update(self._note())
        self.refresh_bindings()

    def _note(self) -> Text:
        paused = self.room.get("paused")
        note = Text()
        if isinstance(paused, dict):
            note.append_text(literal(f"Paused by {paused.get('by') or 'the owner'}. ", "bold"))
        if self.is_owner():
            note.append(
                "Highlight a seat (arrow keys), then: b a bot plays for an absent player,"
                " k kick, m make them the owner. p pauses or resumes the game."
            )
        else:
            owner = seat_name(self.room, self.room.get("owner"))
            note.append_text(literal(f"{owner} owns the room and can change the table."))
        return note

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action not in OWNER_ACTIONS or self.is_owner()

    def _highlighted(self) -> Frame | None:
        return self.query_one(SeatList).highlighted_entry(self.room.get("seats", []))

    def action_bot_now(self) -> None:
        entry = self._highlighted()
        if entry is not None:
            self.party.requests.replace_with_bot(int(entry["seat"]))

    def action_kick(self) -> None:
        entry = self._highlighted()
        if entry is None:
            return
        if entry.get("seat") == self.party.seat:
            self.notify("That is you: leave the game instead.", severity="warning")
            return
        question = Text.assemble(
            "Kick ",
            literal(entry.get("name", "?")),
            "? They lose their seat and cannot come back to it.",
        )
        kick = partial(self.party.requests.kick, int(entry["seat"]))
        confirm_then(self.app, question, "Kick", kick)

    def action_make_owner(self) -> None:
        entry = self._highlighted()
        if entry is not None:
            offer_the_room(
                self.app, entry, " From then on only they can pause, kick or start a game."
            )

    def action_pause(self) -> None:
        self.party.pauser.toggle()
