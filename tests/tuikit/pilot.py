"""Driving the client in tests: one way to make Ann's app, let it settle, and read the screen."""

from __future__ import annotations

import io
from typing import Any

import pytest
from partyhost.tui.app import PartyApp
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import RichLog

from tuikit.fakehost import FakeHost

SETTLE_PAUSES = 5
"""Pauses that let the network worker deliver what the fake host queued and screens redraw."""
LOG_PAUSES = 200
"""At most this many more pauses for the logs to reach their last line (a busy machine)."""


def app_for(
    host: FakeHost,
    *,
    address: str | None = "partybox:7777",
    room: str | None = None,
    ascii_only: bool = False,
    animate: bool = False,
    solo: bool = False,
) -> PartyApp:
    """Ann's client on the fake host (``address`` None: it starts on the connect screen)."""
    return PartyApp(
        host,
        address=address,
        name="Ann",
        room=room,
        ascii_only=ascii_only,
        animate=animate,
        remember=False,
        solo=solo,
    )


def catch_join(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What each ``partyhost join`` would open its client with, the client left unopened."""
    opened: list[dict[str, Any]] = []

    class Client:
        def __init__(self, **options: Any) -> None:
            opened.append(options)

        def run(self) -> int:
            return 0

    monkeypatch.setattr("partyhost.tui.app.PartyApp", Client)
    return opened


async def settle(pilot: Pilot[int]) -> None:
    """Let queued frames arrive and every screen redraw before looking."""
    for _ in range(SETTLE_PAUSES):
        await pilot.pause()


async def settle_logs(pilot: Pilot[int]) -> None:
    """Settle, then wait (boundedly) until every log shows its newest line.

    A log written before its size is known scrolls to its end only after the
    next layout; on a busy machine that can come after the settling pauses,
    and a snapshot taken then shows older lines. The logs of every screen are
    waited for: a dialog's snapshot shows the game screen's log beneath it. The
    screens beneath a dialog are drawn once more first: Textual may keep their
    picture from before the last layout (a log's empty scrollbar gutter in an
    older shade), and whether it does depends on the machine's pace.
    """
    for screen in pilot.app.screen_stack[:-1]:
        screen.refresh(layout=True)
    await settle(pilot)
    for _ in range(LOG_PAUSES):
        screens = pilot.app.screen_stack
        logs = [log for screen in screens for log in screen.query(RichLog).results(RichLog)]
        if all(at_its_end(log) for log in logs if log.region.height > 0):
            return
        await pilot.pause(0.01)


def at_its_end(log: RichLog) -> bool:
    """The last line shows: lines that overflow have a scroll range, and it is scrolled."""
    fits = len(log.lines) <= log.scrollable_content_region.height
    return (fits or log.max_scroll_y > 0) and log.scroll_y >= log.max_scroll_y


def screen_text(app: Any) -> str:
    """The running app's screen as plain text, for assertions on what a person sees."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        color_system=None,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(
        app.screen._compositor.render_update(
            full=True, screen_stack=app._background_screens, simplify=True
        )
    )
    return "\n".join(console.export_text().splitlines()[:height])


def legal_kind(app: PartyApp) -> str | None:
    """What the host asks of the app's seat now: ``submit``, ``pick``, ``roll``, ``bet1``..."""
    first = ((app.view or {}).get("legal") or [{}])[0]
    return f"bet{first['stage']}" if first.get("type") == "bet" else first.get("type")
