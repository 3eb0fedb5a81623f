"""A guard around Textual's toasts, which can otherwise freeze the whole client.

A toast times itself with its notification's ``time_left``, taken when the
toast is made. The toast rack checks that a notification has not expired and
makes its toast a moment later; on a busy machine, with many notifications
coming (keys pressed fast, each answered by a note), a notification can
expire in between, and the toast then sets a timer with a negative delay.
Textual's timer loop never ends for a negative delay: it spins without
yielding, and the client stops drawing and answering at 100% CPU (and a
delay of exactly zero divides by zero in the same loop). A toast here waits
at least :data:`SHORTEST_TOAST` seconds.
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
