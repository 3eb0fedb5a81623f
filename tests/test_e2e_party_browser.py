"""The whole party: ``partyhost party tshirt`` starts a game with bots, and a friend who
arrives by the browser door (Debian's headless Chromium, a phone held sideways) takes a
bot's seat at the next round, with its hand and score, and everyone is told.

Each step's screenshot is kept in the test's folder (pytest prints it when a test fails).
"""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path
from typing import Any

import pytest
from cdpdriver import Page, chromium, chromium_path
from partyhost.tui.hostplays import HostingApp, StopPartyScreen
from termscreen import TermScreen
from test_party import _party, _until
from test_web_door_browser import (
    LOBBY_SECONDS,
    name_yourself,
    press_key,
    screens,
    terminal,
    wait_for_screen,
)
from textual.pilot import Pilot

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(chromium_path() is None, reason="needs Debian's chromium package"),
]
SIDEWAYS = (844, 390)
TAKEOVER_SECONDS = 120.0
WAIT_NOTICE = "seat at the next round"
"""The end of what the log tells a friend waiting for a bot's seat."""

__all__ = ["screens", "terminal"]  # the fixtures recording what the door sent to the page


def seats(app: HostingApp) -> list[dict[str, Any]]:
    return [s for s in (app.room or {}).get("seats", []) if isinstance(s, dict)]


async def play_along(pilot: Pilot[int], app: HostingApp, done: asyncio.Event) -> None:
    """The host plays its own seat: a slogan (or a verdict) and Enter; any key reads a result."""
    while not done.is_set():
        for key in ("1", "enter"):
            await pilot.press(key)
        await pilot.pause(0.5)


async def join_highlighted_room(page: Page, terminal: TermScreen) -> None:
    """Enter on the lobby's rooms table, until the page's log says whose seat comes next.

    Read from the rebuilt screen, not the bytes sent: a redraw may send a line in pieces.
    """
    for attempt in range(3):
        await press_key(page, "Enter", 13, "\r")
        try:
            async with asyncio.timeout(LOBBY_SECONDS / 3):
                while terminal.find(WAIT_NOTICE) is None:
                    await asyncio.sleep(0.1)
            return
        except TimeoutError:
            if attempt == 2:
                shown = terminal.text()
                raise AssertionError(f"no {WAIT_NOTICE!r} on the page:\n{shown}") from None


async def test_a_friend_at_the_browser_door_takes_over_a_bot_at_the_next_round(
    tmp_path: Path, screens: list[bytes], terminal: TermScreen
) -> None:
    out = io.StringIO()
    seen: dict[str, Any] = {}

    async def drive(pilot: Pilot[int], app: HostingApp) -> None:
        await _until(pilot, lambda: len(seats(app)) == 4, 20)
        await pilot.press("s")  # the host starts the game with three bots
        await _until(pilot, lambda: app.view is not None, 20)
        web = re.search(r"http://127\.0\.0\.1:\d+/", out.getvalue())
        assert web is not None
        done = asyncio.Event()
        playing = asyncio.create_task(play_along(pilot, app, done))
        try:
            async with chromium(tmp_path / "profile", *SIDEWAYS) as page:
                try:
                    await page.send("Page.navigate", url=web.group(0))
                    await name_yourself(page, screens, "Bea")
                    await page.screenshot(tmp_path / "1-lobby.png")
                    # The rooms table lists the host's room before Enter joins it; an Enter
                    # the page lost on a busy machine is pressed again (three times at most).
                    assert app.room_code
                    await wait_for_screen(screens, app.room_code.encode(), LOBBY_SECONDS)
                    # The round as Bea presses Enter (read after the page is told to wait,
                    # the host's screen may already show the round she is seated at).
                    seen["round_waited"] = app.view.get("round") if app.view else None
                    # The bots before it too: on a busy machine she may be seated by the time
                    # the page is seen to wait.
                    seen["bots_before"] = [s["name"] for s in seats(app) if s.get("bot")]
                    await join_highlighted_room(page, terminal)
                    await page.screenshot(tmp_path / "2-waiting.png")
                    await _until(
                        pilot,
                        lambda: any(s.get("name") == "Bea" for s in seats(app)),
                        TAKEOVER_SECONDS,
                    )
                    seen["round_taken"] = app.view.get("round") if app.view else None
                    seen["seats"] = seats(app)
                    seen["notices"] = [str(line.get("text")) for line in app.chat]
                    await wait_for_screen(screens, b"Your slogans", LOBBY_SECONDS)
                    await page.screenshot(tmp_path / "3-seated.png")
                except BaseException:
                    await page.screenshot(tmp_path / "failed.png")
                    raise
        finally:
            done.set()
            await playing
        await pilot.press("ctrl+q")  # asked first if Bea's page is not yet seen to be gone
        await _until(pilot, lambda: isinstance(app.screen, StopPartyScreen) or app._exit)
        if not app._exit:
            await pilot.press("y")
        await _until(pilot, lambda: app._exit)

    code, _ = await _party(tmp_path, drive, "tshirt", "--no-wait", "--no-ssh", out=out)
    assert code == 0
    # Bea sat down at a round after the one she arrived in, in a bot's place: still four
    # seats, one bot fewer, and the table was told whose seat she took.
    assert seen["round_taken"] > seen["round_waited"]
    names = [s["name"] for s in seen["seats"]]
    assert len(names) == 4 and "Bea" in names
    (bea,) = [s for s in seen["seats"] if s["name"] == "Bea"]
    assert not bea["bot"]
    taken = [bot for bot in seen["bots_before"] if bot not in names]
    assert len(taken) == 1
    assert any(f"Bea takes over {taken[0]}'s seat" in notice for notice in seen["notices"])
