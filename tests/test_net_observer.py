"""The host's one observer hook: told of each room request once its frames are written.

The host measures nothing itself; a benchmark (bench/watched_host.py) passes
an :class:`Observer` to time requests from their arrival to their last frame.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from nethelpers import host_config, quiet
from partyhost.net import protocol as p
from partyhost.net.hosting.host import Host
from partyhost.net.rooms.roomqueue import Observer, Request
from test_net_room_doors import hand, place, scramble_table


class Recorder(Observer):
    """Each handled request's type, and the bytes the host had written to the sockets by then."""

    def __init__(self) -> None:
        self.handled_requests: list[tuple[str, float, int]] = []
        self.written = 0

    def handled(self, request: Request) -> None:
        assert request.arrived <= time.perf_counter()
        self.handled_requests.append((request.message["t"], request.arrived, self.written))


def count_writes(host: Host, recorder: Recorder) -> None:
    """Count every byte the host writes to any of its connections."""
    for connection in host.connections:
        transport = connection.transport
        assert transport is not None
        write = transport.write

        def counted(data: Any, write: Any = write) -> None:
            recorder.written += len(data)
            write(data)

        transport.write = counted  # type: ignore[method-assign]


async def test_the_observer_hears_each_play_after_its_views_are_written() -> None:
    recorder = Recorder()
    host = Host(host_config(), observer=recorder)
    await host.start()
    try:
        ann, bob, _ = await scramble_table(host.port)
        await quiet([ann, bob])
        count_writes(host, recorder)
        recorder.handled_requests.clear()
        card = hand(ann)[0]
        version = ann.version
        await ann.send(place(card, 0, ref=1))
        await ann.until(lambda: ann.version > version)
        await bob.until(lambda: bob.version > version)
        async with asyncio.timeout(5):
            while not recorder.handled_requests:
                await asyncio.sleep(0.01)
        [(kind, arrived, written_by_then)] = recorder.handled_requests
        assert kind == p.PLAY and arrived > 0
        assert written_by_then == recorder.written > 0  # both views were out, nothing after
        await ann.close()
        await bob.close()
    finally:
        await host.close("test over")


async def test_a_host_without_an_observer_watches_nothing() -> None:
    host = Host(host_config())
    assert type(host.observer) is Observer  # whose ``handled`` does nothing
