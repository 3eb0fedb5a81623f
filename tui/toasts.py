"""Toasts that neither freeze the client nor pile up.

On a busy machine a notification can expire between the rack's check and its toast's
making; the toast's timer then gets a negative (or zero) delay, on which Textual's timer
loop spins forever at 100% CPU. A toast here waits at least :data:`SHORTEST_TOAST`.
"""

from __future__ import annotations

import time

from textual.app import App
from textual.notifications import Notification, SeverityLevel
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


class OneToastEach(App[int]):
    """An app that shows a toast once while the same one is still on screen.

    A player who presses Enter again and again on a refused move would otherwise stack one
    toast per press until they cover the board and the hand.
    """

    def __init__(self) -> None:
        super().__init__()
        self._toasts_until: dict[tuple[str, str, str], float] = {}

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        now = time.monotonic()
        key = (message, title, severity)
        if self._toasts_until.get(key, 0.0) > now:
            return
        shown_for = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        self._toasts_until = {k: t for k, t in self._toasts_until.items() if t > now}
        self._toasts_until[key] = now + shown_for
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def clear_notifications(self) -> None:
        self._toasts_until.clear()
        super().clear_notifications()
