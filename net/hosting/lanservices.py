"""The host's ways in besides its TCP port: the SSH and browser doors, the LAN advertisement.

:class:`Host` starts these after it listens and stops them first when it
closes. The doors were asked for explicitly, so a door that cannot open stops
the host with the reason; the advertisement is a convenience, so its failures
are logged and the host carries on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from partyhost.net.address import WILDCARDS, local_address, reachable_addresses, web_url
from partyhost.net.config import HostConfig
from partyhost.net.discovery import DiscoveryError, HostAdvertiser, Properties
from partyhost.net.protocol import PROTOCOL_VERSION

if TYPE_CHECKING:
    from partyhost.net.door.sshdoor import SSHDoor
    from partyhost.net.door.webdoor import WebDoor

log = logging.getLogger(__name__)

Listing = Callable[[], list[dict[str, Any]]]


def room_properties(
    host_name: str, rooms: list[dict[str, Any]], ssh_port: int | None
) -> Properties:
    """The TXT properties of the advertisement: who, which protocol, how busy, SSH or not."""
    playing = sum(1 for room in rooms if room.get("status") == "playing")
    open_seats = sum(
        max(0, int(room.get("max_seats", 0)) - int(room.get("seats", 0)))
        for room in rooms
        if room.get("status") == "lobby"
    )
    properties = {
        "name": host_name[:60],
        "proto": str(PROTOCOL_VERSION),
        "rooms": str(len(rooms)),
        "playing": str(playing),
        "open": str(open_seats),
    }
    if ssh_port is not None:
        properties["ssh"] = str(ssh_port)
    return properties


class LanServices:
    """The SSH and browser doors (if configured) and the mDNS advertisement (if enabled)."""

    def __init__(self, config: HostConfig, game_port: int, listing: Listing) -> None:
        self.config = config
        self.game_port = game_port
        self.listing = listing
        self.door: SSHDoor | None = None
        self.web_door: WebDoor | None = None
        self.advertiser: HostAdvertiser | None = None
        self._advertising: asyncio.Task[None] | None = None

    @property
    def ssh_port(self) -> int | None:
        return self.door.port if self.door is not None else None

    @property
    def web_port(self) -> int | None:
        return self.web_door.port if self.web_door is not None else None

    @property
    def web_url(self) -> str | None:
        """The browser door's URL at this machine's LAN address (None without the door)."""
        port = self.web_port
        return web_url(self.config.host, port) if port is not None else None

    async def start(self) -> None:
        """Open the doors (errors propagate), then advertise in the background."""
        config = self.config
        if config.ssh_port is not None:
            from partyhost.net.door.sshdoor import SSHDoor  # asyncssh loads slowly

            door = SSHDoor(config, local_address(config.host), self.game_port)
            await door.start()
            self.door = door
        if config.web_port is not None:
            from partyhost.net.door.webdoor import WebDoor  # aiohttp loads slowly

            web_door = WebDoor(config, local_address(config.host), self.game_port)
            await web_door.start()
            self.web_door = web_door
        if config.discovery:
            self.advertiser = HostAdvertiser(
                name=config.display_name,
                port=self.game_port,
                addresses=reachable_addresses(config.host),
                properties=self._properties,
                refresh_interval=config.discovery_refresh,
                interfaces=None if config.host in WILDCARDS else [config.host],
            )
            self._advertising = asyncio.create_task(self._advertise(), name="mDNS advertise")

    def _properties(self) -> Properties:
        return room_properties(self.config.display_name, self.listing(), self.ssh_port)

    async def _advertise(self) -> None:
        assert self.advertiser is not None
        try:
            await self.advertiser.start()
        except DiscoveryError as exc:
            log.warning("%s; friends can still type the address", exc)
            self.advertiser = None

    async def close(self) -> None:
        """Withdraw the advertisement and close the door (ending its visitors' clients)."""
        if self._advertising is not None:
            self._advertising.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._advertising
            self._advertising = None
        if self.advertiser is not None:
            await self.advertiser.close()
            self.advertiser = None
        if self.web_door is not None:
            await self.web_door.close()
            self.web_door = None
        if self.door is not None:
            await self.door.close()
            self.door = None
