"""Where a session starts: which host, and what friends should call you."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from partyhost.net.address import DEFAULT_PORT, parse_address
from partyhost.net.discovery import BrowserFactory
from partyhost.net.protocol import MAX_NAME_LENGTH
from partyhost.tui.settings import default_name, load_remembered
from partyhost.tui.shared.base import PartyScreen, TitleBar
from partyhost.tui.shared.hostlist import HostList
from partyhost.tui.text import literal
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, Vertical
from textual.widgets import Button, Footer, Input, Label, Static

WELCOME_TEXT = (
    "Party card games for friends on one LAN.\n"
    "Ask whoever runs `partyhost serve` for the address, or run `partyhost play` "
    "to try a game against bots."
)

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
            yield Static(SOLO_TEXT if self.party.solo else WELCOME_TEXT, classes="hint")
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
        yield Footer()

    def on_mount(self) -> None:
        party = self.party
        remembered = load_remembered() if party.remember else None
        address = (
            party.locked_address
            or party.start_address
            or (remembered.address if remembered else "")
        )
        name = party.start_name or (remembered.name if remembered else "") or default_name()
        self.query_one("#address", Input).value = address
        self.query_one("#name", Input).value = name
        self.watch(self.app, "connect_error", self._show_status)
        self.watch(self.app, "link", self._show_status)
        if party.start_address and party.link == "offline":
            party.start_address = None
            self.action_connect()

    def _show_status(self) -> None:
        status = self.query_one("#connect-status", Static)
        if self.party.link == "connecting":
            status.update("Connecting" + self.glyphs.ellipsis)
            status.set_class(False, "error")
        else:
            status.update(literal(self.party.connect_error))
            status.set_class(bool(self.party.connect_error), "error")

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
            host, port = parse_address(address_text, DEFAULT_PORT)
        except ValueError as exc:
            self.party.connect_error = f"{str(exc).capitalize()}."
            return
        self.party.connect(host, port, name, address_text)

    @on(Button.Pressed, "#connect")
    def _connect_pressed(self) -> None:
        self.action_connect()

    @on(Button.Pressed, "#quit")
    def _quit_pressed(self) -> None:
        self.app.exit(0)

    @on(HostList.Chosen)
    def _host_chosen(self, event: HostList.Chosen) -> None:
        self.query_one("#address", Input).value = event.host.address
        self.action_connect()

    @on(Input.Submitted)
    def _field_submitted(self) -> None:
        self.action_connect()
