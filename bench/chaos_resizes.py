"""The chaos bench's browser visitors: pages of the web door that keep changing size.

Each visit opens the door's websocket as the page does (its own Origin), waits
for the client's first screen, then sends window sizes as a browser would, some
of them absurd (a million columns, zero, negative, not numbers): the door must
clamp them and the client must keep drawing. A visit ends on its own within a
hard time limit and returns its outcome: ``redrawn`` (screen bytes came after
the last resize), ``silent`` (none did), ``closed`` (the door ended the page),
``no screen`` (the client never drew) or ``lost`` (no door: a kill).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Sequence
from typing import Any

import aiohttp

VISIT_SECONDS = 40.0
"""No browser visit lives longer than this (a client starts in a few seconds)."""
FIRST_SCREEN_SECONDS = 25.0
"""How long a page waits for the client's first screen on a busy machine."""
SIZES: list[tuple[Any, Any]] = [
    (80, 24),
    (132, 43),
    (40, 12),
    (1_000_000, 1_000_000),
    (0, 0),
    (-80, -24),
    (2**63, 3),
    ("wide", None),
    (300, 200),
]
"""Window sizes a page may claim: ordinary, huge, empty, negative, nonsense."""


async def _screen_bytes(socket: aiohttp.ClientWebSocketResponse, seconds: float) -> int | None:
    """Screen bytes received within ``seconds`` (None: the door closed the page)."""
    received = 0
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = await asyncio.wait_for(socket.receive(), left)
        except TimeoutError:
            break
        if message.type == aiohttp.WSMsgType.BINARY:
            received += len(message.data)
        elif message.type in (
            aiohttp.WSMsgType.CLOSE,
            aiohttp.WSMsgType.CLOSING,
            aiohttp.WSMsgType.CLOSED,
            aiohttp.WSMsgType.ERROR,
        ):
            return None
    return received


async def _first_screen(socket: aiohttp.ClientWebSocketResponse) -> bool | None:
    """True once the client drew something; False if it never did; None if closed."""
    deadline = time.monotonic() + FIRST_SCREEN_SECONDS
    while time.monotonic() < deadline:
        got = await _screen_bytes(socket, 1.0)
        if got is None:
            return None
        if got:
            return True
    return False


async def resize_visit(
    web_port: int, rng: random.Random, sizes: Sequence[tuple[Any, Any]] | None = None
) -> tuple[str, int]:
    """One page that resizes a few times (to ``sizes``, or some of :data:`SIZES` in a
    random order), then to 100x30: (its outcome, resizes sent)."""
    origin = f"http://127.0.0.1:{web_port}"
    sent = 0
    try:
        async with asyncio.timeout(VISIT_SECONDS), aiohttp.ClientSession() as session:
            socket = await session.ws_connect(
                f"{origin}/ws?width=80&height=24", headers={"Origin": origin}
            )
            try:
                first = await _first_screen(socket)
                if first is None:
                    return "closed", sent
                if not first:
                    return "no screen", sent
                chosen = sizes or rng.sample(SIZES, rng.randint(3, len(SIZES)))
                for width, height in chosen:
                    await socket.send_str(
                        json.dumps(["resize", {"width": width, "height": height}])
                    )
                    sent += 1
                    await asyncio.sleep(rng.uniform(0.05, 0.4))
                await socket.send_str(json.dumps(["resize", {"width": 100, "height": 30}]))
                sent += 1
                after = await _screen_bytes(socket, 5.0)
            finally:
                await socket.close()
    except aiohttp.WSServerHandshakeError as refused:
        return f"refused:{refused.status}", sent
    except (aiohttp.ClientError, OSError, TimeoutError):
        return "lost", sent
    if after is None:
        return "closed", sent
    return ("redrawn" if after else "silent"), sent
