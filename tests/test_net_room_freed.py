"""A closed room is freed at once, not at the next full garbage collection.

Reference counting alone must free it: a host whose garbage collector runs
rarely (as a benchmark may run it, bench/watched_host.py) kept every closed
room, with its game's whole history, until a full collection when a
reference cycle ran through the room (14 MB in a busy bench run).
"""

from __future__ import annotations

import asyncio
import gc
import weakref

from nethelpers import running_host, table
from partyhost.net import protocol as p


async def test_a_room_closed_by_the_host_leaves_nothing_behind() -> None:
    async with running_host() as host:
        seats, code = await table(host.port, ["Ann", "Bo"])
        room = weakref.ref(host.lobby.rooms[code])
        gc.collect()
        gc.disable()  # only reference counting may free it now
        try:
            assert host.lobby.close_room(code)
            for seat in seats:
                await seat.expect(p.LEFT)
            for _ in range(50):  # the room's task ends and the lobby forgets it
                if room() is None:
                    break
                await asyncio.sleep(0.02)
            assert room() is None, gc.get_referrers(room())
        finally:
            gc.enable()
            for seat in seats:
                await seat.close()
