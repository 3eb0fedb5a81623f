"""Host addresses: as people type them, the default ports, and where friends reach a host.

Addresses come from the interfaces themselves (``ifaddr``): nothing is sent
anywhere to find them.
"""

from __future__ import annotations

import ipaddress
import logging
import socket

log = logging.getLogger(__name__)

DEFAULT_PORT = 7777
"""The game port a host listens on and a client tries when none is typed."""
DEFAULT_SSH_PORT = 2222
"""The SSH door's port when ``serve --ssh`` names none."""
DEFAULT_WEB_PORT = 8080
"""The browser door's port when ``serve --web`` names none."""


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``HOST``, ``HOST:PORT`` or ``[IPv6]:PORT`` to a (host, port) pair."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest.removeprefix(":")
    elif text.count(":") == 1:
        host, _, port_text = text.partition(":")
    else:
        host, port_text = text, ""
    if not host:
        raise ValueError(f"no host in address {text!r}")
    if not port_text:
        return host, default_port
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"bad port in address {text!r}: expected a number from 1 to 65535")
    return host, int(port_text)


def with_port(host: str, port: int) -> str:
    """``HOST:PORT`` as :func:`parse_address` reads it back (IPv6 in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


WILDCARDS = frozenset({"", "0.0.0.0", "::"})


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback and link-local, sorted."""
    try:
        import ifaddr

        adapters = ifaddr.get_adapters()
    except Exception:
        log.warning("could not list network interfaces", exc_info=True)
        return []
    found = {
        ip.ip
        for adapter in adapters
        for ip in adapter.ips
        if isinstance(ip.ip, str) and _reachable_by_others(ip.ip)  # IPv6 entries are tuples
    }
    return sorted(found, key=ipaddress.IPv4Address)


def reachable_addresses(listen_host: str) -> list[str]:
    """Where friends can reach a host listening on ``listen_host``."""
    if listen_host not in WILDCARDS:
        return [listen_host]
    return lan_addresses() or ["127.0.0.1"]


ROUTE_PROBE = ("10.254.254.254", 9)
"""A private address no host is expected to answer: connecting a UDP socket to it sends
nothing, but makes the system pick the interface (and so the address) its route leaves by."""


def lan_address(listen_host: str = "") -> str:
    """The one address other devices on the LAN reach this host at (what a URL or a QR code
    shows). A host bound to one address is reached there only. A wildcard host is reached at
    the address of the interface the system routes the LAN through (the UDP connect above),
    else at the address of its own name, and at loopback only when there is nothing else."""
    if listen_host not in WILDCARDS:
        return listen_host
    return _routed_address() or _named_address() or "127.0.0.1"


def _routed_address() -> str | None:
    """The source address the system would send to :data:`ROUTE_PROBE` from (nothing is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBE)
            address = str(probe.getsockname()[0])
    except OSError:  # no route at all: no network, or only loopback
        return None
    return address if _reachable_by_others(address) else None


def _named_address() -> str | None:
    """The IPv4 address this machine's own name resolves to, if another device could use it."""
    try:
        address = socket.gethostbyname(socket.gethostname())
    except OSError:
        return None
    return address if _reachable_by_others(address) else None


def _reachable_by_others(address: str) -> bool:
    """Whether ``address`` is IPv4 and neither loopback, unspecified nor link-local."""
    try:
        parsed = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (parsed.is_loopback or parsed.is_unspecified or parsed.is_link_local)


def web_url(listen_host: str, port: int) -> str:
    """The browser door's address as a phone types (or scans) it: ``http://ADDR:PORT/``."""
    return f"http://{with_port(lan_address(listen_host), port)}/"


def local_address(listen_host: str) -> str:
    """The address a process on this machine uses to reach the host (the SSH door's clients)."""
    return {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(listen_host, listen_host)


def join_instructions(
    display_name: str,
    listen_host: str,
    port: int,
    *,
    addresses: list[str] | None = None,
    ssh_port: int | None = None,
    ssh_password: bool = False,
    web_port: int | None = None,
    discovery: bool = False,
) -> str:
    """The start-up text of ``partyhost serve``: one block of commands per LAN address."""
    shown = addresses if addresses is not None else reachable_addresses(listen_host)
    lines = [
        f"partyhost host {display_name!r} is listening on {with_port(listen_host, port)}",
        "Friends join with:",
    ]
    for address in shown:
        lines.append(f"  partyhost join {with_port(address, port)}")
        if ssh_port is not None:
            lines.append(f"  ssh -t -p {ssh_port} NAME@{address}")
        if web_port is not None:
            lines.append(f"  http://{with_port(address, web_port)}/  (in a browser: phones too)")
    if ssh_port is not None:
        how = "the party password" if ssh_password else "no password"
        lines.append(f"SSH needs nothing installed: NAME becomes their name at the table ({how}).")
    if discovery:
        lines.append("`partyhost join` with no address also finds this host on the LAN.")
    lines.append("Press Ctrl+C to stop.")
    return "\n".join(lines)
