"""The host's clocks as this client reads them: the room's game clock and grace periods.

A view's times are on the room's game clock (stamped ``now`` on every view, still while
paused): a countdown measures from the last ``now`` plus the monotonic time since it came,
never from our own wall clock, which skew and pauses would put off.
"""

from __future__ import annotations

import time

from partyhost.tui.text import Frame, number_of


def _stopped_at(room: Frame) -> float | None:
    """Where the game clock stands while the game is paused or its table reads a result."""
    for stop in (room.get("paused"), room.get("pause")):
        at = number_of(stop.get("at")) if isinstance(stop, dict) else None
        if at is not None:
            return at
    return None


class HostClock:
    """When the last view and room message arrived, and what that makes the time now."""

    def __init__(self) -> None:
        self._view_now: float | None = None
        self._view_at = 0.0
        self._room_at = time.monotonic()
        self._frozen: float | None = None
        """Where the game clock stood when the room was paused, until it runs again."""
        self._owner_paused = False
        """The owner paused the game: grace periods stand still too (a result's hold aside)."""

    def saw_view(self, now: float | None) -> None:
        if now is not None:
            self._view_now, self._view_at = now, time.monotonic()

    def saw_room(self, room: Frame) -> None:
        """A room message: grace times count from now; a resumed clock runs on from where
        it stopped (the host's fresh view, which says so too, may come a moment later)."""
        self._room_at = time.monotonic()
        self._owner_paused = isinstance(room.get("paused"), dict)
        frozen = _stopped_at(room)
        if frozen is not None:
            self._frozen = frozen
        elif self._frozen is not None:
            self._view_now, self._view_at = self._frozen, self._room_at
            self._frozen = None

    def game_time(self, room: Frame | None) -> float:
        """The room's game clock now: frozen while stopped, our own clock before any view."""
        frozen = _stopped_at(room or {})
        if frozen is not None:
            return frozen
        if self._view_now is None:
            return time.time()
        return self._view_now + (time.monotonic() - self._view_at)

    def grace_left(self, entry: Frame) -> int | None:
        """Whole seconds of a disconnected seat's grace period left, if it has one."""
        left = number_of(entry.get("grace_left"))
        if left is None:
            return None
        if self._owner_paused:
            return max(0, round(left))
        return max(0, round(left - (time.monotonic() - self._room_at)))
