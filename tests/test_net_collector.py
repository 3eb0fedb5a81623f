"""The host's collection schedule: young cycles die on the timer, old ones at the full pass."""

from __future__ import annotations

import asyncio
import gc
import weakref

from partyhost.net.collector import Collector


class Node:
    """A cycle of one: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


async def test_young_cycles_die_on_the_timer_and_frozen_ones_at_the_full_pass() -> None:
    collector = Collector(young_interval=0.01, full_interval=3600.0)
    collector.start()
    try:
        old = Node()
        old_ref = weakref.ref(old)
        await asyncio.sleep(0.05)  # it survives a young collection: frozen from now on
        del old
        young = Node()
        young_ref = weakref.ref(young)
        del young
        await asyncio.sleep(0.05)
        assert young_ref() is None  # collected by a young collection
        assert old_ref() is not None  # a cycle among frozen objects waits for the full pass
        assert gc.get_freeze_count() > 0
        assert collector.collect_all() >= 1
        assert old_ref() is None
        assert collector.full_collections == 1
    finally:
        await collector.stop()
    assert gc.get_freeze_count() == 0  # everything is handed back to the collector
