"""A room before its game: seats (each bot's level, a dropped player's grace), options, chat,
and the owner's controls."""

from __future__ import annotations

from typing import ClassVar

from partyhost.tui.shared.base import (
    HELP_KEY,
    PartyModal,
    PartyScreen,
    TitleBar,
    decks_title,
    seat_name,
)
from partyhost.tui.shared.chat import ChatPanel
from partyhost.tui.shared.dialogs import RoomOptionsScreen
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.shared.gamelength import length_words
from partyhost.tui.shared.options import describe_value
from partyhost.tui.shared.seats import (
    SeatList,
    offer_the_room,
    presence_of,
    present_seats,
    seat_line,
)
from partyhost.tui.text import Frame, literal, tap_to
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

OWNER_ACTIONS = {"start", "add_bot", "choose_bot", "kick", "options", "make_owner"}
BOT_LEVELS = (
    ("easy", "e", "Easy", "thinks slowly, so people have plenty of time"),
    ("normal", "n", "Normal", "a fair match for most people"),
    ("hard", "h", "Hard", "reacts quickly, for practised players"),
)
"""The levels the host accepts (``add_bot``'s ``level``), with their key and a word on each."""


class BotLevelScreen(PartyModal[str | None]):
    """Pick how good the new bot is; returns the level, or ``None`` to add none."""

    AUTO_FOCUS = "#level-normal"
    DEFAULT_CSS = """
    BotLevelScreen #bot-level .choice { width: 1fr; margin-bottom: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"choose('{level}')", label) for level, key, label, _ in BOT_LEVELS),
        Binding("escape", "close", "Cancel"),
        HELP_KEY,
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="bot-level", classes="dialog"):
            yield Static("Add a bot", classes="dialog-title")
            for level, key, label, about in BOT_LEVELS:
                text = Text.assemble((f"{key} ", "bold"), (label, "bold"), f": {about}")
                yield Button(text, id=f"level-{level}", compact=True, classes="choice")
        yield KeyFooter()

    def action_choose(self, level: str) -> None:
        self.dismiss(level)

    @on(Button.Pressed, ".choice")
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss((event.button.id or "level-normal").removeprefix("level-"))


class RoomScreen(PartyScreen):
    """Waiting for players; the owner starts when the table is full enough."""

    KIND = "room"
    AUTO_FOCUS = "#seats"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "ready", "Ready"),
        Binding("s", "start", "Start"),
        Binding("b", "add_bot", "Add bot"),
        Binding("B", "choose_bot", "Add bot: easy/normal/hard", show=False),
        Binding("k", "kick", "Kick"),
        Binding("m", "make_owner", "Make owner", show=False),
        Binding("o", "options", "Options"),
        Binding("c", "chat", "Chat"),
        Binding("escape", "leave", "Leave"),
    ]

    def compose(self) -> ComposeResult:
        yield TitleBar(id="title")
        with Horizontal(id="room-body"):
            with Vertical(id="room-left"):
                yield Static("", id="room-status", classes="status")
                yield Static("Seats", classes="section-title")
                yield SeatList(id="seats")
                yield Static("Rules", classes="section-title")
                yield Static("", id="room-options")
            yield ChatPanel(id="chat")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.watch(self.app, "room", self._show_room)
        self.set_interval(1, self._count_graces)

    def _count_graces(self) -> None:
        """A dropped player's seat counts down its grace period."""
        if self.on_stage and any(
            presence_of(entry) == "disconnected" for entry in present_seats(self.room)
        ):
            self._show_seats()

    # --- state --------------------------------------------------------------

    @property
    def room(self) -> Frame:
        return self.party.room or {}

    def _game(self) -> Frame:
        games = (self.party.welcome or {}).get("games", [])
        return next((g for g in games if g.get("id") == self.room.get("game")), {})

    def _my_entry(self) -> Frame | None:
        seat = self.party.seat
        return next((s for s in present_seats(self.room) if s.get("seat") == seat), None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in OWNER_ACTIONS:
            return self.is_owner()
        if action == "ready":
            return self.party.seat is not None
        return True

    def _show_room(self) -> None:
        if not self.on_stage:
            return
        room = self.room
        game = self._game()
        title = self.query_one("#title", TitleBar)
        title.set_parts(
            Text(f"room {room.get('code', self.party.room_code or '')}", "bold"),
            literal(game.get("name") or room.get("game", "")),
            Text.assemble(
                decks_title(self.party.welcome, room),
                (" decks" if len(room.get("decks") or []) > 1 else " deck", "dim"),
            ),
        )
        self._show_seats()
        self.query_one("#room-status", Static).update(self._status(game))
        self.query_one("#room-options", Static).update(self._options(game))
        self.refresh_bindings()

    def _show_seats(self) -> None:
        """The present seats, each bot's level after its name, a dropped player's grace."""
        room, you, grace = self.room, self.party.seat, self.party.clock.grace_left
        lobby = room.get("status") == "lobby"
        lines = [
            (
                entry,
                seat_line(
                    entry, room, you, self.glyphs, lobby=lobby, grace_left=grace(entry), levels=True
                ),
            )
            for entry in present_seats(room)
        ]
        self.query_one("#seats", SeatList).show_lines(lines)

    def _status(self, game: Frame) -> Text:
        seats = present_seats(self.room)
        low, high = game.get("min_players"), game.get("max_players")
        count = Text(f"{len(seats)} seated", "bold")
        if low is not None and high is not None:
            count.append(f" (this game takes {low} to {high})", "dim")
        owner = literal(seat_name(self.room, self.room.get("owner")), "bold")
        if self.party.seat is None:
            line = Text.assemble("You are watching. ", count, ".")
        elif self.is_owner():
            start = ("s", tap_to("screen.start", "bold"))
            hint = Text.assemble(
                "Add bots with ",
                ("b", tap_to("screen.add_bot", "bold")),
                " (",
                ("B picks how good", tap_to("screen.choose_bot")),
                "), then press ",
                start,
                " to start.",
            )
            if isinstance(low, int) and len(seats) >= low:
                hint = Text.assemble("Press ", start, " to start when everyone is ready.")
            line = Text.assemble("You own this room. ", count, ". ", hint)
        else:
            line = Text.assemble("Waiting for ", owner, " to start. ", count, ".")
            mine = self._my_entry()
            if mine is not None and not mine.get("ready"):
                line.append(" Press r when you are ready.")
        return line

    def _options(self, game: Frame) -> Text:
        values = self.room.get("options", {}) or {}
        lines = Text()
        for option in game.get("options", []):
            name = option.get("name")
            value = values.get(name, option.get("default"))
            if lines.plain:
                lines.append("\n")
            lines.append(f"{self.glyphs.bullet} ")
            lines.append_text(literal(option.get("label") or name))
            lines.append(": ")
            lines.append(describe_value(option, value), "bold")
        rules = {o.get("name"): o.get("default") for o in game.get("options", [])}
        rules.update(values)
        length = length_words(str(self.room.get("game", "")), rules, len(present_seats(self.room)))
        if length is not None:  # measured from bot games: see tui/shared/gamelength.py
            if lines.plain:
                lines.append("\n")
            lines.append(f"{self.glyphs.bullet} {length}", "italic")
        return lines or Text("(default rules)", "dim")

    # --- actions ------------------------------------------------------------

    def action_ready(self) -> None:
        mine = self._my_entry()
        self.party.requests.set_ready(not (mine or {}).get("ready", False))

    def action_start(self) -> None:
        self.party.requests.start_game()

    def action_add_bot(self) -> None:
        self.party.requests.add_bot()

    def action_choose_bot(self) -> None:
        self.app.push_screen(BotLevelScreen(), self._add_bot_at)

    def _add_bot_at(self, level: str | None) -> None:
        if level is not None:
            self.party.requests.add_bot(level)

    def _highlighted(self) -> Frame | None:
        """The highlighted seat's entry (the host judges whether it may be acted on)."""
        return self.query_one("#seats", SeatList).highlighted_entry(present_seats(self.room))

    def action_kick(self) -> None:
        entry = self._highlighted()
        if entry is None:
            return
        seat = int(entry["seat"])
        if seat == self.party.seat:
            self.notify("That is you: press Escape to leave instead.", severity="warning")
            return
        if entry.get("bot"):
            self.party.requests.remove_bot(seat)
        else:
            self.party.requests.kick(seat)

    def action_make_owner(self) -> None:
        entry = self._highlighted()
        if entry is not None:
            offer_the_room(self.app, entry)

    def action_options(self) -> None:
        game = self._game()
        options = list(game.get("options", []))
        if not options:
            self.notify("This game has no rule options.")
            return
        values = dict(self.room.get("options", {}) or {})
        self.app.push_screen(
            RoomOptionsScreen(options, values, self.room.get("game")), self._set_options
        )

    def _set_options(self, options: Frame | None) -> None:
        if options is not None:
            self.party.requests.set_options(options)

    def action_chat(self) -> None:
        self.query_one(ChatPanel).focus_input()

    def action_leave(self) -> None:
        self.party.leave_room()
