"""A guard around Textual's toasts, which can otherwise freeze the whole client.

On a busy machine a notification can expire between the rack's check and its toast's
making; the toast's timer then gets a negative (or zero) delay, on which Textual's timer
loop spins forever at 100% CPU. A toast here waits at least :data:`SHORTEST_TOAST`.
"""

from __future__ import annotations

from textual.notifications import Notification
from textual.widgets._toast import Toast

SHORTEST_TOAST = 0.1
"""Seconds: an expired notification's toast goes after this long."""

_made = Toast.__init__


def _waits_a_moment(self: Toast, notification: Notification) -> None:
    _made(self, notification)
    self._timeout = max(SHORTEST_TOAST, self._timeout)


def guard_toasts() -> None:
    """Install the guard (once; again is harmless)."""
    Toast.__init__ = _waits_a_moment  # type: ignore[method-assign]
