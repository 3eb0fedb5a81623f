"""A toast made a moment after its notification expired must not freeze the client.

Textual's timer loop never ends for a negative delay, and a toast's delay is
its notification's time left when the toast is made (see
``partyhost.tui.toasts``).
"""

from __future__ import annotations

import time

from partyhost.tui.toasts import SHORTEST_TOAST, guard_toasts
from textual.app import App, ComposeResult
from textual.notifications import Notification
from textual.widgets import Static
from textual.widgets._toast import Toast


def test_a_toast_of_an_expired_notification_still_waits_a_moment() -> None:
    guard_toasts()
    expired = Notification("That slot is taken.", timeout=0.001, raised_at=time.time() - 1)
    assert Toast(expired)._timeout == SHORTEST_TOAST


class Noted(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("table")


async def test_the_client_goes_on_after_such_a_toast() -> None:
    guard_toasts()
    app = Noted()
    async with app.run_test() as pilot:
        expired = Notification("That slot is taken.", timeout=0.001, raised_at=time.time() - 1)
        await app.screen.mount(Toast(expired))
        await pilot.pause(0.3)  # a frozen loop never comes back from here
        assert not app.screen.query(Toast)  # and the toast has gone
        await pilot.press("x")
