"""The table during a game (``o``): every seat and its presence, and the owner's controls.

Anyone sees who is here, who dropped (and how long their seat waits), who is
away with a bot playing for them and who is gone. The owner also acts on the
highlighted seat: a bot plays for an absent player now, a player is kicked
(after a yes), the room is handed to another player (after a yes), and the
game is paused or resumed.
"""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from partyhost.tui.shared.base import HELP_KEY, PartyModal, seat_name
from partyhost.tui.shared.dialogs import confirm_then
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.shared.seats import SeatList, presence_of, presence_words, seat_line
from partyhost.tui.text import Frame, literal
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.timer import Timer
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

    def __init__(self) -> None:
        super().__init__()
        self._ticker: Timer | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="table-controls", classes="dialog"):
            yield Static("The table", classes="dialog-title")
            yield SeatList(id="table-seats")
            yield Static("", id="table-note", classes="hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.watch(self.app, "room", self._show)
        self._ticker = self.set_interval(1, self._show)

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
        if action in OWNER_ACTIONS:
            return self.is_owner()
        return True

    def _highlighted(self) -> Frame | None:
        seat = self.query_one(SeatList).highlighted_seat()
        entry = next((s for s in self.room.get("seats", []) if s.get("seat") == seat), None)
        if entry is None:
            self.notify("Highlight a seat first (arrow keys).", severity="warning")
        return entry

    def action_bot_now(self) -> None:
        entry = self._highlighted()
        if entry is None:
            return
        presence = presence_of(entry)
        name = str(entry.get("name", "?"))
        if entry.get("bot"):
            self.notify(f"{name} is a bot already.", severity="warning", markup=False)
        elif presence == "connected":
            self.notify(f"{name} is here and playing.", severity="warning", markup=False)
        elif presence == "gone":
            self.notify(f"{name} has left the game.", severity="warning", markup=False)
        elif entry.get("stand_in"):
            self.notify(f"A bot already plays for {name}.", markup=False)
        else:
            self.party.requests.replace_with_bot(int(entry["seat"]))

    def action_kick(self) -> None:
        entry = self._highlighted()
        if entry is None:
            return
        name = str(entry.get("name", "?"))
        if entry.get("seat") == self.party.seat:
            self.notify("That is you: leave the game instead.", severity="warning")
        elif presence_of(entry) == "gone":
            self.notify(f"{name} has left already.", severity="warning", markup=False)
        else:
            question = Text.assemble(
                "Kick ", literal(name), "? They lose their seat and cannot come back to it."
            )
            seat = int(entry["seat"])
            confirm_then(self.app, question, "Kick", lambda: self.party.requests.kick(seat))

    def action_make_owner(self) -> None:
        entry = self._highlighted()
        if entry is None:
            return
        name = str(entry.get("name", "?"))
        if entry.get("seat") == self.party.seat:
            self.notify("You own the room already.")
        elif entry.get("bot") or presence_of(entry) != "connected":
            self.notify(
                f"{name} cannot own the room: only a person who is here can.",
                severity="warning",
                markup=False,
            )
        else:
            question = Text.assemble(
                "Hand the room to ",
                literal(name),
                "? From then on only they can pause, kick or start a game.",
            )
            seat = int(entry["seat"])
            hand_over = partial(self.party.requests.give_ownership, seat)
            confirm_then(self.app, question, "Hand over", hand_over)

    def action_pause(self) -> None:
        self.party.pauser.toggle()
