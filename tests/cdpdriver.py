"""A headless Chromium driven over the DevTools protocol, with aiohttp's websocket client.

Debian's ``chromium`` package is the browser (no browser download: the suite runs
offline); the protocol is plain JSON over a websocket, so no driver package is needed.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import re
import shutil
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp

START_SECONDS = 30.0
LISTENING = re.compile(rb"DevTools listening on (ws://\S+)")
Listener = Callable[[str, dict[str, Any]], None]
"""Called with each event's method and params (``Network.webSocketFrameReceived``, ...)."""


def chromium_path() -> str | None:
    """Debian's Chromium, if installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Page:
    """One browser tab: commands sent, their answers awaited."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self._numbers = itertools.count(1)
        self._answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.listeners: list[Listener] = []
        """Told every event the page sends (after its domain is enabled)."""
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for message in self.socket:
            if message.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(message.data)
            if "method" in data:
                for listener in self.listeners:
                    listener(data["method"], data.get("params", {}))
                continue
            waiting = self._answers.pop(data.get("id", -1), None)
            if waiting is not None and not waiting.done():
                waiting.set_result(data)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self._numbers)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[number] = answer
        await self.socket.send_str(json.dumps({"id": number, "method": method, "params": params}))
        data = await asyncio.wait_for(answer, 30)
        if "error" in data:
            raise AssertionError(f"{method}: {data['error']}")
        result: dict[str, Any] = data.get("result", {})
        return result

    async def evaluate(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    async def wait_for(self, expression: str, seconds: float) -> None:
        """Until the page's ``expression`` is true (AssertionError after ``seconds``)."""
        async with asyncio.timeout(seconds):
            while not await self.evaluate(expression):
                await asyncio.sleep(0.1)

    async def screenshot(self, path: Path) -> None:
        shot = await self.send("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))

    async def phone(self, width: int, height: int) -> None:
        """A phone's screen: its size, a high-density display, touch."""
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=True,
        )
        await self.send("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)

    async def press(self, key: str) -> None:
        """A key typed on a keyboard (one printable character)."""
        for kind in ("keyDown", "keyUp"):
            extra = {"text": key} if kind == "keyDown" else {}
            await self.send("Input.dispatchKeyEvent", type=kind, key=key, **extra)

    async def tap(self, x: float, y: float) -> None:
        """A finger's tap at CSS pixel (x, y)."""
        point = [{"x": x, "y": y}]
        await self.send("Input.dispatchTouchEvent", type="touchStart", touchPoints=point)
        await self.send("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])


@contextlib.asynccontextmanager
async def devtools_port(profile: Path, width: int, height: int, *flags: str) -> AsyncIterator[int]:
    """A headless Chromium's DevTools port, the browser killed afterwards."""
    executable = chromium_path()
    assert executable is not None, "chromium is not installed"
    process = await asyncio.create_subprocess_exec(
        executable,
        "--headless",
        "--no-sandbox" if sys.platform.startswith("linux") else "--no-first-run",
        "--no-first-run",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--remote-debugging-port=0",
        f"--user-data-dir={profile}",
        f"--window-size={width},{height}",
        *flags,
        "about:blank",
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stderr is not None
        async with asyncio.timeout(START_SECONDS):
            while not (found := LISTENING.search(await process.stderr.readline())):
                pass
        yield int(found.group(1).decode().split(":")[2].split("/")[0])
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()


@contextlib.asynccontextmanager
async def chromium(profile: Path, width: int, height: int) -> AsyncIterator[Page]:
    """A headless Chromium with one blank tab of ``width`` x ``height``."""
    async with (
        devtools_port(profile, width, height) as port,
        aiohttp.ClientSession() as session,
    ):
        async with session.get(f"http://127.0.0.1:{port}/json/list") as response:
            targets = await response.json()
        page_url = next(t["webSocketDebuggerUrl"] for t in targets if t["type"] == "page")
        async with session.ws_connect(page_url, max_msg_size=0) as socket:
            page = Page(socket)
            await page.send("Page.enable")
            await page.phone(width, height)
            yield page


class Browser:
    """One headless Chromium whose pages are opened on demand (:meth:`new_page`), each in a
    window of its own: a tab behind another is not drawn, and a tap on it is never answered."""

    def __init__(self, port: int, session: aiohttp.ClientSession, width: int, height: int) -> None:
        self.port = port
        self.session = session
        self.width, self.height = width, height
        self._control: Page | None = None
        self._pages: list[tuple[str, aiohttp.ClientWebSocketResponse]] = []

    async def _browser(self) -> Page:
        """The browser's own DevTools endpoint, for opening and closing windows."""
        if self._control is None:
            async with self.session.get(f"http://127.0.0.1:{self.port}/json/version") as answer:
                url = (await answer.json())["webSocketDebuggerUrl"]
            self._control = Page(await self.session.ws_connect(url, max_msg_size=0))
        return self._control

    async def new_page(self) -> Page:
        """A new blank window, phone-sized, its Page domain enabled: another visitor (its own
        cookies, so the door asks its name and keeps a folder for it)."""
        control = await self._browser()
        # A browser context of its own: its own cookies, as another phone would have.
        context = await control.send("Target.createBrowserContext")
        made = await control.send(
            "Target.createTarget",
            url="about:blank",
            newWindow=True,
            browserContextId=context["browserContextId"],
        )
        target = made["targetId"]
        socket = await self.session.ws_connect(
            f"ws://127.0.0.1:{self.port}/devtools/page/{target}", max_msg_size=0
        )
        self._pages.append((target, socket))
        page = Page(socket)
        await page.send("Page.enable")
        await page.phone(self.width, self.height)
        return page

    async def close_pages(self) -> None:
        """Close every window :meth:`new_page` opened (their pages' websockets end with them)."""
        control = await self._browser()
        for target, socket in self._pages:
            with contextlib.suppress(Exception):
                await socket.close()
            with contextlib.suppress(AssertionError, TimeoutError):
                await control.send("Target.closeTarget", targetId=target)
        self._pages.clear()


BACKGROUND_FLAGS = (
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
)
"""Every tab runs at full speed, as each phone's one page would (not slowed as a hidden tab)."""


@contextlib.asynccontextmanager
async def chromium_tabs(profile: Path, width: int, height: int) -> AsyncIterator[Browser]:
    """A headless Chromium for many tabs of ``width`` x ``height``, none throttled."""
    async with (
        devtools_port(profile, width, height, *BACKGROUND_FLAGS) as port,
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=START_SECONDS)) as session,
    ):
        yield Browser(port, session, width, height)
