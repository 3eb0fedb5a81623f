"""A guard around Textual's toasts, which can otherwise freeze the whole client.

A toast times itself with its notification's ``time_left``, taken when the
toast is made. The toast rack checks that a notification has not expired and
makes its toast a moment later; on a busy machine, with many notifications
coming (keys pressed fast, each answered by a note), a notification can
expire in between, and the toast then sets a timer with a negative delay.
Textual's timer loop never ends for a negative delay: it spins without
yielding, and the client stops drawing and answering at 100% CPU. A toast's
delay is never less than zero here.
"""

from __future__ import annotations

from textual.notifications import Notification
from textual.widgets._toast import Toast

_made = Toast.__init__


def _never_negative(self: Toast, notification: Notification) -> None:
    _made(self, notification)
    self._timeout = max(0.0, self._timeout)


def guard_toasts() -> None:
    """Install the guard (once; again is harmless)."""
    Toast.__init__ = _never_negative  # type: ignore[method-assign]
