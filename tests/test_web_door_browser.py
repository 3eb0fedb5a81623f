"""A real browser at the door: Debian's headless Chromium, phone-sized and with touch,
loads the door's page and reaches the lobby over loopback; the keyboard works.

Each step's screenshot is kept in the test's folder (pytest prints it when a test fails).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from cdpdriver import chromium, chromium_path
from nethelpers import LOOPBACK
from partyhost.net.door.webclients import WebVisitorClient
from webdoorhelpers import page_url, running_web_door, web_door_of

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(chromium_path() is None, reason="needs Debian's chromium package"),
]
PHONE = (390, 844)
LOBBY_SECONDS = 30.0
FIRST_BYTE = "document.body.classList.contains('-first-byte')"


@pytest.fixture
def screens(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """What the door sent to the pages, in order."""
    sent: list[bytes] = []
    original = WebVisitorClient.on_data

    async def record(self: WebVisitorClient, payload: bytes) -> None:
        sent.append(payload)
        await original(self, payload)

    monkeypatch.setattr(WebVisitorClient, "on_data", record)
    return sent


@pytest.fixture
def sizes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The terminal sizes (columns, rows) the pages asked their clients for."""
    asked: list[tuple[int, int]] = []
    original = WebVisitorClient.set_terminal_size

    async def record(self: WebVisitorClient, width: int, height: int) -> None:
        asked.append((width, height))
        await original(self, width, height)

    monkeypatch.setattr(WebVisitorClient, "set_terminal_size", record)
    return asked


async def wait_for_screen(screens: list[bytes], text: bytes, seconds: float) -> None:
    async with asyncio.timeout(seconds):
        while text not in b"".join(screens):
            await asyncio.sleep(0.1)


async def test_a_phone_reaches_the_lobby_and_types(
    tmp_path: Path, screens: list[bytes], sizes: list[tuple[int, int]]
) -> None:
    async with running_web_door(tmp_path) as host, chromium(tmp_path / "profile", *PHONE) as page:
        started = time.monotonic()
        await page.send("Page.navigate", url=page_url(host))
        try:
            await page.wait_for(FIRST_BYTE, LOBBY_SECONDS)
            await wait_for_screen(screens, b"lobby", LOBBY_SECONDS)
            seconds = time.monotonic() - started
            await page.screenshot(tmp_path / "1-lobby.png")
            # The host's side: the visitor's client is in, connected from the door's address.
            (client,) = web_door_of(host).clients
            assert host.address_limits.connections(LOOPBACK) >= 1
            columns, rows = sizes[-1]  # the page fitted its terminal to the phone's screen
            assert 20 <= columns < 60 and rows >= 30, sizes
            # The keyboard: c opens the create-room dialog.
            screens.clear()
            await page.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
            await page.press("c")
            await wait_for_screen(screens, b"Create a room", 10)
            await page.screenshot(tmp_path / "2-create.png")
        except BaseException:
            await page.screenshot(tmp_path / "failed.png")
            raise
        assert client.pid is not None
        print(f"lobby in {seconds:.1f} s at {PHONE[0]}x{PHONE[1]} px: {columns}x{rows} cells")


async def test_a_tap_on_the_footers_create_opens_the_dialog(
    tmp_path: Path, screens: list[bytes]
) -> None:
    """A phone held sideways (844x390, touch): the footer's "c Create" is in its last row.

    The footer is drawn empty until the client's first input event (a key, a tap, a
    mouse move); the first tap here, on the empty table, is that event.
    """
    width, height = 844, 390
    async with (
        running_web_door(tmp_path) as host,
        chromium(tmp_path / "profile", width, height) as page,
    ):
        await page.send("Page.navigate", url=page_url(host))
        try:
            await page.wait_for(FIRST_BYTE, LOBBY_SECONDS)
            await wait_for_screen(screens, b"lobby", LOBBY_SECONDS)
            await page.tap(width / 2, height / 2)
            await wait_for_screen(screens, b"Create", 10)
            await page.screenshot(tmp_path / "1-footer.png")
            screens.clear()
            footer_row = await page.evaluate(
                "(() => { const r = document.querySelector('.xterm-screen')"
                ".getBoundingClientRect(); return r.bottom; })()"
            )
            await page.tap(40, footer_row - 10)  # "c Create", the footer's first key
            await wait_for_screen(screens, b"Create a room", 10)
            await page.screenshot(tmp_path / "2-create.png")
        except BaseException:
            await page.screenshot(tmp_path / "failed.png")
            raise
