"""Helpers for the browser door's tests: a host with the door open, page websockets from
chosen loopback source addresses, and reading a client's screen stream."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
from nethelpers import LOOPBACK
from partyhost.net.door.webdoor import WebDoor
from partyhost.net.hosting.host import Host
from sshdoorhelpers import running_door

LOBBY = b"lobby"
"""A word of the lobby's screen, as the client's web driver sends it."""
LOBBY_SECONDS = 30.0


@contextlib.asynccontextmanager
async def running_web_door(tmp_path: Path, **overrides: Any) -> AsyncIterator[Host]:
    """A host on loopback with its browser door on a free port."""
    settings: dict[str, Any] = {"host_name": "web host", "ssh_port": None, "web_port": 0}
    async with running_door(tmp_path, **{**settings, **overrides}) as host:
        yield host


def web_door_of(host: Host) -> WebDoor:
    assert host.lan is not None and host.lan.web_door is not None
    return host.lan.web_door


def page_url(host: Host, path: str = "/") -> str:
    return f"http://{LOOPBACK}:{web_door_of(host).port}{path}"


@contextlib.asynccontextmanager
async def session_from(source: str = LOOPBACK) -> AsyncIterator[aiohttp.ClientSession]:
    """An HTTP client whose connections come from ``source`` (127.0.0.2, .3, ...)."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0), force_close=True)
    async with aiohttp.ClientSession(connector=connector) as session:
        yield session


async def open_page_socket(
    session: aiohttp.ClientSession, host: Host, origin: str | None = "same"
) -> aiohttp.ClientWebSocketResponse:
    """The page's websocket, as a browser opens it: ``origin`` "same" is the door's own."""
    url = page_url(host, "/ws?width=80&height=24")
    headers = {}
    if origin == "same":
        headers["Origin"] = page_url(host, "").rstrip("/")
    elif origin is not None:
        headers["Origin"] = origin
    return await session.ws_connect(url, headers=headers, autoping=True)


async def read_until(
    socket: aiohttp.ClientWebSocketResponse, marker: bytes, seconds: float = LOBBY_SECONDS
) -> bytes:
    """The client's screen stream until ``marker`` is in it (AssertionError if it never is)."""
    seen = b""
    deadline = time.monotonic() + seconds
    while marker not in seen:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {marker!r} in {len(seen)} bytes of screen")
        try:
            message = await asyncio.wait_for(socket.receive(), left)
        except TimeoutError:
            continue
        if message.type == aiohttp.WSMsgType.BINARY:
            seen += message.data
        elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            raise AssertionError(f"the door closed the page before {marker!r}")
    return seen


async def closed_within(socket: aiohttp.ClientWebSocketResponse, seconds: float) -> bool:
    """Whether the door closes this websocket within ``seconds``."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            while True:
                message = await socket.receive()
                if message.type in (
                    aiohttp.WSMsgType.CLOSE,
                    aiohttp.WSMsgType.CLOSED,
                    aiohttp.WSMsgType.CLOSING,
                ):
                    return True
    return socket.closed
