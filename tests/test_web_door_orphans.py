"""A browser visitor's client never outlives its page.

The door stops a client whose page closes, but a host that is killed stops
nothing: its clients' input ends and their output has no reader. The client's
driver (``partyhost.tui.webdriver``) then ends the client by itself, exit code 3:
here a real ``serve --web`` is SIGKILLed under a page whose websocket is then cut
without a goodbye, and each way the page can go (its input ends, its output
breaks) is tried on a real client of an open door.

The SSH door's clients need no such driver: their pty hangs up when the door's end
closes, even when the host is killed
(``test_door_isolation.py::test_neither_the_door_folder_nor_a_client_outlives_a_sigkill``,
``test_door_relay.py::test_a_window_change_reaches_the_client``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import importlib
import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from partyhost.net.door.webclients import (
    WEB_DRIVER,
    WebVisitorClient,
    web_client_command,
    web_client_environment,
)
from servehelpers import serve
from sshdoorhelpers import LOOPBACK, alive, descendants, door_processes
from textual.driver import Driver
from webdoorhelpers import (
    LOBBY,
    LOBBY_SECONDS,
    closed_within,
    open_page_socket,
    read_until,
    running_web_door,
    session_from,
    web_door_of,
)

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="finds and watches processes in /proc"
)

WEB_DOOR = r"http://127\.0\.0\.1:(\d+)/"
GONE_SECONDS = 20.0
"""How long a client whose page went away may take to end (its driver's last resort is
5 s; a busy machine adds to that)."""
PAGE_GONE_CODE = 3


def wait_until_gone(pid: int, seconds: float = GONE_SECONDS) -> bool:
    """Whether ``pid`` ends within ``seconds`` (a zombie counts as ended)."""
    deadline = time.monotonic() + seconds
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def packet(kind: bytes, payload: bytes) -> bytes:
    """One packet of textual-serve's pipe protocol: kind, big-endian length, payload."""
    return kind + len(payload).to_bytes(4, "big") + payload


class RawPage:
    """A page's websocket on a bare TCP connection, so that it can be cut without a word."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int) -> RawPage:
        reader, writer = await asyncio.open_connection(LOOPBACK, port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                "GET /ws?width=80&height=24 HTTP/1.1\r\n"
                f"Host: {LOOPBACK}:{port}\r\n"
                f"Origin: http://{LOOPBACK}:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        await writer.drain()
        answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), LOBBY_SECONDS)
        assert answer.startswith(b"HTTP/1.1 101"), answer
        return cls(reader, writer)

    async def frame(self) -> tuple[int, bytes]:
        """The door's next frame (never masked): its opcode and payload."""
        head = await self.reader.readexactly(2)
        size = head[1] & 0x7F
        if size == 126:
            size = int.from_bytes(await self.reader.readexactly(2), "big")
        elif size == 127:
            size = int.from_bytes(await self.reader.readexactly(8), "big")
        return head[0] & 0x0F, await self.reader.readexactly(size)

    async def read_until(self, marker: bytes) -> None:
        seen = b""
        async with asyncio.timeout(LOBBY_SECONDS):
            while marker not in seen:
                opcode, payload = await self.frame()
                if opcode == 0x2:  # the client's screen
                    seen += payload
                assert opcode != 0x8, "the door closed the page"

    def cut(self) -> None:
        """Gone without a closing frame or a FIN: a reset, as a phone that lost its network."""
        self.writer.transport.abort()


def test_the_door_names_a_driver_the_client_can_load() -> None:
    module, _, name = WEB_DRIVER.partition(":")
    driver = getattr(importlib.import_module(module), name)
    assert issubclass(driver, Driver)
    assert web_client_environment(Path("home"), 80, 24)["TEXTUAL_DRIVER"] == WEB_DRIVER


async def test_a_client_whose_host_is_killed_ends_when_its_page_is_cut(tmp_path: Path) -> None:
    async with serve(tmp_path / "data", "--web", "0") as host:
        found = await host.printed(WEB_DOOR)
        page = await RawPage.open(int(found.group(1)))
        await page.read_until(LOBBY)
        (client,) = door_processes(host.port)
        assert client in descendants(host.process.pid)
        try:
            host.process.kill()
            await host.process.wait()
            page.cut()
            assert await asyncio.to_thread(wait_until_gone, client), (
                "the client outlived its host and its page"
            )
        finally:
            if alive(client):
                os.kill(client, signal.SIGKILL)


async def test_a_client_whose_input_ends_exits_with_3_by_itself(tmp_path: Path) -> None:
    async with running_web_door(tmp_path) as host, session_from() as session:
        socket = await open_page_socket(session, host)
        await read_until(socket, LOBBY)
        (client,) = web_door_of(host).clients
        client.stdin.close()  # as a host gone would: no quit asked, no kill
        await asyncio.wait_for(client.ended(), GONE_SECONDS)
        assert client.returncode == PAGE_GONE_CODE
        assert await closed_within(socket, 10)


async def test_a_client_whose_output_breaks_exits_with_3_by_itself(tmp_path: Path) -> None:
    async with running_web_door(tmp_path) as host:
        folder = tmp_path / "visitor"
        folder.mkdir()
        screen, screen_end = os.pipe()
        try:
            process = await asyncio.create_subprocess_exec(
                *web_client_command(f"{LOOPBACK}:{host.port}"),
                stdin=asyncio.subprocess.PIPE,
                stdout=screen_end,
                stderr=asyncio.subprocess.DEVNULL,
                env=web_client_environment(folder, 80, 24),
                cwd=folder,
            )
        finally:
            os.close(screen_end)
        try:
            seen = b""
            async with asyncio.timeout(LOBBY_SECONDS):
                while LOBBY not in seen:
                    read = await asyncio.to_thread(os.read, screen, 65536)
                    assert read, "the client ended before its lobby"
                    seen += read
            os.close(screen)
            screen = -1
            assert process.stdin is not None
            resize = json.dumps({"type": "resize", "width": 100, "height": 30}).encode()
            process.stdin.write(packet(b"M", resize))  # a new size: the client draws again
            await process.stdin.drain()
            await asyncio.wait_for(process.wait(), GONE_SECONDS)
            assert process.returncode == PAGE_GONE_CODE
        finally:
            if screen >= 0:
                os.close(screen)
            if process.returncode is None:
                process.kill()
            with contextlib.suppress(ProcessLookupError):
                await process.wait()


async def test_a_client_asked_to_stop_while_it_starts_is_ended_once_started(
    tmp_path: Path,
) -> None:
    """The door closing just as a page's client starts: the stop waits for the start and
    ends that client, which otherwise ran on past the host's event loop."""
    async with running_web_door(tmp_path) as host:
        folder = tmp_path / "visitor"
        folder.mkdir()

        async def page_gets(_: object) -> None:
            pass

        async def page_closes() -> None:
            pass

        client = WebVisitorClient(
            f"{LOOPBACK}:{host.port}",
            folder,
            write_bytes=page_gets,
            write_str=page_gets,
            close=page_closes,
        )
        starting = asyncio.ensure_future(client.start(80, 24))
        try:
            await asyncio.sleep(0)
            assert client.pid is None, "the start is under way, its process not there yet"
            await asyncio.wait_for(client.stop(), GONE_SECONDS)
            await asyncio.wait_for(starting, GONE_SECONDS)
            assert client.returncode is not None, "the client outlived its stop"
        finally:
            if client.pid is not None and client.returncode is None:
                os.kill(client.pid, signal.SIGKILL)
            starting.cancel()
            await asyncio.gather(starting, return_exceptions=True)


STUBBORN = (
    "from textual.app import App\n"
    "class Stubborn(App):\n"
    "    def exit(self, *args, **kwargs):\n"
    "        pass  # asked to end, it does not\n"
    "Stubborn().run()\n"
)
"""A Textual app that never ends when asked to."""


async def test_an_app_that_does_not_end_when_its_page_is_gone_is_ended_anyway(
    tmp_path: Path,
) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-I",
        "-c",
        STUBBORN,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
        env=web_client_environment(tmp_path, 80, 24),  # the door's driver
        cwd=tmp_path,
    )
    try:
        assert process.stdin is not None
        process.stdin.close()  # its input ends at once
        await asyncio.wait_for(process.wait(), GONE_SECONDS)
        assert process.returncode == PAGE_GONE_CODE
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
