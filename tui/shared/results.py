"""The end of a game: who won, the final standings, the game told again, the way back.

A game overrides :meth:`ResultsScreen.ending`, :meth:`~ResultsScreen.standings` and
:meth:`~ResultsScreen.recap`; as it is, it lists each player's ``score``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from partyhost.tui.shared.base import PartyScreen, TitleBar, seat_name
from partyhost.tui.shared.chat import ChatPanel, open_chat
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.shared.seats import seat_style
from partyhost.tui.text import Frame, literal, names
from rich.console import Console
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, VerticalScroll
from textual.widgets import Static

KEY_PAUSE = 1.0
"""Seconds the results ignore keys: keys meant for the table that just ended must not
leave the room or start another game."""

OTHER_LEVELS = {"easy": ("normal", "hard"), "normal": ("hard", "easy"), "hard": ("normal", "easy")}
"""The bot levels a solo player is offered next, after a game against bots of one level."""


def next_levels(room: Frame, view: Frame) -> tuple[str, str]:
    """The two bot levels to offer after a game against bots: not the one just played; after
    normal bots, the harder first to a winner, the easier to a loser."""
    levels = {seat.get("bot_level") for seat in room.get("seats", []) if seat.get("bot")}
    played = str(levels.pop()) if len(levels) == 1 else "normal"
    played = played if played in OTHER_LEVELS else "normal"  # a host that does not say
    first, other = OTHER_LEVELS[played]
    you = view.get("you")
    lost = isinstance(you, int) and you not in (view.get("winners") or [])
    return (other, first) if played == "normal" and lost else (first, other)


HANG = re.compile(r" *(?:\d+\. )?")
"""Where a line's words start past its indent and list number: its wrapped lines go there."""


def hung(text: Text, width: int, console: Console) -> Text:
    """``text`` with each line too long for ``width`` wrapped under its own words, not back
    at the screen's edge, so a list stays a list on a phone held upright; ``text`` itself
    when every line fits."""
    split = text.split("\n", allow_blank=True)
    if width <= 0 or all(line.cell_len <= width for line in split):
        return text
    lines: list[Text] = []
    for line in split:
        if line.cell_len <= width:
            lines.append(line)
            continue
        match = HANG.match(line.plain)
        indent = min(match.end() if match else 0, width // 3)
        first = line.wrap(console, width)[0]
        rest = line[len(first.plain) :]
        rest = rest[len(rest.plain) - len(rest.plain.lstrip(" ")) :]
        wrapped = [
            first,
            *(Text(" " * indent) + part for part in rest.wrap(console, width - indent)),
        ]
        for part in wrapped:
            part.rstrip()  # a wrapped line's last space is not drawn
        lines += wrapped
    return Text("\n").join(lines)


def section_title(title: str) -> Text:
    """A section's title after a blank line, as a Text to append the section to (its style
    is the title's own, so what follows is not underlined)."""
    return Text.assemble("\n\n", (f"{title}\n", "bold underline"))


def ranked(title: str, rows: Sequence[tuple[Text, Text]], scores: Sequence[object] = ()) -> Text:
    """``title`` over one line per player, best first: place, name, then the rest lined up
    past the longest name; equal ``scores`` share a place."""
    text = section_title(title)
    width = max((name.cell_len for name, _ in rows), default=0)
    for rank, (name, rest) in enumerate(rows, start=1):
        place = scores.index(scores[rank - 1]) + 1 if scores else rank
        padded = rest.copy()
        padded.pad_left(width - name.cell_len)  # in the rest's style: one run with it
        text.append_text(Text.assemble(f"{place:>2}. ", name, padded, "\n"))
    return text


class ResultsScreen(PartyScreen):
    """Podium and standings, read from the final view (the host decides the winners)."""

    KIND = "results"
    taking_keys = False
    _watch_asked = False
    """``w`` asked the host for its past games: the newest from this room opens."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "leave", "Back to lobby"),
        Binding("enter", "quit", "Quit"),
        Binding("s", "again", "Play again"),
        Binding("r", "ready", "Ready again"),
        Binding("w", "watch", "Replay"),
        Binding("c", "chat", "Chat"),
        Binding("escape", "leave", "Back to lobby", show=False),
        Binding("escape", "quit", "Quit", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield TitleBar(id="title")
        with Horizontal(id="room-body"):
            with VerticalScroll(id="results"):
                yield from self.body()
            yield ChatPanel(id="chat")
        yield KeyFooter()

    def body(self) -> ComposeResult:
        """What the results show beside the chat (a game with more to show lays out its own)."""
        with Center():
            yield Static("", id="podium")

    def on_mount(self) -> None:
        self.watch(self.app, "view", self._show)
        self.watch(self.app, "room", self.refresh_bindings, init=False)
        self.watch(self.app, "past_games", self._open_asked_replay, init=False)
        self.set_timer(KEY_PAUSE, self.take_keys)
        self.app.clear_notifications()  # warnings about a move at the table are moot now

    def take_keys(self) -> None:
        """The pause after the game's end is over: the keys work."""
        self.taking_keys = True
        self.refresh_bindings()

    def _who(self, seat: object) -> Text:
        return literal(seat_name(self.party.room, seat), f"bold {seat_style(seat)}")

    def _show(self) -> None:
        if not self.on_stage:
            return
        view = self.party.view or {}
        self.query_one("#title", TitleBar).set_parts(
            Text(f"room {self.party.room_code or ''}", "bold"), self.heading(view)
        )
        self.show_result(view)

    def on_resize(self) -> None:
        self._show()

    def show_result(self, view: Frame) -> None:
        """Fill the screen's body (a game with more to show lays out its own)."""
        self.show_hung(self.query_one("#podium", Static), self.podium(view))

    def podium_width(self) -> int:
        """Columns the results have for their text (0 before the first layout)."""
        results = self.query_one("#results", VerticalScroll)
        padding = results.styles.padding
        width = results.region.width - padding.left - padding.right
        return max(0, width - results.styles.scrollbar_size_vertical)  # room for a scrollbar

    def hung(self, text: Text, width: int | None = None) -> Text:
        """``text`` wrapped for ``width`` columns (default: the results'), see :func:`hung`."""
        return hung(text, self.podium_width() if width is None else width, self.app.console)

    def show_hung(self, static: Static, text: Text, width: int | None = None) -> None:
        """Show ``text`` in ``static`` wrapped under its own words; a text that wraps spans the
        whole width, as it does unwrapped, so a centered podium does not shift."""
        shown = self.hung(text, width)
        static.styles.width = None if shown is text else "100%"
        static.update(shown)

    # --- what a game writes its own way ---------------------------------------

    def heading(self, view: Frame) -> str:
        """The title bar's words after the room code."""
        return "game over"

    def ending(self, view: Frame, winners: list[int]) -> Text:
        """Why the game ended, under the winners line (nothing by default)."""
        return Text()

    def standings(self, view: Frame) -> Text:
        """The final standings under a heading: here every player's ``score``."""
        players = sorted(
            (p for p in view.get("players", []) if isinstance(p, dict)),
            key=lambda p: -int(p.get("score", 0)),
        )
        scores = [f"{int(player.get('score', 0)):,}" for player in players]
        width = max((len(score) for score in scores), default=0)
        rows = [
            (
                self._who(player.get("seat")),
                Text.assemble((f"  {score:>{width}} points", "bold"), self.player_note(player)),
            )
            for player, score in zip(players, scores, strict=True)
        ]
        return ranked("Final scores", rows)

    def player_note(self, player: Frame) -> Text:
        """What follows a player's score in :meth:`standings` (nothing by default)."""
        return Text()

    def recap(self, view: Frame) -> Text:
        """The game told again after the next step (each round's winner...); nothing by default."""
        return Text()

    # --- the same for every game ------------------------------------------------

    def podium(self, view: Frame) -> Text:
        """Winners, why the game ended, the standings and what to press next."""
        winners = [w for w in view.get("winners") or [] if isinstance(w, int)]
        text = self.winners_line(view, winners)
        text.append_text(self.ending(view, winners))
        text.append_text(self.standings(view))
        text.append_text(self.next_step())
        text.append_text(self.recap(view))
        return text

    def winners_line(self, view: Frame, winners: list[int]) -> Text:
        text = Text.assemble((f"{self.glyphs.trophy} ", "bold yellow"))
        if view.get("you") in winners and len(winners) == 1:
            text.append("You win!", "bold")
        elif winners:
            text.append_text(names(winners, self._who))
            text.append(" win!" if len(winners) > 1 else " wins!", "bold")
        else:
            text.append("The game is over.", "bold")
        return text

    def play_again_command(self) -> str | None:
        """The command offered to a solo player for the next game (on a line of its own, to
        copy)."""
        if not self.party.solo:
            return None
        room = self.party.room or {}
        first = next_levels(room, self.party.view or {})[0]
        return f"partyhost play {room.get('game', '')} --level {first}"

    def next_step(self) -> Text:
        room = self.party.room or {}
        command = self.play_again_command()
        if command is not None:
            return Text.assemble(
                ("\nPress s to play again, w to watch this game again, or Enter to quit.", "dim"),
                "\n\nToo easy or too hard? Choose how well the bots play next time:\n  ",
                (command, "bold"),
                "\n  (or ",
                (f"--level {next_levels(room, self.party.view or {})[1]}", "bold"),
                ")",
            )
        if self.is_owner():
            return Text(
                "\nPress s to play again, w to watch this game again, or Enter to go back"
                " to the lobby.",
                "dim",
            )
        return Text(
            "\nPress r if you are up for another game, w to watch this game again, Enter for"
            " the lobby.",
            "dim",
        )

    # --- keys -------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        allowed = self._allowed(action)
        if allowed and not self.taking_keys and action != "help":
            return None  # shown, but not yet: keys meant for the table that just ended
        return allowed

    def _allowed(self, action: str) -> bool:
        seat = self.party.seat
        owner = self.is_owner()
        if action in ("leave", "quit"):
            return (action == "quit") == self.party.solo
        if action == "again":
            return owner
        if action == "ready":
            return seat is not None and not owner
        return True

    def action_again(self) -> None:
        self.party.requests.start_game()

    def action_ready(self) -> None:
        self.party.requests.set_ready(True)
        self.notify("The owner can start another game now.")

    def action_chat(self) -> None:
        open_chat(self)

    def action_watch(self) -> None:
        """The game just played, step by step with every hand shown (the host's replay)."""
        self._watch_asked = self.party.requests.list_past_games(None)

    def _open_asked_replay(self) -> None:
        if not self._watch_asked or not self.is_current:
            return
        self._watch_asked = False
        code = self.party.room_code
        ours = [
            game
            for game in self.party.past_games
            if game.get("room") == code
            and game.get("status") == "over"
            and isinstance(game.get("id"), int)
        ]
        if not ours:
            self.notify("The host has no replay of this game.", severity="warning")
            return
        self.party.open_replay(int(ours[0]["id"]))  # the newest: games are numbered at random

    def action_leave(self) -> None:
        self.party.requests.leave_room()

    def action_quit(self) -> None:
        """After a game against bots alone, Enter ends ``partyhost play``."""
        self.app.exit(0)
