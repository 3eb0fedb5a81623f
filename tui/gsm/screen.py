"""The Game, Set, Match! tables: what the four games share, then each game's keys and actions.

A cursor walks the card slots (arrows or hjkl, or a click), number keys pick
a card from the hand (Stealing Home: one of the two face-up cards), ``r``
turns it and Enter puts it down at the cursor, drawn there first as a
preview. Everything is drawn from the app's ``view``; a command is sent only
when a template in the view's ``legal`` list admits it (:mod:`.moves`).
"""

from __future__ import annotations

from typing import ClassVar

from partyhost.tui.gsm import moves
from partyhost.tui.gsm.boardview import BoardPicture, BoardView, HandRack, RackCard, draw_board
from partyhost.tui.gsm.cards import LETTERED, Cells, Legend, Painter, Slot, legend_text, painter_for
from partyhost.tui.gsm.text import (
    TITLES,
    claim_feedback,
    describe_event,
    mine,
    round_result_text,
    score_rows,
    scramble_feedback,
    status_line,
    timed_status,
)
from partyhost.tui.party import legal_of
from partyhost.tui.shared.base import TitleBar, seat_name, show_text
from partyhost.tui.shared.chat import ChatScreen
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.shared.gametable import TABLE_KEYS, GameScreen
from partyhost.tui.shared.log import GameLog
from partyhost.tui.shared.scoreboard import Scoreboard
from partyhost.tui.shared.sideways import SidewaysNotice, fits
from partyhost.tui.text import Frame, number_keys
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.widgets import Static

CHOOSE = Binding.Group("Choose")
MOVE = Binding.Group("Move")
STEPS = {"left,h": (-1, 0), "right,l": (1, 0), "up,k": (0, -1), "down,j": (0, 1)}
# The keys all four games share (each puts its own between HEAD and TAIL). Moving stays off
# the footer (the line above the hand names it) so each game's keys and Help fit 80 columns.
HEAD: list[BindingType] = [
    *(
        Binding(str(n % 10), f"choose({n})", "Card", key_display="1-9", show=n == 1, group=CHOOSE)
        for n in range(1, 11)
    ),
    *(
        Binding(keys, f"move({dx},{dy})", "Move", key_display="hjkl", show=False, group=MOVE)
        for keys, (dx, dy) in STEPS.items()
    ),
    Binding("r", "turn", "Turn"),
]
TAIL: list[BindingType] = [
    Binding("i", "initials", "Color letters on/off", show=False),
    Binding("c", "chat", "Chat"),
    *TABLE_KEYS,
    Binding("escape", "leave", "Leave"),
]
TABLE_PARTS = ("#status", "#gsm-feedback", "#gsm-top", "#gsm-rack-title", "#gsm-rack")
"""What the sideways notice stands in for (the title and the footer stay)."""
LOG_LINES = 3
"""The fewest lines the log keeps in the side panel."""
LENS_LINES = 10
"""Lines the slots around the cursor take drawn with compact cards (3 slots, 4 rules)."""
CLAIM_SHOWN = 2.0
"""Seconds "Match! sent" shows when no new view answers the claim."""
REFUSALS = {
    "no_fit": "You cannot vote no fit right now.",
    "call_game": "Put all your cards on your board before calling Game!",
    "stuck": "You already said you are stuck.",
    "draw": "You may draw only when none of your cards fits.",
    "pass": "You may pass only when nothing fits and the pile is empty.",
}
"""What ``send`` says when the view does not offer its argument-free command (any more)."""


def choose_words(count: int) -> str:
    """``1 chooses it``, ``1-5 choose``, ``1-9,0 choose`` (0 is the tenth)."""
    return "1 chooses it" if count == 1 else f"{number_keys(count)} choose"


class GsmScreen(GameScreen):
    """Board, hand, scores, legend and log; subclasses add each game's keys."""

    KIND = "game"
    LEAVE_QUESTION = "Leave this game? Your seat stays behind."
    PLACE: ClassVar[str] = "place"
    """The command type that puts a card down (Stealing Home: ``match``)."""
    RACK_TITLE: ClassVar[str] = "Your hand"
    OFFERED: ClassVar[dict[str, str]] = {}
    """Actions by the command type the view must offer for them (until then: dimmed)."""
    HIDDEN: ClassVar[frozenset[str]] = frozenset()
    """Command types whose ``send`` key leaves the footer while not offered, not dimming."""

    DEFAULT_CSS = """
    GsmScreen #gsm-feedback { height: auto; max-height: 2; padding: 0 1; }
    GsmScreen #gsm-top { height: 1fr; }
    GsmScreen #gsm-board-scroll { width: 1fr; height: 1fr; align: center middle; }
    GsmScreen #gsm-board-scroll { scrollbar-size: 1 1; }
    GsmScreen #gsm-side { width: 34; height: 1fr; border-left: $edge $panel-lighten-2; }
    GsmScreen.-wide #gsm-side { width: 36; }
    GsmScreen #gsm-legend { height: auto; padding: 0 1; }
    GsmScreen #gsm-scores { padding: 0 1; }
    GsmScreen #gsm-log { min-height: 3; }  /* LOG_LINES */
    GsmScreen #gsm-rack-title {
        border-top: $edge $panel-lighten-2; height: 2; padding: 0 1;
        color: $text-accent; text-style: bold;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.cursor: Slot | None = None
        self.selected: int | None = None
        """The chosen card's id (from the hand, or Scramble's board when ``moving``)."""
        self.turned = False
        self.moving = False
        self.initials = True
        self.claim_sent = False
        self.zoom = "normal"
        """How big the board's cards are drawn (see :data:`~partyhost.tui.gsm.cards.ZOOMS`)."""

    def compose(self) -> ComposeResult:
        yield TitleBar(id="title")
        yield Static("", id="status")
        yield Static("", id="gsm-feedback")
        with Horizontal(id="gsm-top"):
            with ScrollableContainer(id="gsm-board-scroll", can_focus=False):
                yield BoardView(self.painter, id="gsm-board")
            with Vertical(id="gsm-side"):
                yield Static("Scores", classes="section-title")
                yield Scoreboard(
                    self.glyphs,
                    value_width=8,
                    widths=(20, 30),
                    overflow="ellipsis",
                    id="gsm-scores",
                )
                yield Static(self._legend_title(), classes="section-title", id="gsm-legend-title")
                yield Static("", id="gsm-legend")
                yield GameLog(
                    lambda event: describe_event(event, self.view, self._who, self.glyphs),
                    id="gsm-log",
                )
        yield Static("", id="gsm-rack-title")
        yield HandRack(self.rack_painter, id="gsm-rack")
        yield SidewaysNotice(id="gsm-sideways")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.on_resize()
        self.watch(self.app, "view", self._view_changed)
        self.watch(self.app, "room", self.redraw_table, init=False)

    def on_resize(self) -> None:
        self._fit_table()
        self.call_after_refresh(self.redraw_table)

    def _fit_table(self) -> None:
        """The table, or the notice to turn the phone sideways when the terminal is too small."""
        table_fits = fits(self.app.size)
        for part in TABLE_PARTS:
            self.query_one(part).display = table_fits
        self.query_one("#gsm-sideways", SidewaysNotice).display = not table_fits

    # --- reading the view -------------------------------------------------------

    @property
    def painter(self) -> Painter:
        """The board's tile painter for the view's legend and the zoom."""
        return self._painter_for(self.zoom)

    @property
    def rack_painter(self) -> Painter:
        """The hand's painter: tall beside a tall board, else normal (always readable)."""
        return self._painter_for("tall" if self.zoom == "tall" else "normal")

    def _painter_for(self, zoom: str) -> Painter:
        return painter_for(
            Legend.from_view(self.view),
            zoom,
            ascii_only=self.party.ascii_only,
            initials=self.initials,
            native=self.app.native_ansi_color,
        )

    def _best_zoom(self) -> str:
        """The biggest drawing of the cards that lets the whole board fit its space, measured
        with each size of hand (tall tiles make it taller), so the choice does not flip."""
        if not self.is_mounted:
            return "normal"
        board = self.query_one("#gsm-board-scroll", ScrollableContainer).outer_size
        rack = self.query_one(HandRack)
        both = board.height + rack.size.height
        space = moves.Space(board.width, both - rack.height_at(1), both - rack.height_at(2))
        return moves.best_zoom(self.view, self.PLACE, space, self.party.ascii_only)

    def choice(self) -> moves.Choice:
        return moves.Choice(self.selected, self.turned, self.moving)

    def _legend_title(self) -> str:
        return "Legend" if self.party.ascii_only else "Legend (i: hide color letters)"

    def _name_of(self, seat: object) -> str:
        return seat_name(self.party.room, seat)

    def hand(self) -> list[Frame]:
        """The numbered cards: your hand (Stealing Home: the face-up pair)."""
        return [c for c in self.view.get("hand", []) if isinstance(c, dict)]

    def selected_cells(self) -> Cells | None:
        """The chosen card as it would lie at the cursor."""
        return moves.chosen_cells(self.view, self.hand(), self.choice())

    # --- drawing ----------------------------------------------------------------

    def _view_changed(self) -> None:
        self.claim_sent = False
        if self.selected is not None and self.selected_cells() is None:
            self._drop_selection()
        self.redraw_table()

    def redraw_table(self) -> None:
        view = self.view
        if not view or not self.on_stage:
            return
        zoom = self._best_zoom()
        if zoom != self.zoom:  # the hand's height changes with it: look again once laid out
            self.zoom = zoom
            self.call_after_refresh(self.redraw_table)
        painter = self.painter
        self._title()
        self._show_status()
        feedback = self.feedback()
        box = self.query_one("#gsm-feedback", Static)
        box.display = bool(feedback.plain)
        show_text(box, feedback)
        self.query_one(BoardView).show(self.picture(), painter)
        self.call_after_refresh(self._scroll_to_cursor)
        self._show_rack(self.rack_painter)
        self._show_side(painter)
        self.keys_follow_view()

    def _show_side(self, painter: Painter) -> None:
        """Scores, then the legend, or beside a board too small for color letters the slots
        around the cursor drawn with them."""
        rows = score_rows(
            self.view, self._name_of, self.glyphs, self.party.ascii_only, self.presence_badges()
        )
        box = self.query_one("#gsm-legend", Static)
        if self.zoom not in LETTERED:
            lens = "compact" if len(rows) <= self._score_rows_room(LENS_LINES) else "dense"
            shown = draw_board(moves.lens_picture(self.picture(), lens), self._painter_for(lens))
            title = "Around the cursor"
        else:
            shown = legend_text(painter.legend, painter, max(10, box.size.width or 30))
            title = self._legend_title()
        show_text(self.query_one("#gsm-legend-title", Static), Text(title))
        show_text(box, shown)
        self.query_one(Scoreboard).show(
            rows, rows=self._score_rows_room(len(shown.plain.splitlines()))
        )

    def _score_rows_room(self, below: int) -> int:
        """Score lines the side panel has room for beside the titles, ``below`` lines of legend
        and the smallest log."""
        side = self.query_one("#gsm-side", Vertical).size.height
        return side - 2 - below - LOG_LINES if side else 99

    def _title(self) -> None:
        view = self.view
        parts: list[Text | str] = [
            Text(f"room {self.party.room_code or ''}", "bold"),
            Text(TITLES.get(str(view.get("game")), "Game, Set, Match!")),
        ]
        if isinstance(view.get("pile"), int):
            parts.append(f"{view['pile']} in the pile")
        self.show_title(*parts)

    def timed_status(self) -> tuple[Text, bool]:
        line = self.pause_note()
        line.append_text(status_line(self.view, self._who, self.glyphs, self.party.ascii_only))
        return timed_status(line, self.view, self.game_time())

    def feedback(self) -> Text:
        """A colored line under the status (the outcome of your last call)."""
        return Text()

    def picture(self) -> BoardPicture:
        """The board as the view has it, with cursor, preview and the view's marks."""
        choice = self.choice()
        self.cursor = moves.clamp(self.cursor, self.view, self.PLACE, choice)
        return moves.board_picture(
            self.view,
            self.PLACE,
            self.cursor,
            choice,
            self.selected_cells(),
            self.zoom,
            self.party.ascii_only,
        )

    def _scroll_to_cursor(self) -> None:
        if not self.on_stage:
            return
        region = self.query_one(BoardView).cursor_region()
        if region is not None:
            self.query_one("#gsm-board-scroll", ScrollableContainer).scroll_to_region(
                region, animate=False, immediate=True
            )

    def rack_title(self) -> Text:
        count = len(self.hand())
        if self.view.get("you") is None:
            return Text("You are watching: no cards in hand.", "dim")
        if self.moving:
            return Text("Moving a card: Enter puts it down, r turns it, Esc leaves it.")
        turn = ", r turns it" if moves.may_turn(self.view, self.PLACE) else ""
        if not count:
            return Text(f"{self.RACK_TITLE}: arrows move the cursor")
        return Text(f"{self.RACK_TITLE} ({count}): {choose_words(count)}{turn}{self.rack_hint()}")

    def rack_hint(self) -> str:
        """What the keys do besides choosing and turning a card."""
        return ", arrows move"

    def _show_rack(self, painter: Painter) -> None:
        show_text(self.query_one("#gsm-rack-title", Static), self.rack_title())
        cards = []
        for number, entry in enumerate(self.hand(), start=1):
            chosen = not self.moving and entry.get("id") == self.selected
            turned = chosen and self.turned
            cards.append(RackCard(number, moves.lying(entry, turned), chosen, turned))
        self.query_one(HandRack).show(cards, painter, self.empty_rack())

    def empty_rack(self) -> str:
        return "No cards in hand."

    # --- actions ----------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "send":
            offered = bool(legal_of(self.view, str(parameters[0])))
            return offered if parameters[0] in self.HIDDEN else offered or None
        if action in self.OFFERED:
            return bool(legal_of(self.view, self.OFFERED[action])) or None
        if action == "turn":
            return moves.may_turn(self.view, self.PLACE) or None
        if action == "choose":
            return self.choices() > 0
        return super().check_action(action, parameters)

    def choices(self) -> int:
        return len(self.hand())

    def action_choose(self, number: int) -> None:
        hand = self.hand()
        if not 1 <= number <= len(hand):
            return
        card = hand[number - 1].get("id")
        again = self.selected == card and not self.moving
        self._drop_selection()
        if not again:
            self.selected = card if isinstance(card, int) else None
            self._cursor_to_a_fit()
        self.redraw_table()

    def _cursor_to_a_fit(self) -> None:
        """With hints on, a chosen card takes the cursor to the nearest slot it fits (turning it
        if only that fits), unless the cursor is on such a slot."""
        marks = moves.marks(self.view, self.PLACE, self.selected, self.turned)
        here = marks.get(self.cursor) if self.cursor is not None else None
        if here in ("fit", "turn"):
            self.turned ^= here == "turn"
            return
        fits = [slot for slot, kind in marks.items() if kind == "fit"]
        if not fits:
            fits = [slot for slot, kind in marks.items() if kind == "turn"]
            self.turned ^= bool(fits)
        if not fits:
            return
        x, y = self.cursor or (0, 0)
        self.cursor = min(fits, key=lambda slot: (abs(slot[0] - x) + abs(slot[1] - y), slot))

    def action_move(self, dx: int, dy: int) -> None:
        x, y = self.cursor or (0, 0)
        self.cursor = (x + dx, y + dy)
        self.redraw_table()

    def action_turn(self) -> None:
        if self.selected is None:
            self.notify("Choose a card first (its number), then r turns it.", timeout=3)
            return
        self.turned = not self.turned
        self.redraw_table()

    def action_initials(self) -> None:
        self.initials = not self.initials
        self.redraw_table()

    def action_confirm(self) -> None:
        """Put the chosen card down at the cursor (the game's place or match command)."""
        if self.cursor is None:
            return
        here = moves.board_cards(self.view).get(self.cursor)
        if self.selected is None:
            self.confirm_without_card(here)
            return
        if here is not None and not (self.moving and here.get("card") == self.selected):
            self.notify("That slot is taken: move the cursor to an empty slot.", timeout=3)
            return
        command = moves.placement(self.view, self.PLACE, self.selected, self.cursor, self.turned)
        if isinstance(command, str):
            self.notify(self.not_now() or command, severity="warning", timeout=4)
            return
        if self.party.play(command):
            self.sent()

    def not_now(self) -> str:
        """Why no card may be put down now ("" when one may)."""
        return ""

    def confirm_without_card(self, here: Frame | None) -> None:
        """Enter with no card chosen (Scramble picks up a board card here)."""
        if self.hand():
            self.notify("Choose a card first: press its number.", timeout=3)

    def sent(self) -> None:
        """A placement went out; the choice stays until the card leaves the hand, so one the
        host refuses can be tried elsewhere."""
        self.redraw_table()

    def _drop_selection(self) -> None:
        self.selected, self.turned, self.moving = None, False, False

    def card_here(self) -> int | None:
        """The card on the board at the cursor."""
        here = moves.board_cards(self.view).get(self.cursor) if self.cursor else None
        card = here.get("card") if here else None
        return card if isinstance(card, int) else None

    def play_card(self, kind: str, card: int | None, refusal: str) -> bool:
        """Send ``{type, card}`` if the view lists ``card`` for it; True once sent."""
        command = moves.card_command(self.view, kind, card) if card is not None else None
        if command is None:
            self.notify(refusal, timeout=3)
            return False
        return self.party.play(command)

    def action_send(self, kind: str) -> None:
        """Send an argument-free command (no fit, draw, pass...) if the view offers it."""
        command = moves.simple(self.view, kind)
        if command is None:
            self.notify(REFUSALS[kind], timeout=3)
        else:
            self.party.play(command)

    on_board_view_resized = _scroll_to_cursor

    @on(BoardView.SlotClicked)
    def _slot_clicked(self, event: BoardView.SlotClicked) -> None:
        if event.slot == self.cursor:
            self.action_confirm()
        else:
            self.cursor = event.slot
            self.redraw_table()

    @on(HandRack.Chosen)
    def _card_clicked(self, event: HandRack.Chosen) -> None:
        self.action_choose(event.number)

    def action_chat(self) -> None:
        self.app.push_screen(ChatScreen())

    def action_leave(self) -> None:
        if self.selected is not None:
            self._drop_selection()
            self.redraw_table()
            return
        super().action_leave()


class StealingHomeScreen(GsmScreen):
    """Race to place one of the two face-up cards; the first right claim wins it."""

    PLACE = "match"
    RACK_TITLE = "Face-up cards"
    BINDINGS: ClassVar[list[BindingType]] = [
        *HEAD,
        Binding("m", "confirm", "Match!"),
        Binding("enter", "confirm", "Match!", show=False),
        Binding("n", "send('no_fit')", "No fit"),
        *TAIL,
    ]
    OFFERED: ClassVar[dict[str, str]] = {"confirm": "match"}

    def hand(self) -> list[Frame]:
        return [c for c in self.view.get("face_up", []) if isinstance(c, dict)]

    def empty_rack(self) -> str:
        return "No cards are face up right now."

    def feedback(self) -> Text:
        return claim_feedback(self.view, self.party.events, self._who, self.claim_sent)

    def round_result(self) -> tuple[str, Text]:
        """Who matched (the card is outlined on the board), a tie, or no fit and why."""
        return "The round's result", round_result_text(self.view, self._who)

    def not_now(self) -> str:
        if legal_of(self.view, "match"):
            return ""
        if mine(self.view).get("locked"):
            return "You are locked out until the next round."
        if self.view.get("you") in self.view.get("called", []):
            return "Your Match! is being checked."
        return "You cannot claim right now."

    def confirm_without_card(self, here: Frame | None) -> None:
        if not self.stray_key():  # else Enter meant for a result that had just closed by itself
            self.notify(self.not_now() or "Choose a face-up card first: 1 or 2.", timeout=3)

    def sent(self) -> None:
        self.claim_sent = True
        super().sent()
        self.set_timer(CLAIM_SHOWN, self._claim_answered)

    def _claim_answered(self) -> None:
        """No view came back (the host refused the claim and said why): stop saying "sent"."""
        if self.claim_sent:
            self.claim_sent = False
            self.redraw_table()


class ScrambleScreen(GsmScreen):
    """Your own board: place, move, turn and take back freely, then call Game!."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *HEAD,
        Binding("enter", "confirm", "Place"),
        Binding("t", "take_back", "Take back"),
        Binding("backspace", "take_back", "Take back", show=False),
        Binding("g", "send('call_game')", "Game!"),
        Binding("s", "send('stuck')", "Stuck"),
        *TAIL,
    ]
    OFFERED: ClassVar[dict[str, str]] = {"take_back": "take_back"}
    # Game! stays off the footer until the grid is whole: room for Turn.
    HIDDEN: ClassVar[frozenset[str]] = frozenset({"call_game"})

    def rack_hint(self) -> str:
        """Once cards lie on your board, how to pick one up again."""
        if moves.board_cards(self.view):
            return "; Enter picks up a placed card"
        return super().rack_hint()

    def empty_rack(self) -> str:
        if legal_of(self.view, "call_game"):
            return "All your cards are on your board: press g to call Game!"
        return "No cards in hand."

    def feedback(self) -> Text:
        return scramble_feedback(self.view)

    def round_result(self) -> tuple[str, Text]:
        """Who called Game! rightly, and where the match stands."""
        last = self.view.get("last")
        if not isinstance(last, dict) or not last.get("valid"):
            return super().round_result()
        text = Text.assemble(
            self._who(last.get("seat")), " called Game! and every card fits: ", ("a win", "bold")
        )
        needed = self.view.get("wins_needed")
        text.append(f" (first to {needed} wins the match).\n\n" if needed else ".\n\n")
        for entry in self.view.get("scores", []):
            if isinstance(entry, dict):
                text.append_text(self._who(entry.get("seat")))
                text.append(f"  {entry.get('wins', 0)} won\n")
        text.append("\nFresh cards are dealt for the next game.", "dim")
        number = self.view.get("game_number")
        decided = number - 1 if isinstance(number, int) and number > 1 else number
        return f"Game {decided} is decided", text

    def sent(self) -> None:
        self._drop_selection()  # a moved card stays yours: do not keep carrying it
        super().sent()

    def confirm_without_card(self, here: Frame | None) -> None:
        card = self.card_here()
        if card is not None and moves.card_command(self.view, "take_back", card):
            self.selected, self.moving = card, True
            self.turned = bool(here.get("turned")) if here else False
            self.redraw_table()
        elif self.hand():
            self.notify("Choose a card first: press its number.", timeout=3)

    def action_turn(self) -> None:
        if self.selected is not None:
            super().action_turn()
        else:
            refusal = "Choose a card, or put the cursor on one of yours, to turn it."
            self.play_card("turn", self.card_here(), refusal)

    def action_take_back(self) -> None:
        card = self.selected if self.moving else self.card_here()
        refusal = "Put the cursor on one of your cards to take it back."
        if self.play_card("take_back", card, refusal):
            self._drop_selection()
            self.redraw_table()


class GridironScreen(GsmScreen):
    """Turns: place a card; draw (or pass) only when the host says nothing fits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *HEAD,
        Binding("enter", "confirm", "Place"),
        Binding("d", "send('draw')", "Draw"),
        Binding("p", "send('pass')", "Pass"),
        Binding("enter", "send('draw')", "Draw", show=False),
        Binding("enter", "send('pass')", "Pass", show=False),
        *TAIL,
    ]
    OFFERED: ClassVar[dict[str, str]] = {"confirm": "place"}
    HIDDEN: ClassVar[frozenset[str]] = frozenset({"draw", "pass"})

    def confirm_without_card(self, here: Frame | None) -> None:
        self.notify(self.not_now() or "Choose a card first: press its number.", timeout=3)

    def not_now(self) -> str:
        if legal_of(self.view, "draw") or legal_of(self.view, "pass"):
            return "None of your cards fits: draw (d) or pass (p)."
        if not legal_of(self.view, "place"):
            return f"It is {self._name_of(self.view.get('turn'))}'s turn."
        return ""


class FourCornersScreen(GsmScreen):
    """Two lines through the middle card; each player builds only at the ends of their own."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *HEAD,
        Binding("enter", "confirm", "Place"),
        Binding("t", "take_back", "Take back"),
        Binding("backspace", "take_back", "Take back", show=False),
        Binding("s", "send('stuck')", "Stuck"),
        *TAIL,
    ]
    OFFERED: ClassVar[dict[str, str]] = {"take_back": "take_back"}

    def action_take_back(self) -> None:
        self.play_card(
            "take_back",
            self.card_here(),
            "Put the cursor on your card at an end of your line to take it back.",
        )
