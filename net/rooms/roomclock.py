"""A room's game clock: the host's clock, less the time the room's games spent stopped.

Engines never read a clock (``now`` is an argument), so pausing needs no rule
of any game: while a room is paused, or its table reads a round's result (a
*hold*, see :mod:`.roomgame`), the game clock stands still, and on resume every
deadline is as far away as it was. Commands are journaled with the game clock's
``now`` and the clock is kept in the room's record, so a replay and a restarted
host see the same times. Grace periods, bot delays and idle rooms stay on the
host's clock.
"""

from __future__ import annotations


class RoomClock:
    """The time a room's game runs on, and whether it is paused (and by whom) or held.

    Read its fields; only its methods change them.
    """

    def __init__(
        self,
        offset: float = 0.0,
        paused_at: float | None = None,
        paused_by: str | None = None,
        held_at: float | None = None,
    ) -> None:
        self.offset = offset
        """How far the game clock is behind the host's (the time spent stopped)."""
        self.stopped_at = paused_at if paused_at is not None else held_at
        """The game clock's time while stopped (paused or held); None while it runs."""
        self.paused = paused_at is not None
        self.paused_by = paused_by if self.paused else None
        self.held = held_at is not None
        """Stopped while the table reads a round's result."""
        self.paused_wall = self.to_wall(paused_at) if paused_at is not None else None
        """The host time the game's clock stopped for the pause (or for the round's result
        it paused during), for the pause's time limit and the grace periods it holds; the
        clock's reading and offset give it back after a restart."""

    @property
    def held_at(self) -> float | None:
        """The game clock's time while held (None: no hold)."""
        return self.stopped_at if self.held else None

    @property
    def paused_at(self) -> float | None:
        """The game clock's time while paused (None: not paused)."""
        return self.stopped_at if self.paused else None

    def now(self, wall: float) -> float:
        """The game clock at host time ``wall``."""
        if self.stopped_at is not None:
            return self.stopped_at
        return wall - self.offset

    def to_wall(self, when: float) -> float:
        """The host time at which the running game clock reads ``when``."""
        return when + self.offset

    def pause(self, wall: float, by: str) -> None:
        """Stop the game clock at host time ``wall``."""
        if not self.paused:
            self._stop(wall)
            self.paused, self.paused_by = True, by
            stopped = self.stopped_at
            self.paused_wall = wall if stopped is None else self.to_wall(stopped)

    def resume(self, wall: float) -> None:
        """Run the game clock again from where it stopped (unless it is also held)."""
        self.paused, self.paused_by, self.paused_wall = False, None, None
        self._run_unless_stopped(wall)

    def hold(self, wall: float) -> None:
        """Stop the game clock while a round's result is read."""
        self._stop(wall)
        self.held = True

    def release(self, wall: float) -> None:
        """End a hold (the clock runs again unless it is also paused)."""
        self.held = False
        self._run_unless_stopped(wall)

    def _stop(self, wall: float) -> None:
        if self.stopped_at is None:
            self.stopped_at = wall - self.offset

    def _run_unless_stopped(self, wall: float) -> None:
        if self.stopped_at is not None and not (self.paused or self.held):
            self.offset = wall - self.stopped_at
            self.stopped_at = None
