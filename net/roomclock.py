"""A room's game clock: the host's clock, less the time the room's games spent paused.

An engine never reads a clock: ``decide`` and ``tick`` get ``now`` as an
argument, and every deadline in a state or view is on the clock that gave
it. So pausing needs no rule of any game. While a room is paused its game
clock stands still: the game gets no ticks and no commands, bots do not
act, and nothing it times runs out. On resume the clock runs on from where
it stopped, now further behind the host's clock by the length of the pause,
so every deadline the game set is as far away as it was when the pause
began. Commands are journaled with the game clock's ``now``, which is what a
replay feeds the game again, and the clock itself (its offset, and where it
stands while paused) is kept in the room's record, so a pause survives a
host restart.

Grace periods, bot thinking delays and idle rooms stay on the host's clock:
they are the room's business, not the game's.
"""

from __future__ import annotations


class RoomClock:
    """The time a room's game runs on, and whether it is paused (and by whom)."""

    def __init__(
        self, offset: float = 0.0, paused_at: float | None = None, paused_by: str | None = None
    ) -> None:
        self._offset = offset
        self._paused_at = paused_at
        self._paused_by = paused_by if paused_at is not None else None

    @property
    def offset(self) -> float:
        """How far the game clock is behind the host's (the time spent paused)."""
        return self._offset

    @property
    def paused(self) -> bool:
        return self._paused_at is not None

    @property
    def paused_at(self) -> float | None:
        """The game clock's time while paused (None: running)."""
        return self._paused_at

    @property
    def paused_by(self) -> str | None:
        return self._paused_by

    def now(self, wall: float) -> float:
        """The game clock at host time ``wall``."""
        if self._paused_at is not None:
            return self._paused_at
        return wall - self._offset

    def to_wall(self, when: float) -> float:
        """The host time at which the running game clock reads ``when``."""
        return when + self._offset

    def pause(self, wall: float, by: str) -> None:
        """Stop the game clock at host time ``wall``."""
        if self._paused_at is None:
            self._paused_at = wall - self._offset
            self._paused_by = by

    def resume(self, wall: float) -> None:
        """Run the game clock again from where it stopped."""
        if self._paused_at is not None:
            self._offset = wall - self._paused_at
            self._paused_at = None
            self._paused_by = None
