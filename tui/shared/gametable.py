"""A game's table, whatever the game: its view, names, log, presence, pauses and table keys.

Every game's screen is a :class:`GameScreen`; the card games' are a :class:`TableScreen`
(a rack of numbered cards beside the log and chat).
"""

from __future__ import annotations

import math
import time
from typing import Any, ClassVar

from partyhost.tui.shared.base import SOLO_QUIT, PartyScreen, TitleBar, seat_name, show_text
from partyhost.tui.shared.chat import WIDE, ChatPanel, open_chat
from partyhost.tui.shared.dialogs import confirm_then
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.shared.log import GameLog
from partyhost.tui.shared.moment import RoundResultScreen
from partyhost.tui.shared.picks import PickCard, PickRack
from partyhost.tui.shared.scoreboard import Badge
from partyhost.tui.shared.seats import presence_badge, presence_of, seat_style
from partyhost.tui.shared.tablecontrols import TableControlsScreen
from partyhost.tui.text import clock_text, literal, number_keys, number_of, tap_to
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.timer import Timer
from textual.widgets import Static

TABLE_KEYS: list[BindingType] = [
    # Off the footer, which must keep Help in 80 columns; F1 help lists both keys.
    Binding("o", "table", "Table: seats, owner's controls", show=False),
    Binding("P", "pause", "Pause/resume (owner)", show=False),
]
"""The keys every game's table has (each game lists them among its own, before Leave)."""

STRAY_KEY_SECONDS = 1.5
"""After a round's result closed by itself, a key this soon was meant for the result."""


class GameScreen(PartyScreen):
    """A game's table: every game screen reads the same view, names seats, logs and leaves alike."""

    LEAVE_QUESTION: ClassVar[str] = "Leave this game?"
    AUTO_FOCUS = ""
    """Nothing takes the keys first: a focused log would take the arrows from the game."""
    _names: tuple[tuple[object, object], ...] = ()
    _keys_shown: object = None
    """The footer's keys as last published (see :meth:`keys_follow_view`)."""
    _presence_clock: Timer | None = None
    _clock: Timer | None = None
    _result_gone_at: float | None = None
    """When the round's result last closed without this player's key (monotonic)."""

    @property
    def view(self) -> dict[str, Any]:
        return self.party.view or {}

    # --- the table: presence, pause, the owner's controls ---------------------------

    def on_mount(self) -> None:
        """After each game's own watchers (its view first): the log, names, pause and graces."""
        self.watch(self.app, "events", self._show_log)
        self.watch(self.app, "room", self._names_changed)
        self.watch(self.app, "room", self.follow_pause, init=False)
        self.watch(self.app, "room", self._count_graces)

    def redraw_table(self) -> None:
        """Draw everything again (each game's own way); the presence clock calls it."""

    def _active_keys(self) -> object:
        """The footer's keys, and the range its number keys show."""
        return [(key, *active) for key, active in self.active_bindings.items()], self.choices()

    def choices(self) -> int:
        """How many numbered things the number keys choose from now (0: none)."""
        return 0

    def footer_key_display(self, binding: Binding) -> str | None:
        """This screen's number keys show the range to choose from: ``1-3``, ``1``."""
        if not binding.action.startswith("choose("):
            return None
        if not any(active.binding is binding for active in self.active_bindings.values()):
            return None
        return number_keys(self.choices())

    def refresh_bindings(self) -> None:
        self._keys_shown = self._active_keys()
        super().refresh_bindings()

    def keys_follow_view(self) -> None:
        """Refresh the footer's keys only if the view changed them (a refresh lays the screen
        out again)."""
        if self._active_keys() != self._keys_shown:
            self.refresh_bindings()

    def timed_status(self) -> tuple[Text, bool]:
        """The status line as it reads now, and whether a clock counts down in it."""
        return self.pause_note(), False

    def _show_status(self) -> None:
        """Write the status line; while a clock counts down in it, again every second."""
        if not self.on_stage:
            return
        line, timed = self.timed_status()
        if timed and self._clock is None:
            self._clock = self.set_interval(1, self._show_status)
        elif not timed and self._clock is not None:
            self._clock.stop()
            self._clock = None
        show_text(self.query_one("#status", Static), line)

    def presence_badges(self) -> dict[int, Badge]:
        """A badge for each seat whose player is not there: ``○87s``, ``☾bot``, ``✗gone``."""
        badges: dict[int, Badge] = {}
        for entry in (self.party.room or {}).get("seats", []):
            seat = entry.get("seat") if isinstance(entry, dict) else None
            if isinstance(seat, int):
                badge = presence_badge(entry, self.glyphs, self.party.clock.grace_left(entry))
                if badge[0]:
                    badges[seat] = badge
        return badges

    def _count_graces(self) -> None:
        """While someone's grace period runs, redraw each second so it counts down."""
        seats = (self.party.room or {}).get("seats", [])
        counting = any(presence_of(entry) == "disconnected" for entry in seats)
        if counting and self._presence_clock is None:
            self._presence_clock = self.set_interval(1, self.redraw_table)
        elif not counting and self._presence_clock is not None:
            self._presence_clock.stop()
            self._presence_clock = None

    def pause_note(self) -> Text:
        """``Paused by Ann.`` at the head of the status line while the game is paused."""
        paused = (self.party.room or {}).get("paused")
        if not isinstance(paused, dict):
            return Text()
        note = Text.assemble(
            ("Paused by ", "bold reverse yellow"),
            literal(paused.get("by") or "the owner", "bold reverse yellow"),
            (". ", "bold reverse yellow"),
            " ",
        )
        until = number_of(paused.get("until"))
        if until is not None:
            minutes = max(1, math.ceil((until - time.time()) / 60))
            note.append(f"Goes on by itself in {minutes} min.  ")
        if self.party.seat is not None:  # a tap on these words does what they say, as the key does
            words = "P resumes." if self.is_owner() else "P asks to go on."
            note.append_text(Text.assemble((words, tap_to("screen.pause", "bold")), "  "))
        return note

    def game_time(self) -> float:
        """The room's game clock now (deadlines in the view are on it; it stops when paused)."""
        return self.party.clock.game_time(self.party.room)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pause":
            room = self.party.room or {}
            may_ask = self.party.seat is not None and bool(room.get("paused"))
            return (self.is_owner() or may_ask) and room.get("status") == "playing"
        return True

    def action_table(self) -> None:
        self.app.push_screen(TableControlsScreen())

    def show_title(self, *parts: Text | str) -> None:
        """The title bar: the game's ``parts``, and at its end the table's key, which a finger
        taps there (the footer keeps to the game's own keys)."""
        tail = Text.assemble(("o", "bold"), " Table", style=tap_to("screen.table"))
        self.query_one("#title", TitleBar).set_parts(*parts, tail=tail)

    def action_pause(self) -> None:
        self.party.pauser.toggle()

    def on_screen_suspend(self) -> None:
        self.party.pauser.dialog_opened()

    def on_screen_resume(self) -> None:
        self.party.pauser.dialog_closed()

    def seat_color(self, seat: object) -> str:
        """The style a seat's name is drawn in; a game may colour seats its own way."""
        return seat_style(seat)

    def _who(self, seat: object) -> Text:
        """A seat's name exactly as typed, in its colour, underlined when it is you."""
        style = f"bold {self.seat_color(seat)}"
        if seat == self.view.get("you") and seat is not None:
            style += " underline"
        return literal(seat_name(self.party.room, seat), style)

    def _show_log(self) -> None:
        if self.on_stage:  # a table swapped out before it mounted has no log any more
            self.query_one(GameLog).show(self.party.events)

    def _names_changed(self) -> None:
        """The room's names changed: the log says them again (a newcomer's name, say)."""
        names = tuple(
            (s.get("seat"), s.get("name")) for s in (self.party.room or {}).get("seats", [])
        )
        if names != self._names:
            self._names = names
            if self.on_stage:
                self.query_one(GameLog).rename()

    def follow_pause(self) -> None:
        """Open the round's result while the room's ``pause`` waits for this seat; close it
        once it does not."""
        if not self.on_stage:
            return
        pause = (self.party.room or {}).get("pause")
        waiting = self.host_awaits_result()
        shown = next((s for s in self.app.screen_stack if isinstance(s, RoundResultScreen)), None)
        if waiting and shown is None and isinstance(pause, dict):
            title, body = self.round_result()
            deadline = number_of(pause.get("until"))
            self.app.push_screen(RoundResultScreen(title, body, deadline), self.result_read)
        elif not waiting and shown is not None:
            shown.close(False)

    def host_awaits_result(self) -> bool:
        """Whether the host waits for this seat to read the round's result."""
        pause = (self.party.room or {}).get("pause")
        me = self.party.seat
        return isinstance(pause, dict) and me is not None and me in (pause.get("waiting") or [])

    def result_showing(self) -> bool:
        """Whether the round's result is up, or about to be (a choice waits until it is read)."""
        shown = any(isinstance(s, RoundResultScreen) for s in self.app.screen_stack)
        return shown or self.host_awaits_result()

    def round_result(self) -> tuple[str, Text]:
        """The title and words of the round that just ended, while the table reads it."""
        return "The round is over", Text()

    def result_read(self, by_key: bool | None) -> None:
        """The result closed: by this player's key (tell the host), or by the host."""
        if by_key:
            self.party.requests.seen()
        else:
            self._result_gone_at = time.monotonic()

    def stray_key(self) -> bool:
        """Whether a key now most likely meant to close a result that closed by itself."""
        gone = self._result_gone_at
        return gone is not None and time.monotonic() - gone < STRAY_KEY_SECONDS

    def action_leave(self) -> None:
        """Ask, then give the seat up; against bots alone (``partyhost play``) it quits."""
        question, yes = (SOLO_QUIT, "Quit") if self.party.solo else (self.LEAVE_QUESTION, "Leave")
        confirm_then(self.app, question, yes, self.party.leave_room)


class TableScreen(GameScreen):
    """A game's table with a status clock, a log, a chat panel and a rack of numbered cards."""

    def on_mount(self) -> None:
        self.watch(self.app, "view", self._show_view)
        self.watch(self.app, "room", self._show_view, init=False)

    def on_resize(self) -> None:
        self._show_view()

    # --- what each game draws its own way -----------------------------------------

    def _show_view(self) -> None:
        """Redraw everything from the view."""
        raise NotImplementedError

    def status(self) -> Text:
        """The status line for the view (the clock is added after it)."""
        raise NotImplementedError

    def picks(self) -> PickRack[Any]:
        """The rack whose numbered cards the number keys and clicks choose from."""
        raise NotImplementedError

    def choices(self) -> int:
        """Up to the last card of the rack that can be chosen now."""
        try:
            rack = self.picks()
        except NoMatches:  # not drawn yet
            return 0
        return max((n for n in range(1, len(rack.faces) + 1) if rack.is_playable(n)), default=0)

    def action_choose(self, number: int) -> None:
        raise NotImplementedError

    def play_chosen(self) -> None:
        """Enter: play the chosen card."""
        raise NotImplementedError

    # --- shared ---------------------------------------------------------------

    def _wide(self) -> bool:
        return self.app.size.width >= WIDE

    def redraw_table(self) -> None:
        self._show_view()

    def timed_status(self) -> tuple[Text, bool]:
        line = self.status()
        deadline = number_of(self.view.get("deadline")) or 0.0
        if deadline > 0:
            line = Text.assemble(clock_text(max(0, round(deadline - self.game_time()))), " ", line)
        return Text.assemble(self.pause_note(), line), deadline > 0

    @on(PickCard.Chosen)
    def _card_clicked(self, event: PickCard.Chosen) -> None:
        if self.picks().highlighted == event.number:
            self.play_chosen()
        else:
            self.action_choose(event.number)

    def action_chat(self) -> None:
        open_chat(self)


class UnsupportedGameScreen(PartyScreen):
    """A game this client cannot draw yet: say so, keep the chat, let the player leave."""

    KIND = "game"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "chat", "Chat"),
        Binding("escape", "leave", "Leave"),
    ]

    def compose(self) -> ComposeResult:
        yield TitleBar(id="title")
        with Horizontal(id="room-body"):
            yield Static("", id="unsupported", classes="status")
            yield ChatPanel(id="chat")
        yield KeyFooter()

    def on_mount(self) -> None:
        game = (self.party.room or {}).get("game", "?")
        self.query_one("#unsupported", Static).update(
            Text.assemble(
                "This version of partyhost cannot show the game ",
                literal(game, "bold"),
                " yet. Update partyhost, or leave with Escape.",
            )
        )

    def action_chat(self) -> None:
        self.query_one(ChatPanel).focus_input()

    def action_leave(self) -> None:
        self.party.leave_room()
