"""Host addresses as people type them, and the ports partyhost uses unless told otherwise.

One home for both, so the command line, the client's connect screen and the
host agree on what ``mybox``, ``mybox:7777`` and ``[::1]:7777`` mean.
"""

from __future__ import annotations

DEFAULT_PORT = 7777
"""The game port a host listens on and a client tries when none is typed."""
DEFAULT_SSH_PORT = 2222
"""The SSH door's port when ``serve --ssh`` names none."""


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
