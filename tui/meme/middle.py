"""The middle of the table: roll-off or scenario, your memes, the guesses, betting, reveal;
which parts show depends on the phase and on the room the terminal gives. Beside it the money
table: every player in their color, their cash (as bills when there is room), who reacts, who
the table is waiting for, and what the last turn paid."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from partyhost.tui.meme.cards import MemeFace, MemeHand, ScenarioCard, rolloff_text
from partyhost.tui.meme.rows import (
    Betting,
    Look,
    RowSpec,
    history_text,
    live_rows,
    reveal_text,
    summary_text,
)
from partyhost.tui.meme.text import MemeGlyphs, bills_text, color_style, fit, memes_of, signed_money
from partyhost.tui.party import legal_of
from partyhost.tui.shared.base import show_text
from partyhost.tui.shared.scoreboard import Badge
from partyhost.tui.text import Frame
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.widgets import Button, Static

ROLL_PROMPT = "Press r or tap the dice to roll: tens, then units, make the scenario number."


class MemeMain(VerticalScroll):
    """The main column; it never takes the focus, so the screen's keys always work."""

    DEFAULT_CSS = """
    MemeMain { width: 1fr; height: 1fr; scrollbar-size-vertical: 1; }
    MemeMain > #rolloff, MemeMain > #reveal, MemeMain > #history {
        height: auto;
        border: $edge $accent;
        border-title-color: $text-accent;
        border-title-style: bold;
        padding: 0 1;
    }
    MemeMain > #reveal { border: $edge $success; border-title-color: $success; }
    MemeMain > #history { border: $edge $panel-lighten-2; border-title-color: $text-muted; }
    """

    can_focus = False

    def __init__(self, glyphs: MemeGlyphs, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.glyphs = glyphs
        self._crowded: tuple[Size, object] | None = None
        """The size and turn at which the last turn, above your memes, pushed some out of
        sight: it stays hidden then (``t`` shows it)."""

    def compose(self) -> ComposeResult:
        yield Static("", id="rolloff")
        yield ScenarioCard(self.glyphs, id="scenario")
        yield MemeHand(id="hand")
        yield GuessTable(id="guesses")
        yield BetPanel(id="bet-panel")
        yield Static("", id="reveal")
        yield Static("", id="history")

    def show(
        self,
        look: Look,
        betting: Betting,
        *,
        roomy: bool,
        animate: bool,
        table_flip: int | None,
        reveal_flip: int | None,
    ) -> None:
        """Show the parts this phase has; ``roomy``: a terminal wide and tall enough for the
        memes' faces in a grid and the earlier turns; the flips count the cards turned over
        so far (``None``: all)."""
        view = look.view
        phase = str(view.get("phase"))
        rolloff = self.query_one("#rolloff", Static)
        rolloff.display = phase == "rolloff"
        if phase == "rolloff":
            rolloff.border_title = "Who goes first?"
            show_text(rolloff, rolloff_text(view, look.name, look.glyphs.ellipsis))
        card = self.query_one("#scenario", ScenarioCard)
        card.display = phase not in ("rolloff", "over")
        card.show(
            view.get("scenario"),
            view.get("dice"),
            look.name(view.get("reactor")),
            look.glyphs.ellipsis,
            animate=animate,
            prompt=ROLL_PROMPT if legal_of(view, "roll") and phase == "scenario" else "",
        )
        hand = self.query_one("#hand", MemeHand)
        hand.display = phase == "picking" and view.get("role") in ("reactor", "guesser")
        if hand.display:
            hand.set_class(roomy, "-grid")
            show_hand(view, hand)
        self._show_betting(look, betting, table_flip, phase, show_table=not hand.display)
        reveal = self.query_one("#reveal", Static)
        record = view.get("last_turn")
        above_hand = phase == "picking" and not roomy
        crowded = above_hand and hand.display and self._crowded == (self.size, view.get("turn"))
        shown = isinstance(record, dict) and phase not in ("rolloff", "over")
        reveal.display = shown and not crowded
        self._place_reveal(reveal, hand, above_hand=above_hand)
        if above_hand and hand.display and reveal.display:
            self.call_after_refresh(self._make_room_for_hand, view.get("turn"))
        if isinstance(record, dict) and reveal.display:
            if phase == "scenario" or roomy or reveal_flip is not None:
                reveal.border_title = "Reveal: the last turn"
                show_text(reveal, reveal_text(look, record, reveal_flip))
            else:
                reveal.border_title = "Last turn (t: details)"
                show_text(reveal, summary_text(look, record))
        history = self.query_one("#history", Static)
        turns = [h for h in view.get("history", []) if isinstance(h, dict)]
        history.display = roomy and bool(turns) and phase not in ("picking", "rolloff")
        if history.display:
            history.border_title = "Earlier turns"
            show_text(history, history_text(look, turns, 6))

    def _make_room_for_hand(self, turn: object) -> None:
        """Hide the last turn if, above your memes, it pushed some out of sight: a finger
        cannot scroll a phone's page, and every meme must be there to tap."""
        reveal = self.query_one("#reveal", Static)
        if reveal.display and self.max_scroll_y > 0:
            self._crowded = (self.size, turn)
            reveal.display = False

    def _place_reveal(self, reveal: Static, hand: MemeHand, *, above_hand: bool) -> None:
        """On small screens the last turn sits above your memes, so its cards are seen."""
        above = self.children.index(reveal) < self.children.index(hand)
        if above_hand and not above:
            self.move_child(reveal, before=hand)
        elif above and not above_hand:
            self.move_child(reveal, after=self.query_one("#bet-panel"))

    def _show_betting(
        self, look: Look, betting: Betting, flipped: int | None, phase: str, *, show_table: bool
    ) -> None:
        table = self.query_one("#guesses", GuessTable)
        table.display = phase.startswith("betting") or (phase == "picking" and show_table)
        if table.display:
            title, rows = live_rows(look, betting.shown(), flipped)
            table.show(title, rows, betting.cursor, betting=betting.active)
        panel = self.query_one("#bet-panel", BetPanel)
        panel.display = betting.active
        if betting.active:
            panel.show(betting.limits(look))


def show_hand(view: Frame, hand: MemeHand) -> None:
    """Your seven memes: playable if the legal pick lists them, the one played tagged."""
    choices: set[object] = set()
    for command in legal_of(view, "react") + legal_of(view, "guess"):
        choices.update(command.get("choices") or [])
    played = played_meme(view)
    faces = [
        MemeFace(
            int(entry.get("meme", 0)),
            str(entry.get("caption", "")),
            str(entry.get("face", "")),
            entry.get("meme") in choices,
            "on the table" if entry.get("meme") == played else "",
        )
        for entry in memes_of(view)
    ]
    title = "Your memes: pick your reaction" if view.get("role") == "reactor" else "Your memes"
    if played is not None:
        title = "Your memes (one is on the table, face down)"
    hand.show(faces, color_style(view, view.get("you")), title)


def played_meme(view: Frame) -> object:
    """The meme you put on the table this turn (your view shows you your own)."""
    table = view.get("table") or {}
    you = view.get("you")
    reaction = table.get("reaction") or {}
    if reaction.get("seat") == you:
        return reaction.get("meme")
    for guess in table.get("guesses", []):
        if isinstance(guess, dict) and guess.get("seat") == you:
            return guess.get("meme")
    return None


class TableRow(Static):
    """A guess (or the reactor's card); clicking a bettable row selects it."""

    DEFAULT_CSS = """
    TableRow { height: auto; width: 1fr; padding: 0 1; }
    TableRow.-bettable:hover { background: $boost; }
    TableRow.-selected { background: $accent 30%; }
    """

    class Picked(Message):
        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def __init__(self) -> None:
        super().__init__()
        self.spec: RowSpec | None = None

    def show(self, spec: RowSpec, selected: bool) -> None:
        self.set_class(spec.number is not None, "-bettable")
        self.set_class(selected, "-selected")
        if spec != self.spec:
            self.spec = spec
            self.update(spec.text)

    def on_click(self, event: Click) -> None:
        event.stop()
        if self.spec is not None and self.spec.number is not None:
            self.post_message(self.Picked(self.spec.number))


class GuessTable(Vertical):
    """Rows in a box; the screen says which numbered row is selected."""

    DEFAULT_CSS = """
    GuessTable {
        height: auto;
        border: $edge $panel-lighten-2;
        border-title-color: $text-accent;
        border-title-style: bold;
        border-subtitle-color: $text-muted;
    }
    GuessTable.-betting { border: $edge $primary; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[TableRow] = []

    def show(
        self, title: str, rows: Sequence[RowSpec], selected: int | None, *, betting: bool = False
    ) -> None:
        self.border_title = title
        self.set_class(betting, "-betting")
        if len(self.rows) != len(rows):
            self.remove_children()
            self.rows = [TableRow() for _ in rows]
            self.mount_all(self.rows)
        for row, spec in zip(self.rows, rows, strict=True):
            row.show(spec, selected is not None and spec.number == selected)


class BetPanel(Vertical):
    """What is still allowed, and buttons for the mouse: less, more, place the bet."""

    DEFAULT_CSS = """
    BetPanel { height: auto; padding: 0 1; }
    BetPanel > #bet-limits { width: 1fr; height: auto; }
    BetPanel > Horizontal { height: 1; width: 1fr; }
    BetPanel Button { margin-right: 2; min-width: 5; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="bet-limits")
        with Horizontal():
            # Each button does what its key does.
            yield Button("-", id="bet-less", compact=True, action="screen.stake(-1)")
            yield Button("+", id="bet-more", compact=True, action="screen.stake(1)")
            place = "screen.place"
            yield Button("Place bet", id="bet-place", variant="primary", compact=True, action=place)
            yield Button("Clear", id="bet-clear", compact=True, action="screen.clear")

    def on_mount(self) -> None:
        for button in self.query(Button):
            button.can_focus = False
        for button in self.query("#bet-less, #bet-more").results(Button):
            button.active_effect_duration = 0  # quick clicks each count

    def show(self, limits: Text) -> None:
        self.query_one("#bet-limits", Static).update(limits)


class MoneyTable(Static):
    """One line per player (two with bills when ``detailed``); a badge after the name of each
    seat whose player is not there."""

    DEFAULT_CSS = """
    MoneyTable {
        height: auto;
        border: $edge $panel-lighten-2;
        border-title-color: $text-accent;
        border-title-style: bold;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Money"
        self.detailed = False
        self._shown: tuple[Look, Mapping[int, Badge]] | None = None

    def show(self, look: Look, presence: Mapping[int, Badge], *, detailed: bool) -> None:
        self.detailed = detailed
        self._shown = (look, presence)
        self.update(self._table(look, presence))

    def on_resize(self) -> None:
        """Its lines are drawn for its width: draw them again at a new one."""
        if self._shown is not None:
            self.update(self._table(*self._shown))

    def _table(self, look: Look, presence: Mapping[int, Badge]) -> Text:
        view = look.view
        width = max(20, (self.content_region.width or self.size.width or 28))
        players = [p for p in view.get("players", []) if isinstance(p, dict)]
        show_payout = width >= 30 and view.get("last_turn") is not None
        name_width = max(6, width - 13 - (6 if show_payout else 0))
        text = Text(no_wrap=True, overflow="crop")
        for player in players:
            if text.plain:
                text.append("\n")
            text.append_text(self._line(player, look, presence, name_width, show_payout))
            money = int(player.get("money", 0))
            if self.detailed and money > 0:
                text.append("\n    ")
                text.append_text(bills_text(money, width=width - 4))
        if not players:
            text.append("Nobody is playing yet.", "dim italic")
        return text

    def _marker(self, player: Frame, look: Look) -> Text:
        glyphs = look.glyphs
        if player.get("winner"):
            return Text(glyphs.trophy, "bold yellow")
        if player.get("left"):
            return Text(glyphs.offline, "dim")
        if player.get("away"):
            return Text(glyphs.away, "yellow")
        if player.get("reactor"):
            return Text(look.meme.reactor, "bold magenta")
        return Text(" ")

    def _line(
        self,
        player: Frame,
        look: Look,
        presence: Mapping[int, Badge],
        name_width: int,
        show_payout: bool,
    ) -> Text:
        seat = player.get("seat")
        view = look.view
        line = Text()
        line.append_text(self._marker(player, look))
        line.append(" ")
        line.append(look.meme.dot, color_style(view, seat))
        line.append(" ")
        name = look.name(seat)
        if player.get("left"):
            name.stylize("strike dim")
        badge, badge_style = presence.get(seat, ("", "")) if isinstance(seat, int) else ("", "")
        if badge:
            name = fit(name, max(3, name_width - len(badge) - 1), look.glyphs.ellipsis)
            name.append(" ")
            name.append(badge, badge_style)
        line.append_text(fit(name, name_width, look.glyphs.ellipsis))
        line.append(f"{'$' + str(int(player.get('money', 0))):>6}", "bold")
        line.append(" ")
        if player.get("waiting"):
            line.append(look.meme.waiting, "yellow")
        elif view.get("phase") not in ("rolloff", "over", None):
            line.append(look.glyphs.ready, "green")
        else:
            line.append(" ")
        payout = player.get("last_payout")
        if show_payout:
            line.append(" ")
            shown = signed_money(int(payout)) if isinstance(payout, int) else Text("")
            line.append_text(fit(shown, 5, ""))
        return line
