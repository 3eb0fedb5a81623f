"""Frames on their way out: held until the journal has committed, then written at once.

A room's task flushes right after each item, so a view leaves in the same loop
turn as the command it shows, never ahead of it.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from partyhost.net.store.database import Store

JOURNAL_RETRY = 0.2
"""Seconds before held frames try again to go out after the journal failed to commit."""


class Holder(Protocol):
    """A connection holding frames, as :class:`Outgoing` sees it."""

    def write_held(self, committed: bool) -> bool:
        """Write the held frames if the journal has ``committed``; True if they stay held."""


class Outgoing:
    """The connections holding frames, written together behind one journal commit."""

    def __init__(self) -> None:
        self.journal: Store | None = None
        """Committed before held frames go out (None until the host opens its store)."""
        self._holders: list[Holder] = []
        self._planned = False

    def holding(self, holder: Holder) -> None:
        """``holder`` has its first frame: write it by the end of this loop turn at the latest."""
        self._holders.append(holder)
        if not self._planned:
            self._planned = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Commit the journal, then have every holder write its frames.

        If the journal cannot commit, nothing goes out ahead of it: the frames
        wait and try again soon (a holder drops a client whose held frames
        pass the unsent-bytes limit).
        """
        self._planned = False
        holders, self._holders = self._holders, []
        if not holders:
            return
        committed = self.journal is None or self.journal.commit()
        self._holders = [holder for holder in holders if holder.write_held(committed)]
        if self._holders and not self._planned:
            self._planned = True
            asyncio.get_running_loop().call_later(JOURNAL_RETRY, self.flush)
