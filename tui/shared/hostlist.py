"""The hosts found on the LAN, live: they appear and vanish as their advertisements do.

The widget is the browser's listener (``host_found``/``host_gone``); the
browser comes from a factory so tests inject a fake one. Choosing a host
posts :class:`HostList.Chosen`; the connect screen does the rest.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from partyhost.net.discovery import BrowserFactory, DiscoveredHost, HostWatcher
from partyhost.net.protocol import PROTOCOL_VERSION
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

log = logging.getLogger(__name__)

LOOKING = "Looking for hosts on this LAN..."
NOTHING_YET = "None found yet; type the address below."


def describe_host(host: DiscoveredHost) -> str:
    """One line about a host: name, address, how busy it is, how else to get in."""
    parts = [host.name, host.address]
    if host.rooms:
        rooms = f"{host.rooms} room{'s' if host.rooms != 1 else ''}"
        parts.append(f"{rooms}, {host.open_seats} open seat{'s' if host.open_seats != 1 else ''}")
    else:
        parts.append("no rooms yet")
    if host.protocol is not None and host.protocol != PROTOCOL_VERSION:
        parts.append(f"(other version: protocol {host.protocol})")
    return "  ".join(parts)


class HostList(Vertical):
    """A live list of partyhost hosts found on the LAN."""

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
