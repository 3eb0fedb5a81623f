"""What ``partyhost serve`` prints so friends can join: every LAN address, both ways in.

Addresses come from the interfaces themselves (``ifaddr``, which zeroconf
already depends on): nothing is sent anywhere to find them.
"""

from __future__ import annotations

import ipaddress
import logging

log = logging.getLogger(__name__)

WILDCARDS = frozenset({"", "0.0.0.0", "::"})


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback and link-local, sorted."""
    try:
        import ifaddr

        adapters = ifaddr.get_adapters()
    except Exception:
        log.warning("could not list network interfaces", exc_info=True)
        return []
    found: set[str] = set()
    for adapter in adapters:
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6 entries are tuples; typed commands stay with IPv4
            try:
                address = ipaddress.IPv4Address(ip.ip)
            except ValueError:
                continue
            if not (address.is_loopback or address.is_link_local or address.is_unspecified):
                found.add(str(address))
    return sorted(found, key=ipaddress.IPv4Address)


def reachable_addresses(listen_host: str) -> list[str]:
    """Where friends can reach a host listening on ``listen_host``."""
    if listen_host not in WILDCARDS:
        return [listen_host]
    return lan_addresses() or ["127.0.0.1"]


def local_address(listen_host: str) -> str:
    """The address a process on this machine uses to reach the host (the SSH door's clients)."""
    if listen_host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if listen_host == "::":
        return "::1"
    return listen_host


def _with_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def join_instructions(
    display_name: str,
    listen_host: str,
    port: int,
    *,
    addresses: list[str] | None = None,
    ssh_port: int | None = None,
    ssh_password: bool = False,
    discovery: bool = False,
) -> str:
    """The start-up text of ``partyhost serve``: one block of commands per LAN address."""
    shown = addresses if addresses is not None else reachable_addresses(listen_host)
    lines = [
        f"partyhost host {display_name!r} is listening on {_with_port(listen_host, port)}",
        "Friends join with:",
    ]
    for address in shown:
        lines.append(f"  partyhost join {_with_port(address, port)}")
        if ssh_port is not None:
            lines.append(f"  ssh -t -p {ssh_port} NAME@{address}")
    if ssh_port is not None:
        how = "the party password" if ssh_password else "no password"
        lines.append(f"SSH needs nothing installed: NAME becomes their name at the table ({how}).")
    if discovery:
        lines.append("`partyhost join` with no address also finds this host on the LAN.")
    lines.append("Press Ctrl+C to stop.")
    return "\n".join(lines)
