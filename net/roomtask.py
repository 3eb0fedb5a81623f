"""The one task that changes a room: queue items in arrival order, then whatever timer is due.

The room waits on its queue until an item arrives or its next timer is due
(:meth:`Room.next_item <partyhost.net.room.Room.next_item>`); an unwatched
room with nothing due sleeps. A failure while handling one item is logged
and the room carries on: no client can stop a room.
"""

from __future__ import annotations

import asyncio
import logging
import time

from partyhost.net import protocol as p
from partyhost.net import roomrequests
from partyhost.net.room import Room
from partyhost.net.roomqueue import Request, Stop

log = logging.getLogger(__name__)


def start(room: Room) -> asyncio.Task[None]:
    """Run ``room`` in its own task on the running loop."""
    return asyncio.get_running_loop().create_task(run(room), name=f"room {room.code}")


async def run(room: Room) -> None:
    """Handle queued items and timers until the room closes or the host stops it."""
    room.wake_bots(time.time())
    while not room.closed:
        item = await room.next_item()
        if isinstance(item, Stop):
            return
        timer = None
        if isinstance(item, Request) and item.timer is not None and item.message["t"] == p.PLAY:
            timer = item.timer
            timer.begin(item.arrived)
        try:
            if item is not None:
                roomrequests.handle(room, item)
            if not room.closed:
                room.run_timers(time.time())
        except Exception:
            log.exception("room %s failed handling %r", room.code, item)
        finally:
            if timer is not None:
                timer.end()
