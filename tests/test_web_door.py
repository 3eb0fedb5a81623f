"""The browser door holds: its page loads nothing from outside the LAN, its websocket opens
only to its own page (Origin), sessions are capped per address and in total, an idle
session is closed, and each visitor's client runs isolated and locked to this host."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
import time
from pathlib import Path

import aiohttp
import pytest
from partyhost.cli import build_parser
from partyhost.net.address import join_instructions
from partyhost.net.addresslimits import AddressLimits
from partyhost.net.config import HostConfig
from partyhost.net.door.visitorenv import INPUT_BURST, INPUT_BYTES_PER_SECOND
from partyhost.net.door.webclients import web_client_command, web_client_environment
from partyhost.net.door.webdoor import origin_matches
from partyhost.playcommands import serve_config
from webdoorhelpers import (
    LOBBY,
    closed_within,
    open_page_socket,
    page_url,
    read_until,
    running_web_door,
    session_from,
    web_door_of,
)


def test_origin_must_name_the_doors_own_host_and_port() -> None:
    assert origin_matches("http://192.168.1.5:8080", "192.168.1.5:8080")
    assert origin_matches("http://Party.local:8080", "party.local:8080")
    assert not origin_matches(None, "192.168.1.5:8080")
    assert not origin_matches("null", "192.168.1.5:8080")
    assert not origin_matches("http://evil.example", "192.168.1.5:8080")
    assert not origin_matches("http://192.168.1.5:9999", "192.168.1.5:8080")
    assert not origin_matches("file://192.168.1.5:8080", "192.168.1.5:8080")
    assert not origin_matches("http://192.168.1.5:8080", None)


def test_each_open_door_gives_its_sessions_room_at_the_doors_address() -> None:
    """Every door visitor's client connects to the game port from the doors' own address."""

    def limit(**doors: int) -> int:
        config = HostConfig(max_connections_per_address=16, ssh_max_sessions=5, **doors)
        return AddressLimits(config).connection_limit("127.0.0.1")

    assert limit() == 16
    assert limit(web_port=0) == limit(ssh_port=0) == 21
    assert limit(web_port=0, ssh_port=0) == 26


def test_serve_web_opens_the_door_on_8080_and_prints_its_address() -> None:
    args = build_parser().parse_args(["serve", "--web", "--web-idle-minutes", "5"])
    config = serve_config(args)
    assert (config.web_port, config.web_idle_timeout) == (8080, 300.0)
    assert serve_config(build_parser().parse_args(["serve"])).web_port is None
    printed = join_instructions("party", "0.0.0.0", 7777, addresses=["192.168.1.5"], web_port=8080)
    assert "  http://192.168.1.5:8080/  (in a browser: phones too)" in printed.splitlines()


def test_the_client_is_isolated_locked_and_keeps_nothing(tmp_path: Path) -> None:
    command = web_client_command("127.0.0.1:7777")
    assert command[:3] == [sys.executable, "-I", "-c"]
    assert command[4:] == [
        "join",
        "127.0.0.1:7777",
        "--no-discovery",
        "--no-remember",
        "--locked",
    ]
    env = web_client_environment(tmp_path, 80, 24)
    assert env["HOME"] == str(tmp_path)
    assert env["TEXTUAL_DRIVER"] == "partyhost.tui.webdriver:VisitorWebDriver"
    assert all(str(tmp_path) in env[name] for name in ("PARTYHOST_DATA_DIR", "XDG_CONFIG_HOME"))


async def test_the_page_fetches_nothing_from_outside(tmp_path: Path) -> None:
    async with running_web_door(tmp_path) as host, session_from() as session:
        async with session.get(page_url(host)) as response:
            assert response.status == 200
            page = await response.text()
            policy = response.headers["Content-Security-Policy"]
            assert "default-src 'self'" in policy
            assert f"connect-src 'self' ws://{page_url(host, '')[len('http://') :]}/ws" in policy
        async with session.get(page_url(host), headers={"Host": "x; script-src *"}) as response:
            assert response.status == 400
        outside = re.findall(r"\w+://[^\"' )]+", page)
        assert outside == [f"ws://{page_url(host, '')[len('http://') :]}/ws"]
        local = re.findall(r"(?:href|src|url)\(?=?\"(/static/[^\"]+)\"", page)
        assert len(local) >= 4, local  # stylesheet, script, two fonts
        for path in local:
            async with session.get(page_url(host, path)) as response:
                assert response.status == 200, path


async def test_a_page_from_another_site_is_refused(tmp_path: Path) -> None:
    async with running_web_door(tmp_path) as host, session_from() as session:
        for origin in (None, "http://evil.example", "http://127.0.0.1:1"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await open_page_socket(session, host, origin)
            assert refused.value.status == 403
        assert not web_door_of(host).clients
        socket = await open_page_socket(session, host)
        await read_until(socket, LOBBY)
        await socket.close()


async def test_sessions_are_capped_per_address_and_in_total(tmp_path: Path) -> None:
    limits = {"ssh_max_sessions": 2, "ssh_max_per_address": 1}
    async with (
        running_web_door(tmp_path, **limits) as host,
        session_from("127.0.0.2") as first,
        session_from("127.0.0.3") as second,
        session_from("127.0.0.4") as third,
    ):
        held = await open_page_socket(first, host)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await open_page_socket(first, host)
        assert refused.value.status == 503
        other = await open_page_socket(second, host)
        with pytest.raises(aiohttp.WSServerHandshakeError) as full:
            await open_page_socket(third, host)
        assert full.value.status == 503
        await read_until(other, LOBBY)
        await other.close()
        # A place freed is a place taken again.
        for _ in range(50):
            if web_door_of(host).counter.total < 2:
                break
            await _pause()
        again = await open_page_socket(third, host)
        await read_until(again, LOBBY)
        await again.close()
        await held.close()


async def test_an_idle_session_is_closed_and_frees_its_place(tmp_path: Path) -> None:
    limits = {"ssh_max_sessions": 1, "web_idle_timeout": 2.0}
    async with running_web_door(tmp_path, **limits) as host, session_from() as session:
        socket = await open_page_socket(session, host)
        assert await closed_within(socket, 20)
        door = web_door_of(host)
        for _ in range(100):
            if door.counter.total == 0 and not door.clients:
                break
            await _pause()
        assert door.counter.total == 0 and not door.clients
        again = await open_page_socket(session, host)
        await read_until(again, LOBBY)
        await again.close()


async def test_a_client_that_dies_ends_its_page_and_frees_its_place(tmp_path: Path) -> None:
    async with running_web_door(tmp_path) as host, session_from() as session:
        socket = await open_page_socket(session, host)
        await read_until(socket, LOBBY)
        door = web_door_of(host)
        (client,) = door.clients
        assert client.pid is not None
        os.kill(client.pid, signal.SIGKILL)
        assert await closed_within(socket, 10)
        for _ in range(50):
            if door.counter.total == 0 and not door.clients:
                break
            await _pause()
        assert door.counter.total == 0 and not door.clients


async def test_a_page_cut_while_its_screen_backs_up_frees_its_place_and_ends_its_client(
    tmp_path: Path,
) -> None:
    """A page that sends sizes and reads no screen, then is cut: the door's reader of the
    client's screen dies with it, yet the client still ends and the place is freed (the
    client, blocked writing a screen nobody read, used to hold it for good)."""
    async with running_web_door(tmp_path) as host:
        door = web_door_of(host)
        async with session_from() as session:
            socket = await open_page_socket(session, host)
            await read_until(socket, LOBBY)
            (client,) = door.clients
            pid = client.pid
            for number in range(300):
                size = {"width": 500 - number % 2, "height": 200}
                await socket.send_str(json.dumps(["resize", size]))
                await asyncio.sleep(0.02)
        # The session ended without a close frame: the connection is cut.
        for _ in range(300):
            if door.counter.total == 0 and not door.clients:
                break
            await _pause()
        assert door.counter.total == 0 and not door.clients
        assert pid is not None
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_closing_the_host_ends_every_page_and_client(tmp_path: Path) -> None:
    async with session_from() as session:
        async with running_web_door(tmp_path) as host:
            sockets = [await open_page_socket(session, host) for _ in range(2)]
            for socket in sockets:
                await read_until(socket, LOBBY)
            door = web_door_of(host)
            pids = [client.pid for client in door.clients]
            root = door.folders.root
            assert len(pids) == 2 and root is not None
        for socket in sockets:
            assert await closed_within(socket, 5)
        for pid in pids:
            assert pid is not None
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
        assert not root.exists()


async def test_a_flood_of_input_is_read_no_faster_than_the_meter(tmp_path: Path) -> None:
    async with running_web_door(tmp_path) as host, session_from() as session:
        socket = await open_page_socket(session, host)
        await read_until(socket, LOBBY)
        started = time.monotonic()
        key = json.dumps(["stdin", "x" * 1000])  # far past any real typing
        for _ in range(INPUT_BURST // 1000 + 5):
            await socket.send_str(key)
        await socket.send_str(json.dumps(["ping", "after the flood"]))
        while (message := await socket.receive(timeout=30)).type != aiohttp.WSMsgType.TEXT:
            pass
        assert json.loads(message.data) == ["pong", "after the flood"]
        assert time.monotonic() - started >= 5000 / INPUT_BYTES_PER_SECOND - 0.5
        await socket.close()


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc")
async def test_the_visitors_client_sees_nothing_of_the_hosts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARTYHOST_SECRET_OF_THE_HOST", "hunter2")
    monkeypatch.chdir(tmp_path)
    async with running_web_door(tmp_path) as host, session_from() as session:
        socket = await open_page_socket(session, host)
        await read_until(socket, LOBBY)
        (client,) = web_door_of(host).clients
        assert client.pid is not None
        environ = Path(f"/proc/{client.pid}/environ").read_bytes()
        assert b"hunter2" not in environ
        folder = Path(os.readlink(f"/proc/{client.pid}/cwd"))
        assert folder == client.folder and folder != tmp_path
        assert (tmp_path / "data") in folder.parents
        arguments = Path(f"/proc/{client.pid}/cmdline").read_bytes().split(b"\0")
        assert b"-I" in arguments and b"--locked" in arguments
        await socket.close()
        assert await closed_within(socket, 10)
    assert not folder.exists()


async def _pause() -> None:
    await asyncio.sleep(0.1)
