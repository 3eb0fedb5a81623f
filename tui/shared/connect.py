"""Where a session starts: which host (typed, remembered, or found on the LAN), and what
friends should call you."""

from __future__ import annotations

import contextlib
import json
import logging
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import ClassVar

from partyhost.net.address import DEFAULT_PORT
from partyhost.net.discovery import BrowserFactory, DiscoveredHost, HostWatcher
from partyhost.net.protocol import MAX_NAME_LENGTH, PROTOCOL_VERSION
from partyhost.paths import config_dir
from partyhost.tui.shared.base import PartyScreen, TitleBar
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.text import counted, literal
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

# --- the last address and name, a convenience: a mangled file is never an error -------

FILE_NAME = "client.json"


@dataclass(frozen=True)
class Remembered:
    """The address and name typed last."""

    address: str = ""
    name: str = ""


def settings_path() -> Path:
    return config_dir() / FILE_NAME


def load_remembered() -> Remembered:
    try:
        data = json.loads(settings_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Remembered()
    if not isinstance(data, dict):
        return Remembered()
    typed = {key: data[key] for key in ("address", "name") if isinstance(data.get(key), str)}
    return Remembered(**typed)


def save_remembered(remembered: Remembered) -> None:
    """Write atomically; a read-only or full disk only costs the memory."""
    path = settings_path()
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(asdict(remembered)), encoding="utf-8")
        os.replace(temporary, path)


def default_name() -> str:
    """The login name, a sensible first guess at what friends call you."""
    for variable in ("PARTYHOST_NAME", "USER", "USERNAME", "LOGNAME"):
        value = os.environ.get(variable, "").strip()
        if value:
            return value[:24]
    return "player"


# --- the hosts found on the LAN, live, as their advertisements come and go ------------------

log = logging.getLogger(__name__)

LOOKING = "Looking for hosts on this LAN..."
NOTHING_YET = "None found yet; type the address below."


def describe_host(host: DiscoveredHost) -> str:
    """One line about a host: name, address, how busy it is, how else to get in."""
    parts = [host.name, host.address]
    if host.rooms:
        parts.append(f"{counted(host.rooms, 'room')}, {counted(host.open_seats, 'open seat')}")
    else:
        parts.append("no rooms yet")
    if host.protocol is not None and host.protocol != PROTOCOL_VERSION:
        parts.append(f"(other version: protocol {host.protocol})")
    return "  ".join(parts)


class HostList(Vertical):
    """A live list of partyhost hosts found on the LAN: the browser's listener."""

    DEFAULT_CSS = """
    HostList { height: auto; width: 1fr; }
    HostList > #hosts-status { color: $text-muted; height: auto; }
    HostList > OptionList { height: auto; max-height: 3; display: none; }
    HostList.-found > OptionList { display: block; }
    HostList.-found > #hosts-status { display: none; }
    """

    @dataclass
    class Chosen(Message):
        """The person picked ``host`` to connect to."""

        host: DiscoveredHost

    def __init__(self, browser_factory: BrowserFactory, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.browser_factory = browser_factory
        self.hosts: dict[str, DiscoveredHost] = {}
        self._watcher: HostWatcher | None = None

    def compose(self) -> ComposeResult:
        yield Static(LOOKING, id="hosts-status")
        yield OptionList(id="hosts", markup=False, compact=True)

    async def on_mount(self) -> None:
        self._watcher = self.browser_factory(self)
        try:
            await self._watcher.start()
        except Exception as exc:  # discovery is a convenience: never fatal
            log.warning("host discovery unavailable: %s", exc)
            self._watcher = None
            self._status(f"Cannot look for hosts here ({exc}); type the address.")
            return
        self.set_timer(3.0, self._nothing_yet)

    async def on_unmount(self) -> None:
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            try:
                await watcher.close()
            except Exception:
                log.warning("host discovery did not stop cleanly", exc_info=True)

    def _status(self, text: str) -> None:
        self.query_one("#hosts-status", Static).update(text)

    def _nothing_yet(self) -> None:
        if not self.hosts and self._watcher is not None:
            self._status(NOTHING_YET)

    # --- HostListener ---------------------------------------------------------

    def host_found(self, host: DiscoveredHost) -> None:
        self.hosts[host.key] = host
        self._show()

    def host_gone(self, key: str) -> None:
        if self.hosts.pop(key, None) is not None:
            self._show()

    # --------------------------------------------------------------------------

    def _show(self) -> None:
        if not self.is_mounted:
            return
        options = self.query_one(OptionList)
        highlighted = options.highlighted_option.id if options.highlighted_option else None
        ordered = sorted(self.hosts.values(), key=lambda host: (host.name.casefold(), host.key))
        options.clear_options()
        options.add_options([Option(describe_host(host), id=host.key) for host in ordered])
        keys = [host.key for host in ordered]
        if highlighted in keys:
            options.highlighted = keys.index(highlighted)
        elif keys:
            options.highlighted = 0
        self.set_class(bool(keys), "-found")
        if not keys:
            self._status(NOTHING_YET)

    @on(OptionList.OptionSelected, "#hosts")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        host = self.hosts.get(event.option.id or "")
        if host is not None:
            self.post_message(self.Chosen(host))


# --- the screen -------------------------------------------------------------------------

WELCOME_TEXT = (
    "Party card games for friends on one LAN.\n"
    "Ask whoever runs `partyhost serve` for the address, or run `partyhost play` "
    "to try a game against bots."
)

LOCKED_TEXT = "What do friends call you? Type your name, then Enter."
"""A locked client's visitor (a door's) only chooses a name: the host is already chosen."""
SOLO_TEXT = "Your game against bots is starting on this computer."


@dataclass
class Discovery:
    """How connect screens look for hosts: set by ``partyhost join`` and by tests."""

    browser_factory: BrowserFactory | None = None


DISCOVERY = Discovery()
"""Off unless ``partyhost join`` (without ``--no-discovery``) turns it on."""


def use_discovery(factory: BrowserFactory | None) -> None:
    """List hosts found on the LAN on every connect screen (``None``: don't look)."""
    DISCOVERY.browser_factory = factory


class ConnectScreen(PartyScreen):
    """Address and name, remembered between runs; hosts found on the LAN, if looking."""

    KIND = "connect"
    AUTO_FOCUS = "#address"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "connect", "Connect"),
        Binding("escape", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        yield TitleBar("connect")
        with Center(), Vertical(id="connect-box", classes="dialog"):
            yield Static("Join a party", classes="dialog-title")
            yield Static(self._hint(), classes="hint")
            with Horizontal(classes="field"):
                yield Label("Host", classes="field-label")
                yield Input(
                    placeholder=f"host or host:port (default port {DEFAULT_PORT})",
                    id="address",
                    compact=True,
                    disabled=self.party.locked_address is not None,
                )
            with Horizontal(classes="field"):
                yield Label("Name", classes="field-label")
                yield Input(
                    placeholder="what friends call you",
                    id="name",
                    max_length=MAX_NAME_LENGTH,
                    compact=True,
                )
            if DISCOVERY.browser_factory is not None and self.party.locked_address is None:
                with Horizontal(classes="field"):
                    yield Label("On this LAN", classes="field-label")
                    yield HostList(DISCOVERY.browser_factory, id="found-hosts")
            with Horizontal(classes="buttons"):
                yield Button("Connect", id="connect", variant="primary", compact=True)
                yield Button("Quit", id="quit", compact=True)
            yield Static("", id="connect-status", classes="status")
        yield KeyFooter()

    def _hint(self) -> str:
        if self.party.solo:
            return SOLO_TEXT
        return LOCKED_TEXT if self.party.locked_address is not None else WELCOME_TEXT

    def on_mount(self) -> None:
        if not self.on_stage:  # swapped out before it mounted: its fields are gone
            return
        party = self.party
        remembered = load_remembered() if party.remember else Remembered()
        address = party.locked_address or party.start_address or remembered.address
        name = party.start_name or remembered.name
        if not name and not (party.locked_address and party.remember):
            name = default_name()  # a door's visitor who may be remembered types their own
        self.query_one("#address", Input).value = address
        self.query_one("#name", Input).value = name
        if party.locked_address is not None:
            self.query_one("#name", Input).focus()
        self.watch(self.app, "connect_error", self._show_status)
        self.watch(self.app, "link", self._show_status)
        if party.start_address and party.link == "offline":
            party.start_address = None
            self.action_connect()

    def _show_status(self) -> None:
        status = self.query_one("#connect-status", Static)
        connecting = self.party.link == "connecting"
        error = "" if connecting else self.party.connect_error
        status.update("Connecting" + self.glyphs.ellipsis if connecting else literal(error))
        status.set_class(bool(error), "error")

    @on(Button.Pressed, "#connect")
    @on(Input.Submitted)
    def action_connect(self) -> None:
        """Connect to the typed host, or to the only one a locked client may use."""
        address_text = self.party.locked_address or self.query_one("#address", Input).value.strip()
        name = self.query_one("#name", Input).value.strip()
        if not address_text:
            self.party.connect_error = (
                f"Type the host's address, e.g. 192.168.1.20 or mybox:{DEFAULT_PORT}."
            )
            self.query_one("#address", Input).focus()
            return
        if not name:
            self.party.connect_error = "Type a name so the others know who you are."
            self.query_one("#name", Input).focus()
            return
        try:
            self.party.connect(address_text, name)
        except ValueError as exc:
            self.party.connect_error = f"{str(exc).capitalize()}."

    @on(Button.Pressed, "#quit")
    def _quit_pressed(self) -> None:
        self.app.exit(0)

    @on(HostList.Chosen)
    def _host_chosen(self, event: HostList.Chosen) -> None:
        self.query_one("#address", Input).value = event.host.address
        self.action_connect()
