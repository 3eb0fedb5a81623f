"""The lobby shows the host's browser door, and ``w`` shows it as a QR code a phone can scan.

Only a host whose welcome names a door gets the line, the key in the footer and the
help, and the dialog; the dialog's drawing reads back as segno's code of the URL and
fits 80x24 whole.
"""

from __future__ import annotations

from typing import Any

import pytest
from partyhost.tui.help import HelpScreen
from partyhost.tui.shared.lobbyscreen import ON_SCREEN_QUIET_ZONE, DoorCodeScreen, LobbyScreen
from qrreading import decode_ascii, decode_blocks, segno_modules
from textual.widgets import Static
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, screen_text, settle
from tuikit.samples import sample_welcome

URL = "http://192.168.1.23:8080/"
LONGEST = "http://192.168.100.200:65535/"
"""The longest URL an IPv4 address and a port make: still a code that fits 80x24."""
SIZE = (80, 24)


def host_with_door(url: object = URL) -> FakeHost:
    return FakeHost(welcome=sample_welcome() | {"web_door": url})


def footer_keys(app: Any) -> list[str]:
    return [key for key, active in app.screen.active_bindings.items() if active.binding.show]


def drawing_lines(app: Any) -> list[str]:
    drawing = app.screen.query_one("#door-code-drawing", Static)
    return str(drawing.render()).splitlines()


async def test_the_lobby_shows_the_door_and_w_opens_its_code() -> None:
    host = host_with_door()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        text = screen_text(app)
        assert f"Phones join at {URL}  (w: QR code)" in text
        assert "w" in footer_keys(app) and "QR code" in text.splitlines()[-1]
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, DoorCodeScreen)
        expected = segno_modules(URL, ON_SCREEN_QUIET_ZONE)
        assert decode_blocks(drawing_lines(app), len(expected)) == expected
        shown = screen_text(app)
        assert URL in shown and "Join from a phone" in shown
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert host.last.closed is False  # Escape closed the dialog, not the connection


@pytest.mark.parametrize("url", [URL, LONGEST])
async def test_the_code_fits_80x24_whole(url: str) -> None:
    app = app_for(host_with_door(url))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        expected = segno_modules(url, ON_SCREEN_QUIET_ZONE)
        lines = drawing_lines(app)
        shown = screen_text(app).splitlines()
        for line in lines:  # every line of the code is on screen, none cut
            assert any(line in row for row in shown), line
        assert decode_blocks(lines, len(expected)) == expected
        assert any(url in row for row in shown)


async def test_ascii_mode_draws_the_code_in_ascii() -> None:
    app = app_for(host_with_door(), ascii_only=True)
    async with app.run_test(size=(100, 50)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert decode_ascii(drawing_lines(app)) == segno_modules(URL, ON_SCREEN_QUIET_ZONE)
        assert screen_text(app).isascii()


@pytest.mark.parametrize("url", [None, "", 8080, "http://" + "x" * 300 + "/"])
async def test_no_door_no_line_no_key(url: Any) -> None:
    """No door, or one no client should draw (not text, or longer than any address)."""
    host = host_with_door(url)
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        text = screen_text(app)
        assert "Phones join" not in text and "QR code" not in text
        assert "w" not in footer_keys(app)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert not app.query(DoorCodeScreen)


@pytest.mark.parametrize("url", [URL, None])
async def test_the_help_names_w_only_with_a_door(url: str | None) -> None:
    app = app_for(host_with_door(url))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        keys = str(app.screen.query_one("#help-keys", Static).render())
        assert "Past games" in keys
        assert ("QR code" in keys) == (url is not None)


def test_the_dialog_looks_right(snap_compare: Any) -> None:
    app = app_for(host_with_door())

    async def open_code(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=open_code)


def test_the_lobby_with_a_door_looks_right(snap_compare: Any) -> None:
    app = app_for(host_with_door())

    async def arrive(pilot: Any) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=arrive)
