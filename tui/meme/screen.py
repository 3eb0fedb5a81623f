"""The What Do You Meme? table: dice and scenario, your memes, the guesses and bets, money, log.

Every command sent is one of the view's ``legal`` templates with its blank filled in.
"""

from __future__ import annotations

from typing import ClassVar

from partyhost.tui.meme.cards import MemeHand
from partyhost.tui.meme.dialogs import LastTurnScreen, WriteScenarioScreen
from partyhost.tui.meme.middle import MemeMain, MoneyTable, TableRow
from partyhost.tui.meme.rows import Betting, Look, reveal_text
from partyhost.tui.meme.text import (
    MemeGlyphs,
    color_style,
    describe_event,
    meme_glyphs,
    round_label,
    status_line,
)
from partyhost.tui.party import legal_of
from partyhost.tui.shared.base import TitleBar
from partyhost.tui.shared.chat import ChatPanel
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.shared.gametable import TABLE_KEYS, TableScreen
from partyhost.tui.shared.log import GameLog
from partyhost.tui.text import Frame, literal
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Click
from textual.timer import Timer
from textual.widgets import Static

FLIP_SECONDS = 0.5
TALL = 36


class MemeScreen(TableScreen):
    """One turn after another: roll, react and guess, bet, reveal, get paid."""

    KIND = "game"
    LEAVE_QUESTION = "Leave this game? Your money stays on the table, but you cannot win."
    SCOPED_CSS = False
    DEFAULT_CSS = """
    MemeScreen #meme-body { height: 1fr; }
    MemeScreen #meme-side { width: 32; height: 1fr; }
    MemeScreen.-wide #meme-side { width: 42; }
    MemeScreen #meme-side #chat { display: none; height: 12; }
    MemeScreen.-wide #meme-side #chat { display: block; }
    MemeScreen #meme-log { min-height: 4; }
    /* 16-color themes cannot tint: a highlight is drawn reversed instead. */
    App:ansi MemeScreen TableRow.-selected, App:ansi MemeScreen MemeCard.-selected {
        background: transparent;
        text-style: reverse;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "roll", "Roll"),
        Binding("enter", "roll", "Roll", show=False),
        Binding("w", "write", "Own scenario"),
        *(
            Binding(str(n), f"choose({n})", "Meme", key_display="1-7", show=n == 1)
            for n in range(1, 8)
        ),
        *(Binding(str(n), f"target({n})", "Guess", show=False) for n in range(1, 7)),
        Binding("down", "move(1)", "Next", show=False),
        Binding("up", "move(-1)", "Previous", show=False),
        Binding("enter", "play", "Play it"),
        Binding("plus,equals_sign,right", "stake(1)", "More", key_display="+"),
        Binding("minus,left", "stake(-1)", "Less", key_display="-"),
        Binding("pageup", "stake(10)", "10 more", show=False),
        Binding("pagedown", "stake(-10)", "10 less", show=False),
        Binding("a", "all_in", "Max"),
        Binding("backspace", "clear", "Clear", show=False),
        Binding("enter", "place", "Place bet"),
        Binding("t", "last_turn", "Last turn"),
        Binding("c", "chat", "Chat"),
        *TABLE_KEYS,
        Binding("escape", "leave", "Leave"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.betting = Betting()
        self._phase: str | None = None
        self._record_turn: object = None
        self._table_flip: int | None = None
        self._reveal_flip: int | None = None
        self._flipper: Timer | None = None

    @property
    def meme(self) -> MemeGlyphs:
        return meme_glyphs(self.party.ascii_only)

    def compose(self) -> ComposeResult:
        yield TitleBar(id="title")
        yield Static("", id="status")
        with Horizontal(id="meme-body"):
            yield MemeMain(self.meme, id="meme-main")
            with Vertical(id="meme-side"):
                yield MoneyTable(id="money")
                yield GameLog(
                    lambda event: describe_event(event, self.view, self._who, self.glyphs),
                    id="meme-log",
                )
                yield ChatPanel(id="chat")
        yield KeyFooter()

    # --- names and view -------------------------------------------------------

    def seat_color(self, seat: object) -> str:
        return color_style(self.view, seat)

    def _look(self) -> Look:
        main = self.query("#meme-main")
        width = (main.first().size.width if main else 0) or 48
        return Look(self.view, self._who, self.glyphs, self.meme, width)

    def _show_view(self) -> None:
        view = self.view
        if not view or not self.on_stage:
            return
        phase = str(view.get("phase"))
        self._watch_record(view)
        if phase == "betting_2" and self._phase == "betting_1" and self.party.animated:
            self._start_flip(table=0)
        self._phase = phase
        self.betting.sync(view)
        reactor = view.get("reactor")
        parts: list[Text | str] = [
            Text(f"room {self.party.room_code or ''}", "bold"),
            Text(round_label(view), "bold yellow" if view.get("final") else "bold"),
        ]
        if view.get("turn"):
            parts.append(Text(f"turn {view.get('turn')}", "dim"))
        if reactor is not None:
            parts.append(Text.assemble(f"{self.meme.reactor} ", self._who(reactor), " reacts"))
        self.show_title(*parts)
        self._show_status()
        look, wide = self._look(), self._wide()
        self.query_one(MemeMain).show(
            look,
            self.betting,
            roomy=wide and self.app.size.height >= TALL,
            animate=self.party.animated,
            table_flip=self._table_flip,
            reveal_flip=self._reveal_flip,
        )
        self.query_one(MoneyTable).show(look, self.presence_badges(), detailed=wide)
        self.keys_follow_view()

    def status(self) -> Text:
        return status_line(self.view, self._who, self.glyphs)

    def round_result(self) -> tuple[str, Text]:
        """The turn just played, turned over in full: guesses, reaction, bets and payouts."""
        record = self.view.get("last_turn")
        if not isinstance(record, dict):
            return super().round_result()
        if self._reveal_flip is not None:  # shown in full here: no need to turn it over again
            self._stop_flip()
            self._show_view()
        return f"Turn {record.get('turn', '')}: the reveal", self._turn_text(record, 70)

    # --- flipping cards over --------------------------------------------------

    def _watch_record(self, view: Frame) -> None:
        """A turn record new since the last view: turn its cards over one by one."""
        record = view.get("last_turn")
        turn = record.get("turn") if isinstance(record, dict) else None
        fresh = turn is not None and turn != self._record_turn and self._phase is not None
        self._record_turn = turn
        if fresh and self.party.animated:
            self._start_flip(reveal=0)

    def _start_flip(self, *, table: int | None = None, reveal: int | None = None) -> None:
        self._table_flip, self._reveal_flip = table, reveal
        if self._flipper is not None:
            self._flipper.stop()
        self._flipper = self.set_interval(FLIP_SECONDS, self._flip_next)

    def _flip_next(self) -> None:
        view = self.view
        table = view.get("table") or {}
        record = view.get("last_turn") or {}
        done = True
        if self._table_flip is not None:
            self._table_flip += 1
            done = self._table_flip >= len(table.get("guesses", []))
        if self._reveal_flip is not None:
            self._reveal_flip += 1
            done = self._reveal_flip >= len(record.get("guesses", [])) + 2
        if done:
            self._stop_flip()
        self._show_view()

    def _stop_flip(self) -> None:
        if self._flipper is not None:
            self._flipper.stop()
            self._flipper = None
        self._table_flip = self._reveal_flip = None

    # --- actions --------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        view = self.view
        picking = bool(legal_of(view, "react") or legal_of(view, "guess"))
        if action == "roll":
            return bool(legal_of(view, "roll"))
        if action == "write":
            return bool(legal_of(view, "write_scenario"))
        if action in ("choose", "move") and picking:
            return True
        if action in ("target", "move", "stake", "all_in", "clear", "place"):
            return self.betting.active
        if action == "play":
            return picking
        if action == "last_turn":
            return isinstance(view.get("last_turn"), dict)
        if action == "choose":
            return False
        return super().check_action(action, parameters)

    def _play(self, command: Frame) -> None:
        self._stop_flip()
        self.party.play(command)

    def action_roll(self) -> None:
        commands = legal_of(self.view, "roll")
        if commands:
            self._play(commands[0])

    def action_write(self) -> None:
        commands = legal_of(self.view, "write_scenario")
        if commands:
            limit = int(commands[0].get("max_length") or 280)
            self.app.push_screen(WriteScenarioScreen(limit), self._written)

    def _written(self, text: str | None) -> None:
        commands = legal_of(self.view, "write_scenario")
        if text and commands:
            self._play({**commands[0], "text": text})

    def picks(self) -> MemeHand:
        return self.query_one("#hand", MemeHand)

    def action_choose(self, number: int) -> None:
        if self._flipper is not None:
            self._stop_flip()
            self._show_view()
        hand = self.picks()
        if hand.is_playable(number):
            hand.highlighted = number

    def action_move(self, step: int) -> None:
        if self.betting.active:
            self.betting.move(step)
            self._show_view()
        else:
            self.picks().move(step)

    def action_play(self) -> None:
        hand = self.picks()
        number = hand.highlighted
        commands = legal_of(self.view, "react") + legal_of(self.view, "guess")
        if number is None or not commands:
            if commands:
                self.notify("Choose a meme first: tap it, or press its number (1-7).", timeout=3)
            return
        meme = hand.faces[number - 1].meme
        if meme in (commands[0].get("choices") or []):
            hand.highlighted = None
            self._play({**commands[0], "meme": meme})

    play_chosen = action_play

    def action_target(self, number: int) -> None:
        self.betting.select(number)
        self._show_view()

    def action_stake(self, step: int) -> None:
        problem = self.betting.change(step)
        if problem:
            self.notify(problem, severity="warning", timeout=3)
        self._show_view()

    def action_all_in(self) -> None:
        self.betting.maximize()
        self._show_view()

    def action_clear(self) -> None:
        self.betting.clear()
        self._show_view()

    def action_place(self) -> None:
        command, problem = self.betting.command()
        if problem:
            self.notify(problem, severity="warning", timeout=4)
        elif command is not None:
            self._play(command)

    def action_last_turn(self) -> None:
        record = self.view.get("last_turn")
        if isinstance(record, dict):
            self.app.push_screen(LastTurnScreen(self._turn_text(record, self._look().width)))

    def _turn_text(self, record: Frame, width: int) -> Text:
        """The scenario, then the reveal of the turn ``record`` tells, drawn ``width`` wide."""
        text = Text()
        scenario = record.get("scenario")
        if isinstance(scenario, dict):
            number = scenario.get("number")
            label = "Own scenario" if number is None else f"Scenario {number:02d}"
            text.append(f"{label}: ", "dim")
            text.append_text(literal(scenario.get("text", ""), "italic"))
            text.append("\n\n")
        look = Look(self.view, self._who, self.glyphs, self.meme, width)
        text.append_text(reveal_text(look, record, None))
        return text

    # --- the mouse ------------------------------------------------------------

    @on(TableRow.Picked)
    def _row_clicked(self, event: TableRow.Picked) -> None:
        self.action_target(event.number)

    @on(Click, "#scenario, #rolloff")
    def _dice_tapped(self) -> None:
        """A tap on the dice rolls them when the roll is yours (on a phone, where a finger goes)."""
        self.action_roll()
