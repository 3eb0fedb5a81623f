"""The LAN host: accepts connections, greets them, routes requests, keeps time, and
opens its other ways in (the SSH and browser doors, the LAN advertisement).

Shutdown order: stop accepting, tell clients (``bye``), persist, cancel
connection tasks, wait for them. The doors were asked for explicitly, so one
that cannot open stops the host; the advertisement is a convenience, so its
failures are only logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from partyhost.net import protocol as p
from partyhost.net.address import WILDCARDS, local_address, reachable_addresses, web_url
from partyhost.net.addresslimits import AddressLimits, PasswordThrottle
from partyhost.net.config import HostConfig
from partyhost.net.credentials import load_host_id
from partyhost.net.deckshelf import DeckShelf, UploadReader
from partyhost.net.discovery import DiscoveryError, HostAdvertiser, Properties
from partyhost.net.hosting.connection import Connection
from partyhost.net.hosting.lobby import Lobby
from partyhost.net.platform import REUSE_ADDRESS
from partyhost.net.rooms.roomqueue import Gone, Observer, Outgoing
from partyhost.net.store.database import Store

if TYPE_CHECKING:
    from partyhost.net.door.sshdoor import SSHDoor
    from partyhost.net.door.webdoor import WebDoor

__all__ = ["Host", "HostConfig"]

log = logging.getLogger(__name__)

HEARTBEAT_SLICES = 10
"""Heartbeat pings go out in this many slices per interval."""


class Host:
    """A partyhost host: ``await start()``, later ``await close()``; ``observer`` hears of
    every room request handled (a benchmark's; by default nobody)."""

    def __init__(self, config: HostConfig | None = None, observer: Observer | None = None) -> None:
        self.config = config or HostConfig()
        self.observer = observer or Observer()
        self.port: int = self.config.port
        self.connections: set[Connection] = set()
        self._beat_slots: dict[Connection, int] = {}
        self.address_limits = AddressLimits(self.config)
        self._admitted = 0
        self.passwords = PasswordThrottle(self.config)
        self.journal: Store | None = None
        """The data folder's database; every frame out waits for its queued writes."""
        self.outgoing = Outgoing()
        self.lobby: Lobby | None = None
        self.lan: LanServices | None = None
        self._server: asyncio.Server | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._checkpoints: asyncio.Task[None] | None = None
        self._lobby_news: asyncio.Task[None] | None = None
        self._closed = asyncio.Event()
        self._ping_number = 0

    # --- life cycle ----------------------------------------------------------

    async def start(self) -> None:
        """Load games and decks, rebuild journaled rooms, then listen."""
        for module in self.config.extra_games:
            importlib.import_module(module)
        shelf = DeckShelf(
            self.config.deck_dirs, self.config.deck_poll_seconds, UploadReader(self.config)
        )
        await asyncio.to_thread(shelf.scan)
        shelf.on_change = self._decks_changed
        journal = self.journal = self.outgoing.journal = Store(
            self.config.data_dir,
            history_cap=int(self.config.max_history_mib * 2**20),
            reserve_bytes=int(self.config.disk_reserve_mib * 2**20),
        )
        self.lobby = lobby = Lobby(
            self.config,
            journal,
            shelf,
            self.outgoing,
            self.observer,
            host_id=load_host_id(self.config.data_dir),
            address_limits=self.address_limits,
            passwords=self.passwords,
        )
        if self.config.web_port:
            # Known before the door opens (its port is not left to chance), so a client that
            # connects while it opens is told as well; a door that cannot open stops the host.
            lobby.web_door = web_url(self.config.host, self.config.web_port)
        loop = asyncio.get_running_loop()
        lan = None
        try:
            restored = lobby.restore()
            if restored:
                log.info("rebuilt %d room(s) from the store", restored)
            self._server = await loop.create_server(
                lambda: Connection(self, lobby.handle),
                self.config.host,
                self.config.port,
                reuse_address=REUSE_ADDRESS,
            )
            shelf.start_watching()
            self.port = self._server.sockets[0].getsockname()[1]
            lan = LanServices(self.config, self.port, lobby.listing)
            await lan.start()
        except BaseException:  # undo what opened: a host that cannot start leaves nothing open
            if lan is not None:
                await lan.close()
            if self._server is not None:
                self._server.close()
                self._server = None
            await shelf.stop_watching()
            await lobby.stop(self.config.shutdown_timeout)
            journal.close()
            raise
        self.lan = lan
        lobby.web_door = lan.web_url
        self._heartbeat = loop.create_task(self._beat(), name="heartbeat")
        self._checkpoints = loop.create_task(self._checkpoint(), name="store checkpoints")
        self._lobby_news = loop.create_task(self._tell_the_lobby(), name="lobby news")
        log.info("listening on %s:%d", self.config.host, self.port)

    async def close(self, reason: str = "The host is shutting down.") -> None:
        """Graceful stop: no new clients, ``bye`` to all, rooms persisted, tasks ended."""
        if self._closed.is_set() or self._server is None:
            self._closed.set()
            return
        lan, lobby, journal = self.lan, self.lobby, self.journal
        assert lan is not None and lobby is not None and journal is not None, "it started"
        await lan.close()
        await lobby.shelf.stop_watching()
        self._server.close()
        await self._server.wait_closed()
        for task in (self._heartbeat, self._checkpoints, self._lobby_news):
            if task is not None:
                task.cancel()
                await asyncio.wait([task], timeout=self.config.shutdown_timeout)
        for connection in list(self.connections):
            connection.send({"t": p.BYE, "reason": reason})
            connection.close("host closing")
        await lobby.stop(self.config.shutdown_timeout)
        workers = [c.worker for c in self.connections if c.worker is not None]
        for worker in workers:
            worker.cancel()
        if workers:
            await asyncio.wait(workers, timeout=self.config.shutdown_timeout)
        await self._flush()
        journal.close()
        self._closed.set()
        log.info("host closed: %s", reason)

    async def _flush(self) -> None:
        """Give closing sockets a moment to write their ``bye``, then cut the rest."""
        deadline = time.monotonic() + min(1.0, self.config.shutdown_timeout)
        while self.connections and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        for connection in list(self.connections):
            connection.abort("host closed")

    # --- connections -----------------------------------------------------------

    def admit(self, connection: Connection) -> str | None:
        """Take ``connection`` in, or say why not (the host is full, or its address is)."""
        address = connection.peer_host
        if self._closed.is_set():
            return "The host is shutting down."
        refusal = self.address_limits.refusal(address, len(self.connections))
        if refusal is not None:
            return refusal
        self.connections.add(connection)
        self._beat_slots[connection] = self._admitted % HEARTBEAT_SLICES
        self._admitted += 1
        return None

    def forget(self, connection: Connection) -> None:
        self.connections.discard(connection)
        self._beat_slots.pop(connection, None)
        room = connection.room
        if room is not None:
            room.post(Gone(connection))
            connection.room = None

    async def _beat(self) -> None:
        """Ping everyone each interval, in slices (a thousand pongs in one burst would stall
        every room at once); drop the silent and the never-greeted."""
        step = self.config.heartbeat_interval / HEARTBEAT_SLICES
        slot = 0
        while True:
            await asyncio.sleep(step)
            slot = (slot + 1) % HEARTBEAT_SLICES
            if slot == 0:
                self.address_limits.sweep()
            now = time.monotonic()
            self._ping_number += 1
            ping = p.encode({"t": p.PING, "n": self._ping_number})
            due = [c for c, beat in self._beat_slots.items() if beat == slot]
            for connection in due:
                if not connection.greeted:
                    if now - connection.opened > self.config.hello_timeout:
                        connection.abort("no hello")
                elif now - connection.last_heard > self.config.silence_limit:
                    log.info(
                        "%r: silent for %.1fs; dropping it", connection, now - connection.last_heard
                    )
                    connection.abort("silent")
                else:
                    connection.send_frame(ping, journaled=False)

    async def _tell_the_lobby(self) -> None:
        """Send the rooms list to everyone in the lobby whenever it changes, so a room one
        person makes shows in everyone else's lobby at once. With nobody in the lobby the
        list is not even made (a busy host has hundreds of rooms)."""
        assert self.lobby is not None
        shown = p.encode({"t": p.ROOMS, "rooms": self.lobby.listing()})
        while True:
            await asyncio.sleep(self.config.lobby_news_interval)
            watching = self._in_lobby()
            if not watching:
                continue
            frame = p.encode({"t": p.ROOMS, "rooms": self.lobby.listing()})
            if frame == shown:
                continue
            shown = frame
            for connection in watching:
                connection.send_frame(frame, journaled=False)

    async def _checkpoint(self) -> None:
        """Fold the store's WAL into its database off the event loop; also retry a store that
        could not write (no connection may be waiting to send) and log password reports."""
        assert self.journal is not None
        failures = 0
        while True:
            await asyncio.sleep(self.config.checkpoint_interval)
            self.passwords.report()
            self.journal.commit()
            try:
                await asyncio.to_thread(self.journal.checkpoint)
            except Exception as error:
                failures += 1
                if failures == 1 or failures % 60 == 0:  # not every second of a full disk
                    log.error(
                        "store checkpoint failed %d time(s) (will retry): %s", failures, error
                    )
            else:
                failures = 0

    def _decks_changed(self) -> None:
        """Tell everyone in the lobby (not in a room) what the deck folders hold now."""
        assert self.lobby is not None
        frame = p.encode({"t": p.DECKS, "decks": self.lobby.shelf.listing()})
        for connection in self._in_lobby():
            connection.send_frame(frame, journaled=False)

    def _in_lobby(self) -> list[Connection]:
        return [c for c in self.connections if c.greeted and c.room is None]


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
        "proto": str(p.PROTOCOL_VERSION),
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
        opened = (self.advertiser, self.web_door, self.door)
        self.advertiser, self.web_door, self.door = None, None, None
        for service in opened:
            if service is not None:
                await service.close()
