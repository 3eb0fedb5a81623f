"""The end of a game: who won, final scores, and the way back to the lobby."""

from __future__ import annotations

from typing import Any, ClassVar

from partyhost.tui.screens.base import PartyScreen, seat_name
from partyhost.tui.text import literal
from partyhost.tui.widgets.bar import TitleBar
from partyhost.tui.widgets.chat import ChatPanel
from partyhost.tui.widgets.seats import seat_style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, VerticalScroll
from textual.widgets import Footer, Static

Frame = dict[str, Any]
END_REASONS = {
    "target": "reached the target",
    "hot_or_not_empty": "the Hot or Not deck ran out: highest score wins",
}


class ResultsScreen(PartyScreen):
    """Podium and scores, read from the final view."""

    KIND = "results"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "leave", "Back to lobby"),
        Binding("s", "again", "Play again"),
        Binding("r", "ready", "Ready again"),
        Binding("c", "chat", "Chat"),
        Binding("escape", "leave", "Back to lobby", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield TitleBar(id="title")
        with Horizontal(id="room-body"):
            with VerticalScroll(id="results"), Center():
                yield Static("", id="podium")
            yield ChatPanel(id="chat")
        yield Footer()

    def on_mount(self) -> None:
        self.watch(self.party, "view", self._show)
        self.watch(self.party, "room", self.refresh_bindings, init=False)

    def _who(self, seat: object) -> Text:
        return literal(seat_name(self.party.room, seat), f"bold {seat_style(seat)}")

    def _show(self) -> None:
        view = self.party.view or {}
        self.query_one("#title", TitleBar).set_parts(
            Text(f"room {self.party.room_code or ''}", "bold"), "game over"
        )
        winners = [w for w in view.get("winners", []) if isinstance(w, int)]
        text = Text.assemble((f"{self.glyphs.trophy} ", "bold yellow"))
        if view.get("you") in winners and len(winners) == 1:
            text.append("You win!", "bold")
        elif winners:
            for number, seat in enumerate(winners):
                if number:
                    text.append(" and ")
                text.append_text(self._who(seat))
            text.append(" win!" if len(winners) > 1 else " wins!", "bold")
        else:
            text.append("The game is over.", "bold")
        reason = END_REASONS.get(str(view.get("end_reason")), "")
        if reason:
            text.append(f"\n({reason})", "dim")
        text.append("\n\nFinal scores\n", "bold underline")
        players = sorted(
            (p for p in view.get("players", []) if isinstance(p, dict)),
            key=lambda p: -int(p.get("score", 0)),
        )
        for rank, player in enumerate(players, start=1):
            who = player.get("seat")
            text.append(f"{rank:>2}. ")
            text.append_text(self._who(who))
            text.append(f"  {player.get('score', 0)} points", "bold")
            cards = [str(c.get("points")) for c in player.get("cards", []) if isinstance(c, dict)]
            if cards:
                text.append(f"  ({', '.join(cards)})", "dim")
            text.append("\n")
        room = self.party.room or {}
        if self.party.seat is not None and room.get("owner") == self.party.seat:
            text.append("\nPress s to play again, or Enter to go back to the lobby.", "dim")
        else:
            text.append("\nPress r if you are up for another game, Enter for the lobby.", "dim")
        self.query_one("#podium", Static).update(text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        room = self.party.room or {}
        seat = self.party.seat
        owner = seat is not None and room.get("owner") == seat
        if action == "again":
            return owner
        if action == "ready":
            return seat is not None and not owner
        return True

    def action_again(self) -> None:
        self.party.send({"t": "start_game"})

    def action_ready(self) -> None:
        self.party.send({"t": "set_ready", "ready": True})
        self.notify("The owner can start another game now.")

    def action_chat(self) -> None:
        self.query_one(ChatPanel).focus_input()

    def action_leave(self) -> None:
        self.party.send({"t": "leave_room"})
