"""The partyhost client app: holds what the host last said and shows the right screen.

One worker (:mod:`.hostlink`) turns frames into messages; the ``said_`` handlers here,
one for each kind, store them in reactives (always a new object) and
:meth:`PartyApp.route` picks the main screen.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable
from typing import ClassVar

from partyhost.net.address import DEFAULT_PORT, parse_address
from partyhost.net.clients.client import ConnectionLost, ReconnectingClient
from partyhost.tui.clock import HostClock
from partyhost.tui.games import main_screen
from partyhost.tui.hostlink import (
    STORED,
    Connection,
    ConnectionFactory,
    HostRequests,
    HostSaid,
    follow_host,
    said_alike,
)
from partyhost.tui.party import APP_BINDINGS, Party
from partyhost.tui.pausing import Pauser
from partyhost.tui.rejoin import (
    SeatKeeper,
    SeatMemory,
    ask_about_reclaim,
    memory_path,
    waiting_words,
)
from partyhost.tui.shared.base import PartyScreen
from partyhost.tui.shared.chat import WIDE
from partyhost.tui.shared.connect import (
    Remembered,
    default_name,
    load_remembered,
    save_remembered,
)
from partyhost.tui.shared.dialogs import DeckProblemsScreen, ReconnectingScreen
from partyhost.tui.shared.footer import UPRIGHT
from partyhost.tui.text import Frame, glyphs_for, number_of
from partyhost.tui.toasts import OneToastEach, guard_toasts
from textual import work
from textual.binding import Binding, BindingType
from textual.events import AppBlur, DescendantFocus, Resize
from textual.reactive import var
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.widgets import Input

CHAT_LIMIT = 200
STALE_GAME_REFUSAL = "not_playing"
"""The host's refusal of a move that arrived after the game ended."""
ASCII_KEYS = {"⏎": "enter", "↑": "up", "↓": "down", "←": "left", "→": "right", "⌫": "bksp"}


class AsciiScrollBarRender(ScrollBarRender):
    """Scrollbars without the eighth-block glyphs, for ``--ascii``."""

    VERTICAL_BARS: ClassVar[list[str]] = [" "] * 8
    HORIZONTAL_BARS: ClassVar[list[str]] = [" "] * 8


class PartyApp(OneToastEach):
    """One player's window onto a partyhost host."""

    CSS_PATH = "partyhost.tcss"
    TITLE = "partyhost"
    ENABLE_COMMAND_PALETTE = False
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE, "-wide")]
    BINDINGS: ClassVar[list[BindingType]] = APP_BINDINGS

    welcome: var[Frame | None] = var(None)
    rooms: var[tuple[Frame, ...]] = var(())
    decks: var[tuple[Frame, ...]] = var(())
    """Every deck file of the host as ``decks`` last listed them (empty: use the welcome's)."""
    room: var[Frame | None] = var(None)
    room_code: var[str | None] = var(None)
    seat: var[int | None] = var(None)
    view: var[Frame | None] = var(None)
    events: var[tuple[Frame, ...]] = var(())
    chat: var[tuple[Frame, ...]] = var(())
    past_games: var[tuple[Frame, ...]] = var(())
    """The games the host kept, newest first (asked for by the past games screen)."""
    standings: var[Frame | None] = var(None)
    """Tonight's standings as the host last sent them."""
    link: var[str] = var("offline")
    """offline, connecting, online, lost, reconnecting."""
    retry_at: var[float | None] = var(None)
    """When the host said the seat may be asked for again (``time.monotonic``), or None."""
    connect_error: var[str] = var("")

    def __init__(
        self,
        connection_factory: ConnectionFactory | None = None,
        *,
        address: str | None = None,
        name: str | None = None,
        room: str | None = None,
        ascii_only: bool = False,
        remember: bool = True,
        animate: bool = True,
        on_welcome: Callable[[PartyApp], None] | None = None,
        solo: bool = False,
        deck_file: str | None = None,
        pause_with_dialogs: bool = False,
        locked: bool = False,
        resume: bool = False,
        own_process: bool = False,
    ) -> None:
        guard_toasts()
        # The real network, unless a test injects one.
        self.connection_factory: ConnectionFactory = connection_factory or ReconnectingClient.open
        self.start_address = address
        self.locked_address = address if locked else None
        """The only host this client may connect to (a door's clients), or None."""
        self.start_name = name
        self.resume = resume
        """Back to the seat held at this host without asking (a reloaded browser page)."""
        self.freeze_start_up = own_process
        """The process is this client's alone (``partyhost join``, a door's visitor): once the
        first main screen past connecting is drawn, what start-up made (modules, styles, that
        screen) is frozen out of the collector's full passes. They walked all of it every
        few dozen screen changes and held the client 40-60 ms each time; under 30 ms since."""
        self.prepare_dialogs = own_process
        """The lobby builds its dialogs while its client is idle, before they are first asked
        for (see :meth:`LobbyScreen.prepare_dialogs`): the time is this client's own."""
        self.start_room = room.strip().upper() if room else None
        self.ascii_only = ascii_only
        self.glyphs = glyphs_for(ascii_only)
        self.remember = remember
        self.animated = animate
        self.on_welcome = on_welcome
        self.solo = solo
        """``partyhost play``: you and bots alone, so leaving quits."""
        self.setting_up = False
        """``partyhost play`` sets the game up: the connect screen stays until it shows,
        instead of the lobby and the room flashing by."""
        self.create_choices: Frame = {"deck_file": deck_file} if deck_file else {}
        """What the create-room dialog last held (a ``--deck`` file to begin with)."""
        self.offer_create = deck_file is not None
        self.connection: Connection | None = None
        self._replay_wanted: int | None = None
        """The past game whose replay was asked for last."""
        self._replay_token: str | None = None
        """The seat token held in that game's room: a password room's game replays only for it."""
        self._awaiting_table = False
        """This client asked for a seat by name and its waiting notice is showing."""
        self.requests = HostRequests(self._queue)
        self.clock = HostClock()
        self.seats = SeatKeeper(self, SeatMemory(memory_path() if remember else None))
        self.pauser = Pauser(self, with_dialogs=pause_with_dialogs)
        self._quitting = False
        super().__init__()
        self.set_class(ascii_only, "-ascii")
        self.set_class(locked, "-door")
        if not animate:
            self.animation_level = "none"

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {"edge": "ascii" if self.ascii_only else "round"}

    def get_key_display(self, binding: Binding) -> str:
        # The main screen under any dialogs: its footer may be redrawn while one is open.
        main = next((s for s in reversed(self.screen_stack) if isinstance(s, PartyScreen)), None)
        own = None if main is None else main.footer_key_display(binding)
        shown = own or super().get_key_display(binding)
        return ASCII_KEYS.get(shown, shown) if self.ascii_only else shown

    def on_mount(self) -> None:
        self._follow_width(self.size.width)
        if not self.is_headless and self.console.color_system in ("standard", "windows"):
            self.theme = "ansi-dark"
        if self.ascii_only:
            ScrollBar.renderer = AsciiScrollBarRender
        if self.locked_address is not None and self.start_address:
            self._connect_locked()
        else:
            self.route()

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        """Without animations (tests, snapshots) the cursor does not blink either."""
        if not self.animated and isinstance(event.widget, Input):
            event.widget.cursor_blink = False

    def on_unmount(self) -> None:
        ScrollBar.renderer = ScrollBarRender

    def on_resize(self, event: Resize) -> None:
        self._follow_width(event.size.width)

    def _follow_width(self, width: int) -> None:
        """Below ``UPRIGHT`` columns (a phone held upright) the app is ``-upright``."""
        upright = width < UPRIGHT
        if upright == self.has_class("-upright"):
            return
        self.set_class(upright, "-upright")
        for screen in self.screen_stack:
            screen.refresh_bindings()  # the footer on top lays its keys out again

    def on_app_blur(self, event: AppBlur) -> None:
        """The keys stay on the footer when the window or page loses focus: a phone's page
        blurs whenever its keyboard closes, and the footer's keys are what a finger taps."""
        event.prevent_default()

    # --- connecting ---------------------------------------------------------

    def connect(self, address_text: str, name: str) -> None:
        """Start (or restart) the network worker for a typed ``host[:port]`` (ValueError if
        unreadable)."""
        host, port = parse_address(address_text, DEFAULT_PORT)
        if self.remember:
            save_remembered(Remembered(address=address_text, name=name))
        self.connect_error = ""
        self.link = "connecting"
        self.run_connection(host, port, name)

    def _connect_locked(self) -> None:
        """Go straight for the locked host; the connect screen only if that fails, or to ask
        a browser visitor's name once when it can be remembered."""
        address, self.start_address = self.start_address or "", None
        name = self.start_name
        if name is None and self.remember:
            name = load_remembered().name.strip() or None
            if name is None:
                self.route()
                return
        try:
            self.connect(address, name or default_name())
        except ValueError:
            self.route()

    @work(exclusive=True, group="net", exit_on_error=False)
    async def run_connection(self, host: str, port: int, name: str) -> None:
        """Own the connection: read frames until it ends, posting a message for each."""
        await follow_host(self, host, port, name)

    def _queue(self, message: Frame) -> bool:
        """Send one message to the host now (not from a worker, so it travels while the screen
        redraws); ``False`` (and a toast) when offline."""
        connection = self.connection
        if connection is not None and self.link == "online":
            with contextlib.suppress(ConnectionLost):
                connection.write(message)
                return True
        self.notify("Not connected to a host right now.", severity="warning")
        return False

    def play(self, command: Frame) -> bool:
        """Send a game command from the view's ``legal`` list, naming the version seen;
        nothing once the game is over."""
        if not self.game_running():
            return False
        command = dict(command)
        if "v" not in command and self.view is not None and "version" in self.view:
            command["v"] = self.view["version"]
        return self.requests.play(command)

    def game_running(self) -> bool:
        """Whether the room's game is on: its status says playing and the view is not over."""
        room = self.room or {}
        view = self.view or {}
        return room.get("status") == "playing" and view.get("phase") != "over"

    def leave_room(self) -> None:
        """Give up the seat; in a game against bots alone there is nowhere else to go: quit."""
        if self.solo:
            self.exit(0)
        else:
            self.requests.leave_room()

    def disconnect(self) -> None:
        """Back to the connect screen on purpose."""
        self._quitting = True
        self.workers.cancel_group(self, "net")
        self._reset_session()
        self.link = "offline"
        self.route()

    # --- frames from the worker ---------------------------------------------

    def on_host_said(self, message: HostSaid) -> None:
        """Keep a listing as it came; hand anything else to its ``said_`` handler."""
        if message.kind in STORED:
            setattr(self, message.kind, message.data)
        else:
            getattr(self, f"said_{message.kind}")(message)

    def said_connected(self, message: HostSaid) -> None:
        self._quitting = False
        self.welcome = message.data
        self.link = "online"
        self.route()
        self.requests.list_rooms()
        self.requests.list_decks()
        self.requests.get_standings()
        self.seats.connected(
            message.data, self.start_room, offer=self.on_welcome is None, resume=self.resume
        )
        self.start_room = None
        if self.on_welcome is not None:
            hook, self.on_welcome = self.on_welcome, None
            hook(self)

    def said_connect_failed(self, message: HostSaid) -> None:
        self.link = "offline"
        self.connect_error = message.data
        self.route()

    def said_connection(self, message: HostSaid) -> None:
        state = message.data["state"]
        overlay = next((s for s in self.screen_stack if isinstance(s, ReconnectingScreen)), None)
        wait = message.data["retry_after"]
        self.retry_at = None if wait is None else time.monotonic() + wait
        if state in ("lost", "reconnecting"):
            self.link = state
            if overlay is None:
                self.push_screen(ReconnectingScreen())
        elif state == "restored":
            self.link = "online"
            if overlay is not None:
                overlay.dismiss()
        elif state == "failed":
            self._end_session(message.data["detail"] or "Could not reach the host again.")

    def said_closed(self, message: HostSaid) -> None:
        if not self._quitting:
            self._end_session(message.data)

    def said_joined(self, message: HostSaid) -> None:
        joined = message.data
        self._table_answered()
        self.room_code = joined["code"]
        self.seat = joined["seat"]
        self.view = None
        self.events = ()
        self.seats.joined(joined["code"], joined["token"])

    def said_room(self, message: HostSaid) -> None:
        room = message.data
        if "you" in room:
            self.seat = room["you"] if isinstance(room["you"], int) else None
        self.clock.saw_room(room)
        self.seats.room_changed(room)
        self.room = room
        self.route()

    def said_view(self, message: HostSaid) -> None:
        self.clock.saw_view(number_of(message.data.get("now")))
        self.seats.round_seen(message.data["view"])
        self.events = message.events
        self.view = message.data["view"]
        self.route()

    def open_replay(self, game_id: int) -> None:
        """Ask for a finished game's replay; its screen opens when the first page comes."""
        rooms = [game.get("room") for game in self.past_games if game.get("id") == game_id]
        code = rooms[0] if rooms and isinstance(rooms[0], str) else None
        self._replay_wanted = game_id
        self._replay_token = None if code is None else self.seats.token_for(code)
        self.requests.get_replay(game_id, token=self._replay_token)

    def said_replay(self, message: HostSaid) -> None:
        from partyhost.tui.replay.screen import show_page

        show_page(self, message.data, self._replay_wanted, self._replay_token)

    def said_chat_line(self, message: HostSaid) -> None:
        """A new line joins the chat and the game log; one already shown (sent again on a
        reconnect) joins only the log."""
        if not any(said_alike(line, message.data) for line in self.chat):
            self.chat = (*self.chat, message.data)[-CHAT_LIMIT:]
        if self.room is not None:
            self.events = message.events

    def said_notice(self, message: HostSaid) -> None:
        self.chat = (*self.chat, {"seat": None, "name": "", "text": message.data})[-CHAT_LIMIT:]
        if self.room is not None:
            self.events = message.events

    def said_error(self, message: HostSaid) -> None:
        code, text, problems = message.data["code"], message.data["text"], message.data["problems"]
        if code == STALE_GAME_REFUSAL and not self.game_running():
            return  # a move that crossed the game's end on the way: nothing to tell
        if problems:
            self.push_screen(DeckProblemsScreen(problems))
            return
        if self.seats.refused(code):
            return
        if code == "reclaim_refused":
            self._table_answered()
        # Host text can quote what people typed: never read it as markup.
        self.notify(text or code, title="The host says", severity="error", markup=False)

    def said_reclaim_ask(self, message: HostSaid) -> None:
        """ "Ann is back?": only this player's yes gives the visitor Ann's seat."""
        ask = message.data
        ask_about_reclaim(
            self, ask["ask"], ask["name"], ask["seconds"], self.requests.reclaim_answer
        )

    def said_reclaim_waiting(self, message: HostSaid) -> None:
        self._awaiting_table = True
        seconds = message.data["seconds"]
        self.notify(
            waiting_words(message.data["name"], seconds),
            timeout=max(5.0, seconds),
            markup=False,
        )

    def _table_answered(self) -> None:
        """The wait for the table is over: its notice goes."""
        if self._awaiting_table:
            self._awaiting_table = False
            self.clear_notifications()

    def said_left(self, message: HostSaid) -> None:
        reason = message.data
        if reason != "replaced":
            self.seats.gone(self.room_code)
        self.pauser.left_room()
        self._forget_room()
        if reason and reason != "left":
            self.notify(f"You left the room: {reason}", severity="warning", markup=False)
        self.route()
        self.requests.list_rooms()
        self.requests.get_standings()

    def said_bye(self, message: HostSaid) -> None:
        self.notify(
            message.data or "The host is shutting down.", title="Host closing", markup=False
        )

    # --- screens ------------------------------------------------------------

    def wanted_screen(self) -> str:
        """Which main screen (connect, lobby, room, game or results) the state calls for."""
        room, view = self.room, self.view
        if self.welcome is None or self.link in ("offline", "connecting"):
            return "connect"
        if room is None:
            return "lobby"
        status = room.get("status")
        if status == "over" or (view is not None and view.get("phase") == "over"):
            return "results"
        if status == "playing" and view is not None:
            return "game"
        return "room"

    def route(self) -> None:
        """Switch the main screen (above Textual's default one, under any dialogs) if the
        state calls for another; only then are the dialogs closed."""
        wanted = self.wanted_screen()
        if self.setting_up and wanted in ("lobby", "room"):
            wanted = "connect"
        elif wanted != "connect":
            self.setting_up = False
        base = self.screen_stack[1] if len(self.screen_stack) > 1 else None
        if isinstance(base, PartyScreen) and wanted == base.KIND:
            return
        while len(self.screen_stack) > 2:
            self.pop_screen()
        screen = main_screen(wanted, str(self.room.get("game", "")) if self.room else "")
        if self.freeze_start_up and wanted != "connect":
            self.freeze_start_up = False
            self.call_after_refresh(gc.freeze)
        if len(self.screen_stack) < 2:
            self.push_screen(screen)
        else:
            self.switch_screen(screen)

    def action_help(self) -> None:
        from partyhost.tui.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def _forget_room(self) -> None:
        self.room = None
        self.room_code = None
        self.seat = None
        self.view = None
        self.events = ()
        self.chat = ()

    def _reset_session(self) -> None:
        self.welcome = None
        self.rooms = ()
        self.decks = ()
        self._forget_room()
        self.past_games = ()
        self.standings = None

    def _end_session(self, reason: str) -> None:
        self._reset_session()
        self.link = "offline"
        self.connect_error = reason
        self.route()


def _keeps_the_party_promise(app: PartyApp) -> Party:
    """Never called: mypy checks here that the app is everything screens may use of it."""
    return app
