"""A handful of addresses cannot take every connection slot of the host.

Against a real host on loopback with 64 slots (16 per address, as by default):
eight attacking addresses (127.0.0.2 to .9) open as many connections as they
can. Today four addresses would fill the host; once it is half full an
address holding two connections gets no more, so the attackers hold well
under the total and people from new addresses still get in.
"""

from __future__ import annotations

import contextlib

from nethelpers import connect, running_host
from partyhost.net.clients.client import ConnectionFailed, HostConnection
from partyhost.net.config import HostConfig

TOTAL = 64
ATTACKERS = [f"127.0.0.{n}" for n in range(2, 10)]


async def test_a_handful_of_addresses_cannot_fill_the_host() -> None:
    per_address = HostConfig.max_connections_per_address
    async with running_host(max_connections=TOTAL) as host:
        held: list[HostConnection] = []
        refusals: list[str] = []
        try:
            for source in ATTACKERS:
                for n in range(per_address):
                    try:
                        held.append(await connect(host.port, f"Flood {n}", source=source))
                    except ConnectionFailed as refused:
                        assert refused.code == "host_full"
                        refusals.append(str(refused))
            assert (
                len(held) <= TOTAL // 2 + len(ATTACKERS) * HostConfig.busy_connections_per_address
            )
            assert any("busy" in text for text in refusals)
            for n in range(10, 18):  # people from other machines still get in
                held.append(await connect(host.port, f"Guest {n}", source=f"127.0.0.{n}"))
        finally:
            for connection in held:
                with contextlib.suppress(Exception):
                    await connection.close()
