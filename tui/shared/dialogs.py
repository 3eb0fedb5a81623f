"""The dialogs every game shares: create or join a room, options, a yes or no, a refused deck,
and the banner while the link is down."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, Self

from partyhost.decks.catalog import declared_game
from partyhost.decks.files import DeckFileError, load_deck_file
from partyhost.net.clients.client import DeckFileUnsendable, read_deck_files
from partyhost.net.protocol import MAX_PASSWORD_LENGTH, ROOM_CODE_LENGTH
from partyhost.tui.shared.base import HELP_KEY, PAGE_KEYS, PartyModal, ResultT
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.shared.options import OptionsForm, TickBox
from partyhost.tui.text import Frame, counted, literal
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, Select, Static

_UNSET = object()
"""No deck choice given: the game's default deck, unless a deck file is chosen."""
DIALOG_BINDINGS: list[BindingType] = [
    Binding("escape", "close", "Cancel"),
    Binding("ctrl+s", "confirm", "OK"),
    *PAGE_KEYS,
    HELP_KEY,
]


class Dialog(PartyModal[ResultT | None]):
    """A modal with OK/Cancel buttons (Enter in a field is OK); subclasses say what OK
    returns, or ``None`` to stay open."""

    BINDINGS: ClassVar[list[BindingType]] = DIALOG_BINDINGS

    def buttons(self, ok: str) -> Horizontal:
        return Horizontal(
            Button(ok, id="ok", variant="primary", compact=True),
            Button("Cancel", id="cancel", compact=True),
            classes="buttons",
        )

    def result(self) -> ResultT | None:
        raise NotImplementedError

    def page_scroller(self) -> ScrollableContainer | None:
        """The dialog's own area, if it scrolls (a phone held sideways); looked for among the
        screen's children only: the footer asks at every redraw of its keys."""
        for child in self.children:
            if isinstance(child, ScrollableContainer) and child.has_class("dialog"):
                return child
        return None

    def reopened(self) -> Self:
        """This dialog, kept since it closed, ready to open again; by default as it was left."""
        return self

    @on(Button.Pressed, "#ok")
    @on(Input.Submitted)
    def action_confirm(self) -> None:
        result = self.result()
        if result is not None:
            self.dismiss(result)

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.action_close()


class CreateRoomScreen(Dialog[Frame]):
    """Pick a game, the host's deck and maybe a deck file from this computer, a password, options.

    The host's decks follow its newest ``decks`` listing (a broken one named with its first
    problem); ``choices`` (what the dialog held last time, or a ``--deck`` file) fill it in.
    Its result is ``create_room``'s arguments.
    """

    AUTO_FOCUS = "#game"

    def __init__(self, games: list[Frame], choices: Frame | None = None) -> None:
        super().__init__()
        self.games = self._offered(games)
        self.choices = dict(choices or {})
        self.offered: list[str] = []
        """The names of the host's decks the deck field offers now."""
        self.shown_game: str | None = None

    def _first_game(self) -> Frame | None:
        wanted = self.choices.get("game")
        if wanted is None and self.choices.get("deck_file"):
            declared = game_of_file(str(self.choices["deck_file"]))
            wanted = next((g["id"] for g in self.games if g.get("deck_game") == declared), None)
        by_id = {game["id"]: game for game in self.games}
        return by_id.get(wanted) or by_id.get("tshirt") or next(iter(self.games), None)

    def compose(self) -> ComposeResult:
        first = self._first_game()
        with VerticalScroll(classes="dialog", id="create-room"):
            yield Static("Create a room", classes="dialog-title")
            with Horizontal(classes="field"):
                yield Label("Game", classes="field-label")
                yield Select(
                    [(literal(g.get("name") or g["id"]), g["id"]) for g in self.games],
                    value=first["id"] if first else Select.NULL,
                    allow_blank=False,
                    id="game",
                    compact=True,
                )
            with Horizontal(classes="field"):
                yield Label("Deck", classes="field-label")
                yield Select([], id="deck", compact=True, prompt="none: only my deck file")
            yield Static("", id="deck-about", classes="hint")
            yield Static("", id="deck-broken", classes="hint deck-broken")
            with Horizontal(classes="field"):
                yield Label("Deck file", classes="field-label")
                yield Input(
                    str(self.choices.get("deck_file") or ""),
                    placeholder="a deck file from this computer (optional)",
                    id="deck-file",
                    compact=True,
                )
            yield Static("", id="deck-file-note", classes="hint deck-note")
            yield Static("", id="deck-file-problem", classes="deck-broken")
            with Horizontal(classes="field"):
                yield Label("Password", classes="field-label")
                yield Input(
                    placeholder="none: anyone may join",
                    password=True,
                    max_length=MAX_PASSWORD_LENGTH,
                    id="password",
                    compact=True,
                )
            with Vertical(id="options-slot"):
                yield self._options_form(first)
            yield self.buttons("Create")
        yield KeyFooter()

    def on_mount(self) -> None:
        game = self._game()
        self.shown_game = (game or {}).get("id")
        self._fill_decks(game, self.choices.get("deck", _UNSET))
        self.call_after_refresh(self.refresh_bindings)  # the page keys, if it scrolls
        self.query_one("#deck-file-problem", Static).display = False
        self._show_deck_file()
        self.watch(self.app, "decks", self._decks_changed, init=False)
        self._ask_for_decks()

    def built_for(self, games: list[Frame]) -> bool:
        """Whether this dialog was built for these games."""
        return self.games == self._offered(games)

    @staticmethod
    def _offered(games: list[Frame]) -> list[Frame]:
        """The welcome's games with an id, by name (the four Game, Set, Match! games together)."""
        offered = [game for game in games if isinstance(game.get("id"), str)]
        return sorted(offered, key=lambda game: str(game.get("name") or game["id"]).casefold())

    def reopened(self) -> Self:
        """Game, deck, file and options stay (a second room like the first is one keypress);
        the password and an old problem do not; the host's decks are asked for afresh."""
        if self.is_mounted:
            self.query_one("#password", Input).value = ""
            self.query_one("#deck-file-problem", Static).display = False
            for select in self.query(Select):
                select.expanded = False
            self.query_one("#create-room", VerticalScroll).scroll_home(animate=False)
            self.set_focus(self.query_one("#game", Select))
            self._ask_for_decks()
        return self

    def _ask_for_decks(self) -> None:
        if self.party.link == "online":
            self.party.requests.list_decks()

    def _game(self) -> Frame | None:
        chosen = self.query_one("#game", Select).value
        return next((g for g in self.games if g["id"] == chosen), None)

    @on(Select.Changed, "#game")
    async def _game_changed(self) -> None:
        game = self._game()
        if (game or {}).get("id") == self.shown_game:  # the echo of the first value
            return
        self.shown_game = (game or {}).get("id")
        self._fill_decks(game, _UNSET)
        slot = self.query_one("#options-slot", Vertical)
        await slot.remove_children()
        await slot.mount(self._options_form(game))
        self.call_after_refresh(self.refresh_bindings)  # the page keys, if it now scrolls

    @on(Input.Changed, "#deck-file")
    def _show_deck_file(self) -> None:
        note = self.query_one("#deck-file-note", Static)
        raw = self.query_one("#deck-file", Input).value.strip()
        note.update(deck_file_note(raw) if raw else "")
        note.display = bool(raw)
        self.query_one("#deck-file-problem", Static).display = False

    def _decks_changed(self) -> None:
        chosen = self.query_one("#deck", Select).value
        self._fill_decks(self._game(), None if chosen is Select.NULL else chosen)

    def _fill_decks(self, game: Frame | None, wanted: object) -> None:
        usable, broken = host_decks(self.party.decks, game)
        deck_select: Select[str] = self.query_one("#deck", Select)
        deck_select.set_options(
            [(literal(d.get("title") or d["name"]), str(d["name"])) for d in usable]
        )
        names = self.offered = [str(d["name"]) for d in usable]
        if wanted in names:
            deck_select.value = str(wanted)
        elif wanted is _UNSET and names and not self.query_one("#deck-file", Input).value:
            default = (game or {}).get("default_deck")
            deck_select.value = default if default in names else names[0]
        broken_line = self.query_one("#deck-broken", Static)
        broken_line.update(broken_lines(broken))
        broken_line.display = bool(broken)
        self._show_deck_about()

    @staticmethod
    def _options_form(game: Frame | None) -> OptionsForm:
        options = list((game or {}).get("options", []))
        return OptionsForm(options, game=(game or {}).get("id"), id="options")

    @on(Select.Changed, "#deck")
    def _show_deck_about(self) -> None:
        usable, _ = host_decks(self.party.decks, self._game())
        chosen = self.query_one("#deck", Select).value
        deck: Frame = next((d for d in usable if d.get("name") == chosen), {})
        about = self.query_one("#deck-about", Static)
        about.update(preview(deck))
        about.display = bool(deck)

    def result(self) -> Frame | None:
        game = self._game()
        if game is None:
            self.notify("This host offers no games.", severity="error")
            return None
        deck = self.query_one("#deck", Select).value
        deck_file = self.query_one("#deck-file", Input).value.strip()
        password = self.query_one("#password", Input).value
        forms = self.query(OptionsForm)
        request: Frame = {
            "game": game["id"],
            "deck": None if deck is Select.NULL else deck,
            "options": forms.first().values() if forms else {},
            "password": password or None,
        }
        if deck_file:
            try:
                request["deck_files"] = read_deck_files([Path(deck_file).expanduser()])
            except DeckFileUnsendable as problem:
                shown = self.query_one("#deck-file-problem", Static)
                shown.update(literal(str(problem)))
                shown.display = True
                self.query_one("#deck-file", Input).focus()
                return None
        self.party.create_choices = {
            "game": game["id"],
            "deck": request["deck"],
            "deck_file": deck_file or None,
        }
        return request


class JoinRoomScreen(Dialog[Frame]):
    """Join (or watch) a room by its code, with its password if it has one; its result is
    ``join_room``'s arguments."""

    def __init__(
        self, code: str = "", *, needs_password: bool = False, spectate: bool = False
    ) -> None:
        super().__init__()
        self.code = code
        self.needs_password = needs_password
        self.spectate = spectate

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="join-room"):
            yield Static("Join a room", classes="dialog-title")
            with Horizontal(classes="field"):
                yield Label("Room code", classes="field-label")
                yield Input(
                    self.code,
                    placeholder=f"{ROOM_CODE_LENGTH} letters, e.g. KQZD",
                    max_length=16,
                    id="code",
                    compact=True,
                )
            with Horizontal(classes="field"):
                yield Label("Password", classes="field-label")
                yield Input(
                    placeholder="if the room has one",
                    password=True,
                    max_length=MAX_PASSWORD_LENGTH,
                    id="password",
                    compact=True,
                )
            yield TickBox("Just watch (spectate)", self.spectate, id="spectate", compact=True)
            yield self.buttons("Join")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#password" if self.code and self.needs_password else "#code").focus()

    def reopened(self) -> Self:
        """Opens as new: a code names one room, so nothing typed for the last one stays."""
        if self.is_mounted:
            for field in self.query(Input):
                field.value = ""
            self.query_one("#spectate", TickBox).value = False
            self.set_focus(self.query_one("#code", Input))
        return self

    def result(self) -> Frame | None:
        code = self.query_one("#code", Input).value.strip().upper()
        if not code:
            self.notify("Type the room's code.", severity="warning")
            return None
        password = self.query_one("#password", Input).value
        return {
            "code": code,
            "password": password or None,
            "spectate": self.query_one("#spectate", TickBox).value,
        }


class RoomOptionsScreen(Dialog[Frame]):
    """The owner changes the room's rule options before the game starts."""

    def __init__(self, options: list[Frame], values: Frame, game: object = None) -> None:
        super().__init__()
        self.options = options
        self.values = values
        self.game = game

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="room-options"):
            yield Static("Rule options", classes="dialog-title")
            yield OptionsForm(self.options, self.values, game=self.game, id="options")
            yield self.buttons("Save")
        yield KeyFooter()

    def result(self) -> Frame | None:
        return self.query_one(OptionsForm).values()


class ConfirmScreen(PartyModal[bool]):
    """A yes/no question; y/Enter says yes, n/Escape says no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
        HELP_KEY,
    ]
    AUTO_FOCUS = "#no"
    """No has the focus from the first moment: an Enter that comes quickly says no."""

    def __init__(self, question: str | Text, yes: str = "Yes") -> None:
        """``question`` as Text when it quotes what people typed (shown literally)."""
        super().__init__()
        self.question = question
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="confirm"):
            yield Static(self.question, id="confirm-question")
            yield Horizontal(
                Button(self.yes, id="yes", variant="warning", compact=True),
                Button("No", id="no", compact=True),
                classes="buttons",
            )
        yield KeyFooter()

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


def confirm_then(
    app: App[Any], question: str | Text, yes: str, action: Callable[[], object]
) -> None:
    """Ask ``question`` with ``yes`` on the yes button; run ``action`` only on a yes."""

    def answered(answer: bool | None) -> None:
        if answer:
            action()

    app.push_screen(ConfirmScreen(question, yes), answered)


class ReconnectingScreen(PartyModal[None]):
    """A banner over the dimmed last view while the link is down; it goes when the link is back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "give_up", "Stop waiting"),
        HELP_KEY,
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="reconnecting", classes="dialog"):
            yield Static("Connection lost", classes="dialog-title")
            yield Static("", id="reconnect-text")
            yield Static("Your seat is kept. Escape stops waiting.", classes="hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.watch(self.app, "link", self._show_state)
        self.watch(self.app, "retry_at", self._show_state)
        self.set_interval(1, self._show_state)  # the count of a wait the host asked for

    def _show_state(self) -> None:
        dots = self.glyphs.ellipsis
        retry_at = self.party.retry_at
        wait = None if retry_at is None else math.ceil(retry_at - time.monotonic())
        if wait is not None and wait > 0:
            text = f"The host asked to wait. Trying again in {wait} s"
        elif self.party.link == "reconnecting":
            text = f"Trying to reach the host again{dots}"
        else:
            text = f"The host stopped answering. Reconnecting{dots}"
        self.query_one("#reconnect-text", Static).update(text)

    def action_give_up(self) -> None:
        self.party.disconnect()


def problem_line(problem: Frame) -> Text:
    """``office.yaml:14:5`` in bold, then what is wrong."""
    where = f"{problem.get('file', '?')}:{problem.get('line', '?')}:{problem.get('column', '?')}"
    return Text.assemble(literal(where, "bold"), "  ", literal(problem.get("message", "")))


class DeckProblemsScreen(PartyModal[None]):
    """The host's answer to a deck it cannot use; the create dialog keeps your choices."""

    AUTO_FOCUS = "#close"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter", "close", "Close"),
        HELP_KEY,
    ]

    def __init__(self, problems: list[Frame]) -> None:
        super().__init__()
        self.problems = problems

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="deck-problems"):
            yield Static("The host cannot use this deck", classes="dialog-title")
            count = counted(len(self.problems), "problem")
            yield Static(Text(f"{count}, each at its line and column:"))
            with VerticalScroll(id="deck-problem-list"):
                for problem in self.problems:
                    yield Static(problem_line(problem), classes="deck-problem")
            yield Static(
                "Fix the file and create the room again (c): the dialog keeps your choices.",
                classes="hint",
            )
            yield Horizontal(
                Button("OK", id="close", variant="primary", compact=True), classes="buttons"
            )
        yield KeyFooter()

    @on(Button.Pressed, "#close")
    def _ok_pressed(self) -> None:
        self.dismiss(None)


BROKEN_SHOWN = 3
SAMPLES_SHOWN = 3


def host_decks(listed: tuple[Frame, ...], game: Frame | None) -> tuple[list[Frame], list[Frame]]:
    """The host's usable decks of ``game`` and its broken ones (those of no known game too),
    from its newest ``decks`` listing, or the welcome's before one arrives."""
    if game is None:
        return [], []
    if not listed:
        found = [d for d in game.get("decks", []) if isinstance(d, dict) and d.get("name")]
        return found, []
    deck_game = game.get("deck_game", game.get("id"))
    usable = [d for d in listed if d.get("game") == deck_game and not d.get("problem")]
    broken = [d for d in listed if d.get("problem") and d.get("game") in (deck_game, None)]
    return usable, broken


SECTION_WORDS = {"tshirts": "T-shirts", "hot_or_not": "Hot or Not cards"}
"""How a deck file's section names read in a sentence, where they do not read as they are."""


def preview(deck: Frame) -> Text:
    """Its description, how many cards of each kind, and a few of them (a line each)."""
    lines: list[Text] = []
    if deck.get("description"):
        lines.append(literal(deck["description"]))
    cards = deck.get("cards")
    if isinstance(cards, dict) and cards:
        counts = (
            f"{n} {SECTION_WORDS.get(kind, kind.replace('_', ' '))}" for kind, n in cards.items()
        )
        lines.append(literal(", ".join(counts), "bold"))
    samples = [s for s in deck.get("samples", []) if isinstance(s, str)][:SAMPLES_SHOWN]
    if samples:
        quoted = [Text.assemble('"', literal(sample, "italic"), '"') for sample in samples]
        lines.append(Text.assemble("e.g. ", Text(", ").join(quoted)))
    return Text("\n").join(lines)


def broken_lines(broken: list[Frame]) -> Text:
    """One line per broken deck with its problem's first line (``partyhost decks validate``
    prints the rest)."""
    text = Text()
    for number, deck in enumerate(broken[:BROKEN_SHOWN]):
        text.append("\n" if number else "")
        text.append("Not offered: ", "bold")
        text.append_text(literal(str(deck.get("problem", "")).split("\n", 1)[0]))
    if len(broken) > BROKEN_SHOWN:
        text.append(f"\n... and {len(broken) - BROKEN_SHOWN} more broken deck(s)")
    return text


def deck_file_note(raw: str) -> Text:
    """What the dialog says about a typed path: the file it will send, what to fix in it first
    (by the host's rules, before the room is asked for), or that there is none."""
    path = Path(raw).expanduser()
    try:
        size = path.stat().st_size
    except OSError:
        return Text(f"No file at {raw} (yet).")
    try:
        load_deck_file(path)
    except DeckFileError as exc:
        first = exc.errors[0]
        more = f" (and {len(exc.errors) - 1} more)" if len(exc.errors) > 1 else ""
        return Text.assemble(
            literal(path.name, "bold"),
            f": fix first, line {first.line}, column {first.column}: ",
            literal(first.message.split("\n", 1)[0]),
            more,
        )
    return Text.assemble(
        literal(path.name, "bold"), f", {max(1, round(size / 1024))} KiB: sent with the request"
    )


def game_of_file(raw: str) -> str | None:
    """The ``game:`` a deck file on this computer declares, if it can be read."""
    try:
        files = read_deck_files([Path(raw).expanduser()])
    except DeckFileUnsendable:
        return None
    return declared_game(files[0]["text"])
