"""A toast made a moment after its notification expired must not freeze the client.

Textual's timer loop never ends for a negative delay, and a toast's delay is
its notification's time left when the toast is made (see
``partyhost.tui.toasts``).
"""

from __future__ import annotations

import time

from partyhost.tui.toasts import SHORTEST_TOAST, OneToastEach, guard_toasts
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


class Once(OneToastEach):
    def compose(self) -> ComposeResult:
        yield Static("table")


async def test_the_same_toast_comes_back_once_the_first_has_gone() -> None:
    app = Once()
    async with app.run_test() as pilot:
        app.notify("That slot is taken.", timeout=0.2)
        app.notify("That slot is taken.", timeout=0.2)
        app.notify("Choose a card first.", timeout=0.2)
        await pilot.pause()
        assert [note.message for note in app._notifications] == [
            "That slot is taken.",
            "Choose a card first.",
        ]
        await pilot.pause(0.4)
        app.notify("That slot is taken.", timeout=0.2)
        await pilot.pause()
        assert [note.message for note in app._notifications] == ["That slot is taken."]
        app.clear_notifications()
        app.notify("That slot is taken.", timeout=0.2)
        await pilot.pause()
        assert len(app._notifications) == 1
