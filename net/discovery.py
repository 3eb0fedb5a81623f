"""Finding hosts on the LAN with mDNS/DNS-SD (python-zeroconf), game-agnostic.

A convenience only: callers log and swallow every failure, and a typed
``HOST:PORT`` always works. TXT properties (text): ``name``, ``proto``,
``rooms``, ``playing``, ``open`` (free seats in gathering rooms) and ``ssh``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from partyhost.engine.playertext import clean_text
from partyhost.net.address import with_port

if TYPE_CHECKING:
    from zeroconf import Zeroconf
    from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

log = logging.getLogger(__name__)

SERVICE_TYPE = "_partyhost._tcp.local."
MAX_INSTANCE_BYTES = 63
"""DNS-SD caps a service instance name at 63 bytes."""
MAX_SHOWN_NAME = 40
CLOSE_TIMEOUT = 3.0
RESOLVE_TIMEOUT_MS = 3000

Properties = dict[str, str]


class DiscoveryError(Exception):
    """mDNS could not start here (no multicast, no interface...)."""


@dataclass(frozen=True)
class DiscoveredHost:
    """One host found on the LAN, as its advertisement describes it."""

    key: str
    """The service's full DNS-SD name: unique on the LAN, stable while it runs."""
    name: str
    addresses: tuple[str, ...]
    port: int
    protocol: int | None = None
    rooms: int = 0
    playing: int = 0
    open_seats: int = 0
    ssh_port: int | None = None

    @property
    def address(self) -> str:
        """``HOST:PORT`` for ``partyhost join`` (IPv6 in brackets)."""
        return with_port(self.addresses[0] if self.addresses else self.name, self.port)


def instance_name(display_name: str) -> str:
    """A DNS-SD instance label from a host's display name: no dots, controls or overlong bytes."""
    text = clean_text(display_name, 200).replace(".", "-") or "partyhost"
    while len(text.encode("utf-8")) > MAX_INSTANCE_BYTES:
        text = text[:-1]
    return text.rstrip() or "partyhost"


def server_name(port: int) -> str:
    """A ``.local.`` host name for the address records, unique per machine and port."""
    label = re.sub(r"[^a-z0-9-]+", "-", socket.gethostname().lower()).strip("-")[:40]
    return f"partyhost-{label or 'host'}-{port}.local."


def _number(value: str | None) -> int | None:
    return int(value) if value is not None and value.isdigit() and len(value) < 7 else None


def parse_host(
    key: str, port: int, addresses: Sequence[str], txt: Mapping[str, Any]
) -> DiscoveredHost:
    """A :class:`DiscoveredHost` from a resolved service; untrusted text is cleaned."""
    text = {str(k): v if isinstance(v, str) else None for k, v in txt.items()}
    fallback = key.removesuffix("." + SERVICE_TYPE)
    name = clean_text(text.get("name") or fallback, MAX_SHOWN_NAME) or "partyhost"
    return DiscoveredHost(
        key=key,
        name=name,
        addresses=tuple(addresses),
        port=port,
        protocol=_number(text.get("proto")),
        rooms=_number(text.get("rooms")) or 0,
        playing=_number(text.get("playing")) or 0,
        open_seats=_number(text.get("open")) or 0,
        ssh_port=_number(text.get("ssh")),
    )


@dataclass(kw_only=True, eq=False)
class HostAdvertiser:
    """Advertises one host (only on ``interfaces`` when given, so a loopback-only host never
    reaches the LAN); polls ``properties`` and re-announces changes, at most once a
    ``refresh_interval``."""

    name: str
    port: int
    addresses: list[str]
    properties: Callable[[], Properties]
    refresh_interval: float = 2.0
    interfaces: list[str] | None = None
    _zeroconf: AsyncZeroconf | None = field(default=None, init=False)
    _info: AsyncServiceInfo | None = field(default=None, init=False)
    _shown: Properties = field(default_factory=dict, init=False)
    _refresher: asyncio.Task[None] | None = field(default=None, init=False)

    async def start(self) -> None:
        """Register the service; raises :class:`DiscoveryError` when mDNS is unavailable."""
        from zeroconf import InterfaceChoice
        from zeroconf.asyncio import AsyncZeroconf

        interfaces = InterfaceChoice.All if self.interfaces is None else self.interfaces
        try:
            self._zeroconf = zeroconf = AsyncZeroconf(interfaces=interfaces)
            self._shown = self.properties()
            self._info = info = self._service_info(f"{instance_name(self.name)}.{SERVICE_TYPE}")
            await (await zeroconf.async_register_service(info, allow_name_change=True))
        except Exception as exc:
            await self.close()
            raise DiscoveryError(
                f"cannot advertise on the LAN: {exc or type(exc).__name__}"
            ) from exc
        self._refresher = asyncio.create_task(self._refresh(), name="mDNS refresh")
        log.info("advertising %s on port %d", info.name, self.port)

    def _service_info(self, full_name: str) -> AsyncServiceInfo:
        from zeroconf.asyncio import AsyncServiceInfo

        return AsyncServiceInfo(
            SERVICE_TYPE,
            full_name,
            port=self.port,
            properties=dict(self._shown),
            server=server_name(self.port),
            parsed_addresses=self.addresses,
        )

    async def _refresh(self) -> None:
        while True:
            await asyncio.sleep(self.refresh_interval)
            try:
                wanted = self.properties()
                zeroconf, info = self._zeroconf, self._info
                if wanted == self._shown or zeroconf is None or info is None:
                    continue
                self._shown = wanted
                self._info = info = self._service_info(info.name)
                await (await zeroconf.async_update_service(info))
            except Exception:
                log.warning("could not update the LAN advertisement", exc_info=True)

    async def close(self) -> None:
        """Say goodbye on the LAN (bounded wait) and release the sockets."""
        if self._refresher is not None:
            self._refresher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._refresher
            self._refresher = None
        zeroconf, self._zeroconf = self._zeroconf, None
        if zeroconf is not None:
            try:
                await asyncio.wait_for(zeroconf.async_close(), CLOSE_TIMEOUT)
            except Exception:
                log.warning("mDNS did not close cleanly", exc_info=True)


class HostListener(Protocol):
    """Receives hosts as they appear, change and vanish."""

    def host_found(self, host: DiscoveredHost) -> None: ...

    def host_gone(self, key: str) -> None: ...


class HostWatcher(Protocol):
    """Something that feeds a :class:`HostListener` until closed (real or fake)."""

    async def start(self) -> None: ...

    async def close(self) -> None: ...


BrowserFactory = Callable[[HostListener], HostWatcher]


@dataclass(eq=False)
class HostBrowser:
    """Browses the LAN for partyhost hosts and tells ``listener`` (on the event loop); the
    class itself is the real :data:`BrowserFactory`."""

    listener: HostListener
    resolve_timeout_ms: int = RESOLVE_TIMEOUT_MS
    _zeroconf: AsyncZeroconf | None = field(default=None, init=False)
    _browser: AsyncServiceBrowser | None = field(default=None, init=False)
    _present: set[str] = field(default_factory=set, init=False)
    _resolving: dict[str, asyncio.Task[None]] = field(default_factory=dict, init=False)

    async def start(self) -> None:
        """Start browsing; raises :class:`DiscoveryError` when mDNS is unavailable."""
        from zeroconf.asyncio import AsyncServiceBrowser, AsyncZeroconf

        try:
            self._zeroconf = zeroconf = AsyncZeroconf()
            self._browser = AsyncServiceBrowser(
                zeroconf.zeroconf, SERVICE_TYPE, handlers=[self._on_change]
            )
        except Exception as exc:
            await self.close()
            raise DiscoveryError(f"cannot look for hosts: {exc or type(exc).__name__}") from exc

    def _on_change(
        self, zeroconf: Zeroconf, service_type: str, name: str, state_change: object
    ) -> None:
        from zeroconf import ServiceStateChange

        if state_change is ServiceStateChange.Removed:
            self._present.discard(name)
            pending = self._resolving.pop(name, None)
            if pending is not None:
                pending.cancel()
            self.listener.host_gone(name)
            return
        self._present.add(name)
        if name not in self._resolving:
            task = asyncio.create_task(self._resolve(zeroconf, name), name=f"resolve {name}")
            self._resolving[name] = task

    async def _resolve(self, zeroconf: Zeroconf, name: str) -> None:
        from zeroconf.asyncio import AsyncServiceInfo

        try:
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            found = await info.async_request(zeroconf, self.resolve_timeout_ms)
            if found and info.port and name in self._present:
                addresses = info.parsed_addresses()
                self.listener.host_found(
                    parse_host(name, int(info.port), addresses, info.decoded_properties)
                )
        except Exception:
            log.warning("could not resolve %s", name, exc_info=True)
        finally:
            if self._resolving.get(name) is asyncio.current_task():
                del self._resolving[name]

    async def close(self) -> None:
        """Stop browsing and release the sockets (bounded wait)."""
        for task in list(self._resolving.values()):
            task.cancel()
        self._resolving.clear()
        browser, self._browser = self._browser, None
        zeroconf, self._zeroconf = self._zeroconf, None
        try:
            if browser is not None:
                await browser.async_cancel()
            if zeroconf is not None:
                await asyncio.wait_for(zeroconf.async_close(), CLOSE_TIMEOUT)
        except Exception:
            log.warning("mDNS browser did not close cleanly", exc_info=True)
