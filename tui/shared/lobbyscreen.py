"""The host's lobby: the rooms open right now (create one, join one, or watch), tonight's
standings, the past games (``p``) and the browser door's QR code (``w``: half blocks, so a
LAN URL's code fits 80x24; white on black whatever the theme)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from partyhost.net.protocol import MAX_URL_LENGTH
from partyhost.net.qrdrawing import draw_qr
from partyhost.tui.shared.base import HELP_KEY, PartyModal, PartyScreen, TitleBar, deck_title
from partyhost.tui.shared.dialogs import CreateRoomScreen, Dialog, JoinRoomScreen
from partyhost.tui.shared.footer import KeyFooter, is_upright
from partyhost.tui.shared.pastgamesscreen import (
    PastGamesScreen,
    UprightTable,
    short_titles,
    standings_table,
)
from partyhost.tui.text import Frame, clean, literal, shorten, tap_to
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Static

REFRESH_SECONDS = 3.0
COLUMNS = (
    ("Code", "code", 5),
    ("Game", "game", 16),
    ("Deck", "deck", 14),
    ("Players", "seats", 7),
    ("Status", "status", 8),
    ("Owner", "owner", 12),
    ("", "lock", 1),
)
"""Fixed widths keep the header over its column and fit 80 columns; longer text is cut."""
WIDTHS = {key: width for _, key, width in COLUMNS}
SENT_MARK = " (sent)"
"""After the decks of a room that plays a deck a player sent with the room request."""
UPRIGHT_COLUMNS = (
    ("Code", "code", 5),
    ("Game\nDeck", "game", 14),
    ("Players\nStatus", "seats", 8),
    ("Owner", "owner", 6),
)
"""Upright (43 columns, 41 inside the margins): the same cells two to a column, each room
on two lines."""
UPRIGHT_WIDTHS = {key: width for _, key, width in UPRIGHT_COLUMNS}
STATUS_WORDS = {"lobby": "waiting", "playing": "playing", "over": "finished"}
CREATE_DIALOG = "lobby-create-room"
"""The create dialog is built once and kept (installed) for the next opening: it is the
dearest redraw in the lobby, and a browser door runs every phone's client on the host. A
client alone in its process builds it as the lobby arrives (:meth:`LobbyScreen.prepare_dialogs`)."""
JOIN_DIALOG = "lobby-join-code"
"""The join-code dialog, kept the same way."""


ON_SCREEN_QUIET_ZONE = 2
"""Light modules around the code in the dialog: half the standard's four, which cameras
read off a screen, so a version 3 code (29 modules) still fits 24 rows with its URL."""
DIALOG_WIDTH = 64
EDGES = 6
"""Columns around the code: the dialog's border and padding, and room for a scroll bar."""
CODE_STYLE = "#ffffff on #000000"
"""Light ink, dark ground: the drawing's ink marks the light modules."""


class DoorCodeScreen(PartyModal[None]):
    """The browser door's URL and its QR code; Escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,w", "close", "Close"),
        HELP_KEY,
    ]
    DEFAULT_CSS = """
    DoorCodeScreen #door-code-scroll { height: auto; max-height: 1fr; align-horizontal: center; }
    DoorCodeScreen #door-code-drawing { width: auto; height: auto; }
    DoorCodeScreen #door-code-url { width: 1fr; content-align: center middle; }
    """

    def __init__(self, url: str, ascii_only: bool) -> None:
        super().__init__()
        self.url = url
        lines = draw_qr(url, ascii_only=ascii_only, border=ON_SCREEN_QUIET_ZONE)
        self.code = Text("\n".join(lines), style=CODE_STYLE, no_wrap=True, overflow="crop")

    def compose(self) -> ComposeResult:
        with Vertical(id="door-code", classes="dialog"):
            yield Static("Join from a phone", classes="dialog-title")
            with VerticalScroll(id="door-code-scroll"):
                yield Static(self.code, id="door-code-drawing")
            yield Static(literal(self.url, "bold"), id="door-code-url")
            yield Static("Point a phone's camera at the code. Escape closes this.", classes="hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        # As wide as the code and the dialog's edges (an ASCII code is twice as wide, so
        # wider than a dialog), never narrower than a dialog.
        code_width = max(line.cell_len for line in self.code.split())
        self.query_one("#door-code").styles.width = max(DIALOG_WIDTH, code_width + EDGES)


class LobbyScreen(PartyScreen):
    """Rooms in a table; Enter (or a click on a row) joins the highlighted one.

    Enter is the screen's key, not the table's, so "⏎ Join" heads the footer whatever has
    the focus (a key that came with the focus moved the others under a finger).
    """

    KIND = "lobby"
    AUTO_FOCUS = "#rooms"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "join_selected", "Join", priority=True),
        Binding("c", "create", "Create"),
        Binding("j", "join_code", "Join code"),
        Binding("s", "join_selected(True)", "Watch"),
        Binding("p", "past_games", "Past games"),
        Binding("w", "door_code", "QR code"),
        Binding("r", "refresh", "Refresh", show=False),
        Binding("escape", "disconnect", "Disconnect"),
    ]
    DEFAULT_CSS = """
    LobbyScreen #lobby-door { height: auto; margin-bottom: 1; }
    """

    def compose(self) -> ComposeResult:
        yield TitleBar("lobby", id="title")
        with Vertical(id="lobby-body"):
            yield Static("", id="lobby-intro", classes="hint")
            yield Static("", id="lobby-door")
            columns = [
                (self.glyphs.lock if key == "lock" else label, key, width)
                for label, key, width in COLUMNS
            ]
            yield UprightTable(columns, UPRIGHT_COLUMNS, id="rooms")
            yield Static("", id="lobby-empty", classes="empty")
            yield Static("", id="lobby-standings")
        yield KeyFooter()

    def on_mount(self) -> None:
        if not self.on_stage:  # swapped out before it mounted: its table is gone
            return
        self.query_one(UprightTable).lay_out()
        self.watch(self.app, "rooms", self._show_rooms)
        self.watch(self.app, "welcome", self._show_host)
        self.watch(self.app, "standings", self._show_standings)
        if self.party.animated:
            self.set_interval(REFRESH_SECONDS, self.action_refresh)
        if self.party.offer_create:  # partyhost join --deck FILE: bring it straight away
            self.party.offer_create = False
            self.call_after_refresh(self.action_create)
        elif self.party.prepare_dialogs:
            self.party.prepare_dialogs = False
            # Once the lobby is drawn, and on the app's own queue: keys and taps wait for it.
            self.call_after_refresh(self.app.call_later, self.prepare_dialogs)

    def on_resize(self) -> None:
        tables = self.query(UprightTable)  # none once swapped out or closing: nothing to lay out
        if tables and tables.first().lay_out():
            self._show_rooms()

    def _show_host(self) -> None:
        welcome = self.party.welcome or {}
        host = literal(welcome.get("host") or "a host", "bold")
        self.query_one("#title", TitleBar).set_parts("lobby", Text.assemble("at ", host))
        self.query_one("#lobby-intro", Static).update(
            Text.assemble(
                "Welcome to ",
                host,
                ". Pick a room and press Enter (or tap it); c creates your own.",
            )
        )
        door = self.query_one("#lobby-door", Static)
        url = self.web_door()
        door.display = url is not None
        door.update(Text.assemble("Phones join at ", literal(url or "", "bold"), "  (w: QR code)"))
        self.refresh_bindings()

    def web_door(self) -> str | None:
        """The host's browser door, if it has one (``welcome.web_door``)."""
        url = (self.party.welcome or {}).get("web_door")
        usable = isinstance(url, str) and 0 < len(url) <= MAX_URL_LENGTH
        return url if usable else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action != "door_code" or self.web_door() is not None

    def action_door_code(self) -> None:
        url = self.web_door()
        if url is not None:
            self.app.push_screen(DoorCodeScreen(url, self.party.ascii_only))

    def _show_rooms(self) -> None:
        table = self.query_one(UprightTable)
        selected = self._selected_code()
        table.clear()
        for room in self.party.rooms:
            table.add_cells(self._cells(room, bool(table.upright)), str(room.get("code", "")))
        if selected is not None and selected in {str(r.get("code")) for r in self.party.rooms}:
            table.move_cursor(row=table.get_row_index(selected))
        empty = self.query_one("#lobby-empty", Static)
        empty.display = not self.party.rooms
        empty.update(
            Text.assemble(
                "No rooms yet. Press ",
                ("c", tap_to("screen.create", "bold")),
                " to create one, or ",
                ("j", tap_to("screen.join_code", "bold")),
                " to join by code.",
            )
        )

    def _cells(self, room: Frame, upright: bool) -> list[Text]:
        """A room's cells, one a column; upright, two to a column (code and lock, game and
        deck, players and status), then the owner."""
        widths = UPRIGHT_WIDTHS if upright else WIDTHS
        status = str(room.get("status", ""))
        code = Text(str(room.get("code", "")), "bold")
        game = self._cut(room.get("game_name") or room.get("game", ""), widths["game"])
        deck = self._deck_cell(room, widths["game" if upright else "deck"])
        seats = Text(f"{room.get('seats', 0)}/{room.get('max_seats', '?')}")
        state = Text(STATUS_WORDS.get(status, status), "green" if status == "lobby" else "")
        owner = self._cut(room.get("owner_name") or "", widths["owner"])
        lock = Text(self.glyphs.lock if room.get("has_password") else "")
        if not upright:
            return [code, game, deck, seats, state, owner, lock]
        pairs = ((code, lock), (game, deck), (seats, state))
        return [*(Text.assemble(top, "\n", bottom) for top, bottom in pairs), owner]

    def _show_standings(self) -> None:
        panel = self.query_one("#lobby-standings", Static)
        titles = short_titles(self.party.welcome)
        narrow = is_upright(self.app)
        panel.update(standings_table(self.party.standings, self.glyphs, titles, narrow=narrow))

    def action_past_games(self) -> None:
        self.app.push_screen(PastGamesScreen())

    def _cut(self, value: object, width: int) -> Text:
        """Other people's text, cut to ``width`` with this mode's ellipsis."""
        return literal(shorten(clean(value), width, self.glyphs.ellipsis))

    def _deck_cell(self, room: Frame, columns: int) -> Text:
        """The room's decks by title; a deck a player sent is marked ``(sent)``, and the
        mark is never cut off, so a sent deck cannot pass for one of the host's."""
        decks = [d for d in room.get("decks") or [] if isinstance(d, dict)]
        if not decks:
            return self._cut(
                deck_title(self.party.welcome, room.get("game"), room.get("deck")), columns
            )
        title = " + ".join(str(d.get("title") or d.get("name") or "?") for d in decks)
        mark = SENT_MARK if any(d.get("source") == "upload" for d in decks) else ""
        cell = self._cut(title, columns - len(mark))
        if mark:
            cell.append(mark, "dim")
        return cell

    def _selected_code(self) -> str | None:
        table = self.query_one("#rooms", DataTable)
        if table.row_count == 0:
            return None
        try:
            row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        except Exception:  # no valid cursor yet
            return None
        return str(row_key.value) if row_key.value is not None else None

    def action_refresh(self) -> None:
        if self.party.link == "online":
            self.party.requests.list_rooms()
            self.party.requests.get_standings()

    def action_create(self) -> None:
        self._open(self._create_dialog(), self._create)

    def _create_dialog(self) -> Dialog[Frame] | None:
        games = list((self.party.welcome or {}).get("games", []))
        return self._kept(
            CREATE_DIALOG,
            lambda kept: isinstance(kept, CreateRoomScreen) and kept.built_for(games),
            lambda: CreateRoomScreen(games, self.party.create_choices),
        )

    def _create(self, request: Frame | None) -> None:
        if request is not None:
            self.party.requests.create_room(**request)

    def action_join_code(self) -> None:
        self._open(self._join_dialog(), self._join)

    def _join_dialog(self) -> Dialog[Frame] | None:
        return self._kept(
            JOIN_DIALOG, lambda kept: isinstance(kept, JoinRoomScreen), JoinRoomScreen
        )

    def _kept(
        self,
        name: str,
        fits: Callable[[Dialog[Frame]], bool],
        build: Callable[[], Dialog[Frame]],
    ) -> Dialog[Frame] | None:
        """The dialog kept under ``name`` if it ``fits`` (built for this host's games);
        otherwise a new one, kept in its place. None if it is open already (a second
        opening queued behind the first)."""
        app = self.app
        kept = app.get_screen(name) if app.is_screen_installed(name) else None
        if kept is not None and kept in app.screen_stack:
            return None
        if isinstance(kept, Dialog) and fits(kept):
            return kept
        if kept is not None:
            app.uninstall_screen(name)
            kept.remove()
        dialog = build()
        app.install_screen(dialog, name)
        return dialog

    def _open(self, dialog: Dialog[Frame] | None, then: Callable[[Frame | None], None]) -> None:
        if dialog is not None:
            self.app.push_screen(dialog.reopened(), then)

    async def prepare_dialogs(self) -> None:
        """Build the kept dialogs before anyone asks for them: building the create dialog was
        most of its first opening's time, on the cores a door's visitors share. Each is put
        on top and taken off again in one batch, so nothing of it is drawn; the app's queue
        holds the keys and taps that come meanwhile, so they reach the lobby after. Twice:
        a dialog's styles are made again when another's CSS joins the app's rules, and the
        second time that happens here instead of at its first opening."""
        app = self.app
        for _ in range(2):
            for build in (self._create_dialog, self._join_dialog):
                if app.screen is not self:
                    return  # a dialog opened first, or the lobby went: it is ready as it is
                dialog = build()
                if dialog is not None:
                    with app.batch_update():
                        await app.push_screen(dialog)
                        app.pop_screen()

    def action_join_selected(self, spectate: bool = False) -> None:
        code = self._selected_code()
        room = next((r for r in self.party.rooms if str(r.get("code")) == code), None)
        if room is None:
            self.action_join_code()
            return
        code = str(room.get("code"))
        if room.get("has_password"):
            self.app.push_screen(
                JoinRoomScreen(code, needs_password=True, spectate=spectate), self._join
            )
        else:
            self._join({"code": code, "password": None, "spectate": spectate})

    def _join(self, request: Frame | None) -> None:
        if request is not None:
            self.party.requests.join_room(**request)

    @on(DataTable.RowSelected, "#rooms")
    def _row_chosen(self) -> None:
        self.action_join_selected()

    def action_disconnect(self) -> None:
        if self.party.solo:
            self.app.exit(0)  # the host lives in this process: there is no other to go to
        else:
            self.party.disconnect()


def lobby_keys(web_door: bool) -> list[BindingType]:
    """The lobby's keys as the help lists them: ``w`` only where there is a door to show."""
    keys = LobbyScreen.BINDINGS
    return [key for key in keys if web_door or getattr(key, "action", "") != "door_code"]
