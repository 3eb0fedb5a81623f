"""The browser door is found in seconds: the host's console and every welcome name its URL.

``partyhost serve --web`` prints the door's URL and a QR code of it once the door is
open; a host without the door prints neither. Every client is told the URL in its
``welcome`` (nil without a door), so its lobby can show it to a newcomer's phone.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from nethelpers import LOOPBACK, running_host
from partyhost.net import protocol as p
from partyhost.net.hosting.serve import door_code
from partyhost.net.qrdrawing import QUIET_ZONE
from qrreading import decode_ascii, decode_blocks, segno_modules
from rawwire import RawClient
from servehelpers import serve
from webdoorhelpers import running_web_door, web_door_of

DOOR_LINE = re.compile(r"^Phones and browsers join at (http://127\.0\.0\.1:(\d+)/)$")


async def test_serve_web_prints_the_doors_url_and_its_qr_code(tmp_path: Path) -> None:
    async with serve(tmp_path / "data", "--web", "0") as host:
        found = await host.printed(DOOR_LINE)
        url, port = found.group(1), int(found.group(2))
        assert port not in (0, host.port)
        await host.printed("Type help for the host's commands")
        after = host.lines[host.lines.index(found.group(0)) + 1 :]
        expected = segno_modules(url, QUIET_ZONE)
        drawing = after[: (len(expected) + 1) // 2]
        assert decode_blocks(drawing, len(expected)) == expected
        seat = await host.seat("Ann", LOOPBACK)
        try:
            assert seat.conn.welcome["web_door"] == url
        finally:
            await seat.close()


async def test_serve_without_a_web_door_prints_no_url_or_code(tmp_path: Path) -> None:
    async with serve(tmp_path / "data") as host:
        await host.printed("Type help for the host's commands")
        assert not any("Phones and browsers" in line or "█" in line for line in host.lines)


async def test_the_welcome_names_the_door_or_nil(tmp_path: Path) -> None:
    async with running_web_door(tmp_path) as host:
        client = await RawClient.open(host.port)
        welcome = await client.greet("Ann")
        await client.close()
        assert welcome["web_door"] == f"http://{LOOPBACK}:{web_door_of(host).port}/"
        assert p.host_problems(welcome) == []
    async with running_host() as host:
        client = await RawClient.open(host.port)
        welcome = await client.greet("Bea")
        await client.close()
        assert "web_door" in welcome and welcome["web_door"] is None
        assert p.host_problems(welcome) == []


def test_the_console_draws_ascii_where_blocks_cannot_be_written() -> None:
    url = "http://192.168.1.23:8080/"
    expected = segno_modules(url, QUIET_ZONE)
    windows = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")
    first, *drawing = door_code(url, windows).splitlines()
    assert first == f"Phones and browsers join at {url}"
    assert decode_ascii(drawing) == expected
    windows.write(door_code(url, windows))  # no encoding error
    windows.flush()
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    first, *drawing = door_code(url, utf8).splitlines()
    assert first == f"Phones and browsers join at {url}"
    assert decode_blocks(drawing, len(expected)) == expected
