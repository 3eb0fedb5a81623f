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

The clock also stands still while the table reads a round's result (a
*hold*, see :mod:`.roomgame`), so a round timer does not run out behind the
result; a hold is not a pause: commands still come (a person who has read
plays on) and it is not kept across a restart.

Grace periods, bot thinking delays and idle rooms stay on the host's clock:
they are the room's business, not the game's.
"""

from __future__ import annotations


class RoomClock:
    """The time a room's game runs on, and whether it is paused (and by whom) or held."""

    def __init__(
        self, offset: float = 0.0, paused_at: float | None = None, paused_by: str | None = None
    ) -> None:
        self._offset = offset
        self._stopped_at = paused_at
        """The game clock's time while stopped (paused or held); None while it runs."""
        self._paused_by = paused_by if paused_at is not None else None
        self._paused = paused_at is not None
        self._held = False

    @property
    def offset(self) -> float:
        """How far the game clock is behind the host's (the time spent stopped)."""
        return self._offset

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def held(self) -> bool:
        """Stopped while the table reads a round's result."""
        return self._held

    @property
    def stopped(self) -> bool:
        return self._stopped_at is not None

    @property
    def paused_at(self) -> float | None:
        """The game clock's time while paused (None: not paused)."""
        return self._stopped_at if self._paused else None

    @property
    def stopped_at(self) -> float | None:
        """The game clock's time while paused or held (None: running)."""
        return self._stopped_at

    @property
    def paused_by(self) -> str | None:
        return self._paused_by

    def now(self, wall: float) -> float:
        """The game clock at host time ``wall``."""
        if self._stopped_at is not None:
            return self._stopped_at
        return wall - self._offset

    def to_wall(self, when: float) -> float:
        """The host time at which the running game clock reads ``when``."""
        return when + self._offset

    def pause(self, wall: float, by: str) -> None:
        """Stop the game clock at host time ``wall``."""
        if not self._paused:
            self._stop(wall)
            self._paused, self._paused_by = True, by

    def resume(self, wall: float) -> None:
        """Run the game clock again from where it stopped (unless it is also held)."""
        self._paused, self._paused_by = False, None
        self._run_unless_stopped(wall)

    def hold(self, wall: float) -> None:
        """Stop the game clock while a round's result is read."""
        self._stop(wall)
        self._held = True

    def release(self, wall: float) -> None:
        """End a hold (the clock runs again unless it is also paused)."""
        self._held = False
        self._run_unless_stopped(wall)

    def _stop(self, wall: float) -> None:
        if self._stopped_at is None:
            self._stopped_at = wall - self._offset

    def _run_unless_stopped(self, wall: float) -> None:
        if self._stopped_at is not None and not (self._paused or self._held):
            self._offset = wall - self._stopped_at
            self._stopped_at = None
