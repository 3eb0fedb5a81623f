"""Browser door benchmark: phone-sized tabs of one headless Chromium against `serve --web`.

For each session count (10 and 30 unless told), on a fresh ``partyhost serve --web`` on
loopback (its data in a temporary folder): one warm-up page (not counted); then the
baseline, a lone page with nothing else open, timed to its lobby and through ROUNDS
rounds of taps; then SESSIONS pages (each a window of one headless Chromium, 844x390 CSS
pixels with touch, as a phone held sideways, where every footer is one row), opened one
after another and each timed from ``Page.navigate`` to the name question in the door's
frames as the page receives them (the DevTools protocol's
``Network.webSocketFrameReceived``, read as it arrives), plus from the name's Enter to
the lobby's text (the typing itself is not counted; each page is a browser context of
its own, a phone the door does not know yet). Then PSS from /proc/PID/smaps_rollup:
every visitor's client process (the sum divided by SESSIONS) and the host's process.

Then all pages tap at once for SECONDS, at a person's pace (0.5-1.5 s between
taps), every tap a screen change: a tap (``Input.dispatchTouchEvent``) on the
footer's "j Join code" opens the join-code dialog (the SSH door benchmark's
screen change), one on "esc Cancel" closes it, then the same with "c Create"
and the create-room dialog (the lobby's largest). A key is tapped where the
page's last frames drew it. Each tap is timed from the touch being sent to the
new screen's text reaching the page (the dialog's title, or the lobby's
greeting), so a figure includes the browser's input, the door, the client's
redraw and the frames' way back, not the browser's painting of them. A tap
whose screen has not changed after MISSED seconds missed its key (it moved
as the footer was drawn again) and is tapped again, counted but not timed; a
page whose screen is not what the bench expects stops tapping, counted.
Each page's first opening of a dialog (its first showing: the client built it as the
lobby arrived) is reported apart from its later ones (the client shows the dialog
again), and "again p99" is the p99 of every tap but those first openings.
CPU time while tapping is reported for the host, the clients, Chromium (which
draws every page here; a party's phones each draw their own) and the bench.

Every page comes from 127.0.0.1, so the runs raise the per-address caps the
door shares with the SSH door (and the host's): a party's phones have an
address each.

With ``--visitors sockets`` the visitors are not Chromium's pages but websockets
that say what such a page says (its terminal's size, the name, the mouse reports
xterm.js makes of a tap at the key's cell) and read what it would draw: the
machine does for each all that it does for a phone at a party, and none of the
drawing, which at a party each phone does for itself while here one Chromium
draws every page. The warm-up page is still Chromium's, and tells the
terminal's size the sockets ask for; the lobby time is then from asking for the
page, and a tap is timed from its reports being sent.

Usage: python bench/web_door.py [--sessions 10,30] [--seconds 20]
[--visitors browser|sockets]
[--smoke] (two pages, each dialog opened and closed once, to check that it still runs).
Prints a table, then, as the last line, one JSON object with
``lobby_ms_p50``, ``lobby_ms_p95``, ``pss_per_session_mib``,
``tap_to_screen_p99_ms`` and the baseline's figures (and a few more) for each
session count, suffixed ``_at_N``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import math
import os
import platform
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from cdpdriver import Browser, Page, chromium_path, chromium_tabs
from sshdoorhelpers import LOOPBACK, descendants, listening, plain
from tmuxdriver import WAIT_SECONDS, clean_env, free_port, partyhost_command, stop

PHONE = (844, 390)
"""A phone held sideways, in CSS pixels (device scale 1: see README's browser door); held
upright, its footer's keys take several rows, and this bench taps the last row."""
LOBBY = b"lobby"
"""In the lobby's title line, as the client's web driver sends it."""
ASKED = b"friends call you"
"""The first screen of a browser the door does not know yet: the visitor's name asked."""
LOBBY_KEYS = ("Join code", "Create")
"""The lobby footer's keys the bench taps ("j Join code", "c Create"); the dialogs' footer has
"esc Cancel". Each key is tapped where the last frames drew it."""
BACK = b"Pick a room"
"""The lobby's greeting, drawn again when a dialog closes."""
CANCEL = "Cancel"
OPENS = {"join": ("Join code", b"Join a room"), "create": ("Create", b"Create a room")}
"""The taps that open a dialog: its footer key, the dialog's title. The join-code dialog is
the SSH door benchmark's screen change; the create-room dialog is the lobby's largest."""
KINDS = ("first_join", "join", "first_create", "create", "close")
"""What a tap did: each page's first opening of a dialog (built with the lobby, shown for the
first time), a later opening (shown again), closing either."""
AGAIN = ("join", "create", "close")
"""The taps of a page that has opened each dialog before."""
FOOTER_KEYS = ("Join code", "Create", "Cancel")
SETTLE = 0.2
"""Seconds the footer must stay unchanged before a tap: a screen may still be drawing it."""
MISSED = 15.0
MISSES = 3
"""A tap whose screen has not changed after MISSED seconds missed its key: tapped again,
MISSES times in all."""
MOVE = re.compile(rb"\x1b\[(\d+);(\d+)H")
"""A cursor move to (row, column), 1-based: Textual draws each changed stretch after one."""
WAIT = 30.0
"""The longest any one step may take (a page to its lobby, a tap to its screen)."""
PACE = (0.5, 1.5)
"""Seconds between one visitor's taps: a person playing on a phone, quicker than most."""
ROUNDS = 5
"""Rounds of the lone baseline page: each opens and closes both dialogs (four taps)."""


@dataclass
class Figures:
    sessions: int
    lobby_ms: list[float] = field(default_factory=list)
    taps: dict[str, list[float]] = field(default_factory=lambda: {kind: [] for kind in KINDS})
    """Tap to screen by what the tap did: open the join-code or create dialog, close it."""
    alone_lobby_ms: float = math.nan
    """The lone baseline page, on the same host just before: navigate to lobby."""
    alone_taps: dict[str, list[float]] = field(default_factory=lambda: {kind: [] for kind in KINDS})

    @property
    def tap_ms(self) -> list[float]:
        return [ms for kind in KINDS for ms in self.taps[kind]]

    @property
    def again_tap_ms(self) -> list[float]:
        return [ms for kind in AGAIN for ms in self.taps[kind]]

    @property
    def alone_tap_ms(self) -> list[float]:
        return [ms for kind in KINDS for ms in self.alone_taps[kind]]

    missed: int = 0
    """Taps that missed their key and were tapped again (together, then alone)."""
    alone_missed: int = 0
    stopped: int = 0
    """Pages that stopped tapping: their screen stayed unchanged after MISSES taps."""
    clients_pss_kib: int = 0
    host_pss_kib: int = 0
    processes: int = 0
    cpu_seconds: dict[str, float] = field(default_factory=dict)
    """CPU time used while tapping: the host process, the visitors' clients, Chromium (every
    page's rendering, which a party's phones do on their own), this bench."""

    @property
    def pss_per_session_mib(self) -> float:
        return self.clients_pss_kib / 1024 / max(1, self.sessions)


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of one process so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_by_group(groups: dict[str, list[int]]) -> dict[str, float]:
    return {name: sum(cpu_seconds(pid) for pid in pids) for name, pids in groups.items()}


def pss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text(encoding="utf-8").splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


@dataclass
class WebHost:
    """A running ``partyhost serve --web``."""

    process: subprocess.Popen[bytes]
    web_port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.web_port}/"


@contextlib.contextmanager
def serve_web(folder: Path, sessions: int) -> Iterator[WebHost]:
    """``partyhost serve --web`` on loopback with caps for ``sessions`` pages from one address."""
    folder.mkdir(parents=True, exist_ok=True)
    log_path = folder / "serve.log"
    caps = [
        *("--ssh-max-sessions", str(sessions + 4)),
        *("--ssh-max-per-address", str(sessions + 4)),
        *("--max-per-address", str(2 * sessions + 16)),
    ]
    with log_path.open("ab") as log:
        for _ in range(3):
            port, web_port = free_port(), free_port()
            command = [
                *partyhost_command(),
                "serve",
                *("--host", LOOPBACK, "--port", str(port), "--web", str(web_port)),
                *("--data", str(folder / "host-data"), "--name", "bench host", "--no-discovery"),
                *caps,
            ]
            process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=clean_env(),
            )
            deadline = time.monotonic() + WAIT_SECONDS
            while process.poll() is None and time.monotonic() < deadline:
                if listening(port) and listening(web_port):
                    break
                time.sleep(0.1)
            if process.poll() is None and listening(web_port):
                break
            stop(process)
        else:
            raise RuntimeError(
                f"`partyhost serve --web` never listened:\n{log_path.read_text(encoding='utf-8')}"
            )
        try:
            yield WebHost(process, web_port, log_path)
        finally:
            stop(process, grace=WAIT_SECONDS)  # a busy machine may take a while to clean up


def read_footer(data: bytes, row: int, keys: dict[str, int]) -> bool:
    """Note in ``keys`` where ``data`` draws each of :data:`FOOTER_KEYS` on the footer's ``row``
    (the middle of its word, a 0-based column); a stretch drawn from the row's first column
    starts a new footer. Whether ``data`` drew on that row."""
    touched = False
    pieces = MOVE.split(data)  # text, then (row, column, text) for every cursor move
    for at in range(1, len(pieces) - 2, 3):
        if int(pieces[at]) != row:
            continue
        touched = True
        start = int(pieces[at + 1]) - 1
        if start == 0:
            keys.clear()
        text = plain(pieces[at + 2]).decode("utf-8", "replace").split("\n", 1)[0]
        for word in FOOTER_KEYS:
            if (index := text.find(word)) >= 0:
                keys[word] = start + index + len(word) // 2
    return touched


class Tab:
    """One visitor at the door: the frames it receives watched for markers, taps on its footer."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.frames = bytearray()
        self._marker = b""
        self._seen: asyncio.Future[float] | None = None
        self.columns = self.rows = 0
        """The terminal's size in cells, as the page last told the door."""
        self.keys: dict[str, int] = {}
        """The footer's keys as last drawn: the column of each."""
        self._cut = b""
        self.known: dict[str, int] = {}
        """Where each key was last seen, kept when the footer is drawn again without it."""
        self.footer_drawn = 0.0
        """When the footer's row was last drawn on (``time.perf_counter``)."""
        self.stopped = False
        """Whether this page stopped tapping, its screen not what the bench expected."""
        self.missed = 0
        """Taps that changed nothing (a key moved under the finger): tapped again, not timed."""
        self.taps = 0
        """Taps sent, missed ones included."""
        self.opened: set[str] = set()
        """The dialogs this page has opened (see :data:`OPENS`)."""

    def received(self, data: bytes) -> None:
        """What the door sent the page: read for the footer's keys and the awaited marker."""
        self.frames += data
        # A stretch may be cut between two frames: the last one is read again with the next.
        unread = self._cut + data
        if self.rows and read_footer(unread, self.rows, self.keys):
            self.footer_drawn = time.perf_counter()
            self.known.update(self.keys)
        starts = [move.start() for move in MOVE.finditer(unread)]
        self._cut = unread[starts[-1] :] if starts else b""
        waiter = self._seen
        if waiter is not None and not waiter.done() and self._marker in self.frames:
            waiter.set_result(time.perf_counter())

    def watch(self, marker: bytes) -> asyncio.Future[float]:
        """Forget the frames so far; a future for the moment ``marker`` arrives in new ones."""
        self.frames.clear()
        self._marker = marker
        self._seen = asyncio.get_running_loop().create_future()
        return self._seen

    async def open(self, url: str) -> float:
        """Milliseconds the visitor waits on the machine to reach the lobby (a browser the
        door does not know yet, so the name is asked; the typing is not counted), then
        until the footer's keys are read."""
        raise NotImplementedError

    async def touch(self, column: int) -> None:
        """A tap on the footer's row at ``column`` (0-based)."""
        raise NotImplementedError

    async def lobby_keys(self) -> None:
        """Until the lobby's footer has shown the keys the bench taps (a person reads them
        before the first tap)."""
        async with asyncio.timeout(WAIT):
            while not all(key in self.known for key in LOBBY_KEYS):
                await asyncio.sleep(0.02)
        await asyncio.sleep(PACE[0])

    async def close(self) -> None:
        """Leave the door (the page closed)."""

    async def drawn(self, key: str) -> int:
        """The column of the footer's ``key`` once it is drawn and the footer has been still
        for :data:`SETTLE` seconds (a person taps what they see)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(MISSED):
                while key not in self.keys or time.perf_counter() - self.footer_drawn < SETTLE:
                    await asyncio.sleep(0.02)
                return self.keys[key]
        if key not in self.known:  # never drawn: the screen is not what this bench expects
            raise TimeoutError(f"page {self.index}: no {key!r} in the footer")
        return self.known[key]  # the footer is redrawn over and over: where it last was

    async def tap(self, key: str, marker: bytes) -> float:
        """Milliseconds from a tap on the footer's ``key`` to ``marker`` reaching the page."""
        for _ in range(MISSES):
            column = await self.drawn(key)
            seen = self.watch(marker)
            sent = time.perf_counter()
            await self.touch(column)
            self.taps += 1
            with contextlib.suppress(TimeoutError):
                return (await asyncio.wait_for(seen, MISSED) - sent) * 1000
            self.missed += 1
            print(f"page {self.index}: tap {self.taps} on {key!r} missed", file=sys.stderr)
        raise TimeoutError(f"page {self.index}: {MISSES} taps on {key!r} never showed {marker!r}")


class BrowserTab(Tab):
    """A page of the headless Chromium: touches on its screen, its frames read as the page
    receives them, and the page drawn by this machine as well."""

    def __init__(self, index: int, page: Page) -> None:
        super().__init__(index)
        self.page = page
        self.footer_y = 0.0
        self.cell_width = 0.0
        page.listeners.append(self._on_event)

    def _on_event(self, method: str, params: dict[str, Any]) -> None:
        if method == "Network.webSocketFrameSent":
            with contextlib.suppress(ValueError, TypeError, KeyError, IndexError):
                kind, size = json.loads(params["response"]["payloadData"])
                if kind == "resize":
                    self.columns, self.rows = int(size["width"]), int(size["height"])
            return
        if method != "Network.webSocketFrameReceived":
            return
        response = params.get("response", {})
        payload = str(response.get("payloadData", ""))
        self.received(
            base64.b64decode(payload) if response.get("opcode") == 2 else payload.encode()
        )

    async def open(self, url: str) -> float:
        """From navigating to the name question, plus from the name's Enter to the lobby."""
        await self.page.send("Network.enable")
        asked = self.watch(ASKED)
        started = time.perf_counter()
        await self.page.send("Page.navigate", url=url)
        question_ms = (await asyncio.wait_for(asked, WAIT) - started) * 1000
        await self.page.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
        for letter in f"P{self.index + 2}":
            await self.page.press(letter)
        seen = self.watch(LOBBY)
        entered = time.perf_counter()
        for kind in ("keyDown", "keyUp"):
            extra = {"text": "\r"} if kind == "keyDown" else {}
            await self.page.send(
                "Input.dispatchKeyEvent", type=kind, key="Enter", windowsVirtualKeyCode=13, **extra
            )
        lobby_ms = question_ms + (await asyncio.wait_for(seen, WAIT) - entered) * 1000
        await self.lobby_keys()
        box = await self.page.evaluate(
            "(() => { const r = document.querySelector('.xterm-screen')"
            ".getBoundingClientRect(); return [r.width, r.bottom]; })()"
        )
        self.cell_width = float(box[0]) / max(1, self.columns)
        self.footer_y = float(box[1]) - 10  # in the last row: the footer
        return lobby_ms

    async def touch(self, column: int) -> None:
        await self.page.tap((column + 0.5) * self.cell_width, self.footer_y)


class SocketTab(Tab):
    """A phone's page without the browser: its websocket, sending what the page sends (its
    terminal's size, keys, and the mouse reports xterm.js makes of a tap) and reading what
    the page would draw. The machine does for it all it does for a phone at the party,
    and none of the drawing, which each phone does on its own."""

    def __init__(self, index: int, size: tuple[int, int]) -> None:
        super().__init__(index)
        self.columns, self.rows = size
        self._session: aiohttp.ClientSession | None = None
        self._socket: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task[None] | None = None

    async def open(self, url: str) -> float:
        """From asking for the page to the name question, plus from the name's Enter to the
        lobby."""
        # A cookie jar of its own, taking a loopback address's cookies: a phone of its own.
        self._session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        asked = self.watch(ASKED)
        started = time.perf_counter()
        async with self._session.get(url) as response:
            page = await response.text()
        address = re.search(r'data-session-websocket-url="([^"]+)"', page)
        if address is None:
            raise RuntimeError("the door's page names no websocket")
        self._socket = await self._session.ws_connect(
            f"{address.group(1)}?width={self.columns}&height={self.rows}",
            origin=url.rstrip("/"),
            max_msg_size=0,
        )
        self._reader = asyncio.create_task(self._read(self._socket))
        await self._send("resize", {"width": self.columns, "height": self.rows})
        question_ms = (await asyncio.wait_for(asked, WAIT) - started) * 1000
        await self._send("stdin", f"P{self.index + 2}")
        seen = self.watch(LOBBY)
        entered = time.perf_counter()
        await self._send("stdin", "\r")
        lobby_ms = question_ms + (await asyncio.wait_for(seen, WAIT) - entered) * 1000
        await self.lobby_keys()
        return lobby_ms

    async def touch(self, column: int) -> None:
        await self._click(column, self.rows - 1)

    async def _click(self, column: int, row: int) -> None:
        """xterm.js's reports of a tap at the 0-based cell: the pointer moves there, presses,
        lets go (SGR mouse reports, 1-based)."""
        x, y = column + 1, row + 1
        for report in (f"\x1b[<35;{x};{y}M", f"\x1b[<0;{x};{y}M", f"\x1b[<0;{x};{y}m"):
            await self._send("stdin", report)

    async def _send(self, kind: str, data: object) -> None:
        assert self._socket is not None
        await self._socket.send_str(json.dumps([kind, data]))

    async def _read(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        async for message in socket:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.received(message.data)
            elif message.type == aiohttp.WSMsgType.TEXT:
                self.received(message.data.encode())

    async def close(self) -> None:
        with contextlib.suppress(aiohttp.ClientError, ConnectionError):
            if self._socket is not None:
                await self._socket.close()
        if self._reader is not None:
            self._reader.cancel()
            await asyncio.gather(self._reader, return_exceptions=True)
        if self._session is not None:
            await self._session.close()


class Visitors:
    """Where the bench's visitors come from: pages of the headless Chromium, or (given the
    terminal size a phone's page gets) websockets that speak as those pages do."""

    def __init__(self, browser: Browser, size: tuple[int, int] | None = None) -> None:
        self.browser = browser
        self.size = size
        self.tabs: list[Tab] = []

    async def open(self, index: int, url: str) -> tuple[Tab, float]:
        """A new visitor at ``url`` and the milliseconds it took to reach the lobby."""
        if self.size is None:
            tab: Tab = BrowserTab(index, await self.browser.new_page())
        else:
            tab = SocketTab(index, self.size)
        self.tabs.append(tab)
        return tab, await tab.open(url)

    async def close(self) -> None:
        """Every visitor leaves."""
        for tab in self.tabs:
            await tab.close()
        self.tabs.clear()
        await self.browser.close_pages()


async def tapper(tab: Tab, until: float, taps: dict[str, list[float]], pace: random.Random) -> None:
    """Open and close each dialog by tapping, at a person's pace, at least once, until
    ``until``."""
    while True:
        for kind, (key, title) in OPENS.items():
            await asyncio.sleep(pace.uniform(*PACE))
            opened = tab.tap(key, title)
            taps[kind if kind in tab.opened else f"first_{kind}"].append(await opened)
            tab.opened.add(kind)
            await asyncio.sleep(pace.uniform(*PACE))
            taps["close"].append(await tab.tap(CANCEL, BACK))
        if time.perf_counter() >= until:
            return


async def visitor(tab: Tab, until: float, taps: dict[str, list[float]]) -> None:
    pace = random.Random(tab.index)
    await asyncio.sleep(pace.uniform(0, PACE[1] * 2))  # visitors do not start in step
    try:
        await tapper(tab, until, taps, pace)
    except TimeoutError as stuck:  # its screen is not what this bench expects: it stops
        tab.stopped = True
        print(f"stopped tapping: {stuck}", file=sys.stderr, flush=True)
    except (aiohttp.ClientError, ConnectionError) as lost:  # the door ended a socket visitor
        tab.stopped = True
        print(f"page {tab.index} stopped tapping: {lost!r}", file=sys.stderr, flush=True)


async def alone(visitors: Visitors, url: str, rounds: int, figures: Figures) -> None:
    """The baseline: one page with nothing else open, to its lobby and through ``rounds``
    of opening and closing each dialog."""
    try:
        tab, figures.alone_lobby_ms = await visitors.open(-1, url)
        for _ in range(rounds):
            await tapper(tab, 0.0, figures.alone_taps, random.Random(0))
        figures.alone_missed = tab.missed
    finally:
        await visitors.close()


async def no_clients(host: WebHost) -> None:
    """Until the door has ended every visitor's client (closed pages)."""
    async with asyncio.timeout(WAIT):
        while descendants(host.process.pid):
            await asyncio.sleep(0.1)


def browser_processes(profile: Path) -> list[int]:
    """Chromium's processes: the one started with ``profile`` and everything under it."""
    marker = f"--user-data-dir={profile}\0".encode()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                command = (entry / "cmdline").read_bytes()
                if marker in command and b"--type=" not in command:
                    return [int(entry.name), *sorted(descendants(int(entry.name)))]
    return []


async def measure(
    sessions: int, seconds: float, rounds: int, folder: Path, sockets: bool
) -> Figures:
    figures = Figures(sessions)
    with serve_web(folder, sessions) as host:
        async with chromium_tabs(folder / "profile", *PHONE) as browser:
            # Warm-up, in the browser: files cached, first imports done, the phone's terminal
            # size learnt (what a socket visitor asks for).
            warm_up = Visitors(browser)
            try:
                first, _ = await warm_up.open(-2, host.url)
            finally:
                await warm_up.close()
            visitors = Visitors(browser, (first.columns, first.rows) if sockets else None)
            await no_clients(host)
            await alone(visitors, host.url, rounds, figures)
            await no_clients(host)
            await asyncio.sleep(1.0)
            tabs: list[Tab] = []
            try:
                for index in range(sessions):
                    tab, lobby_ms = await visitors.open(index, host.url)
                    tabs.append(tab)
                    figures.lobby_ms.append(lobby_ms)
                await asyncio.sleep(1.0)
                clients = sorted(descendants(host.process.pid))
                figures.processes = len(clients)
                figures.clients_pss_kib = sum(pss_kib(pid) for pid in clients)
                figures.host_pss_kib = pss_kib(host.process.pid)
                groups = {
                    "host": [host.process.pid],
                    "clients": clients,
                    "browser": browser_processes(folder / "profile"),
                    "bench": [os.getpid()],
                }
                before = cpu_by_group(groups)
                until = time.perf_counter() + seconds
                await asyncio.gather(*(visitor(tab, until, figures.taps) for tab in tabs))
                after = cpu_by_group(groups)
                figures.missed = sum(tab.missed for tab in tabs)
                figures.stopped = sum(tab.stopped for tab in tabs)
                figures.cpu_seconds = {name: after[name] - before[name] for name in groups}
            finally:
                await visitors.close()
    return figures


def machine() -> str:
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        for line in subprocess.run(
            ["lscpu"], capture_output=True, text=True, check=True, encoding="utf-8"
        ).stdout.splitlines():
            if line.startswith("Model name:"):
                return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} CPUs"
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs"


def table(results: list[Figures]) -> str:
    head = (
        f"{'sessions':>8} {'PSS/session':>12} {'host PSS':>9} {'lobby p50':>10} {'p95':>7}"
        f" {'max':>7} {'taps':>5} {'tap p50':>8} {'p99':>7} {'max':>7} {'again p99':>9}"
        f" | {'alone: lobby':>12} {'tap p50':>8} {'p99':>7}"
    )
    rows = [head, "-" * len(head)]
    for f in results:
        rows.append(
            f"{f.sessions:>8} {f.pss_per_session_mib:>8.1f} MiB {f.host_pss_kib / 1024:>5.0f} MiB"
            f" {percentile(f.lobby_ms, 0.5):>7.0f} ms {percentile(f.lobby_ms, 0.95):>7.0f}"
            f" {max(f.lobby_ms):>7.0f} {len(f.tap_ms):>5} {percentile(f.tap_ms, 0.5):>5.0f} ms"
            f" {percentile(f.tap_ms, 0.99):>7.0f} {max(f.tap_ms):>7.0f}"
            f" {percentile(f.again_tap_ms, 0.99):>9.0f}"
            f" | {f.alone_lobby_ms:>9.0f} ms {percentile(f.alone_tap_ms, 0.5):>5.0f} ms"
            f" {percentile(f.alone_tap_ms, 0.99):>7.0f}"
        )
    return "\n".join(rows)


def summary(figures: Figures) -> dict[str, float | int]:
    suffix = f"_at_{figures.sessions}"
    return {
        f"lobby_ms_p50{suffix}": round(percentile(figures.lobby_ms, 0.5), 1),
        f"lobby_ms_p95{suffix}": round(percentile(figures.lobby_ms, 0.95), 1),
        f"pss_per_session_mib{suffix}": round(figures.pss_per_session_mib, 2),
        f"host_pss_mib{suffix}": round(figures.host_pss_kib / 1024, 1),
        f"tap_to_screen_p50_ms{suffix}": round(percentile(figures.tap_ms, 0.5), 1),
        f"tap_to_screen_p99_ms{suffix}": round(percentile(figures.tap_ms, 0.99), 1),
        f"tap_to_screen_p99_ms_again{suffix}": round(percentile(figures.again_tap_ms, 0.99), 1),
        f"taps_timed{suffix}": len(figures.tap_ms),
        f"taps_missed{suffix}": figures.missed,
        f"pages_stopped{suffix}": figures.stopped,
        f"alone_taps_missed{suffix}": figures.alone_missed,
        f"alone_lobby_ms{suffix}": round(figures.alone_lobby_ms, 1),
        f"alone_tap_p50_ms{suffix}": round(percentile(figures.alone_tap_ms, 0.5), 1),
        f"alone_tap_p99_ms{suffix}": round(percentile(figures.alone_tap_ms, 0.99), 1),
        **{
            f"{kind}_tap_p99_ms{suffix}": round(percentile(figures.taps[kind], 0.99), 1)
            for kind in KINDS
        },
        **{
            f"alone_{kind}_tap_p99_ms{suffix}": round(percentile(figures.alone_taps[kind], 0.99), 1)
            for kind in KINDS
        },
    }


async def run(counts: list[int], seconds: float, rounds: int, sockets: bool) -> int:
    results = []
    with tempfile.TemporaryDirectory(prefix="partyhost-bench-web-") as folder:
        for sessions in counts:
            print(f"{sessions} sessions ...", file=sys.stderr, flush=True)
            place = Path(folder) / str(sessions)
            results.append(await measure(sessions, seconds, rounds, place, sockets))
    load = os.getloadavg()[0]
    visitors = "websockets speaking as pages" if sockets else "headless Chromium tabs"
    print(f"Browser door, {visitors} at {PHONE[0]}x{PHONE[1]} px; {machine()}")
    print(f"Python {platform.python_version()}; tapping for {seconds:.0f} s; load now {load:.1f}")
    print(table(results))
    for figures in results:
        for label, taps in (("together", figures.taps), ("alone", figures.alone_taps)):
            each = "; ".join(
                f"{kind} p50 {percentile(taps[kind], 0.5):.0f} ms,"
                f" p99 {percentile(taps[kind], 0.99):.0f} ms ({len(taps[kind])})"
                for kind in KINDS
            )
            missed = figures.missed if label == "together" else figures.alone_missed
            print(f"{figures.sessions} sessions, taps {label}: {each}; {missed} missed")
        if figures.stopped:
            print(f"{figures.sessions} sessions: {figures.stopped} pages stopped tapping")
        used = ", ".join(f"{name} {cpu:.1f} s" for name, cpu in figures.cpu_seconds.items())
        print(f"CPU while tapping ({figures.sessions} sessions): {used}")
    report: dict[str, object] = {
        "sessions": counts,
        "visitors": "sockets" if sockets else "browser",
        "machine": machine(),
    }
    for figures in results:
        report.update(summary(figures))
    # A kind of tap none of the pages made (a short run) has no figure: null, not NaN.
    no_nan = {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in report.items()}
    print(json.dumps(no_nan, allow_nan=False))
    return 0


def main() -> int:
    global PACE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", default="10,30", help="session counts, one run each")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--smoke", action="store_true", help="2 pages, each dialog once: does it run?"
    )
    parser.add_argument(
        "--visitors",
        choices=("browser", "sockets"),
        default="browser",
        help="pages of one Chromium (this machine draws them all), or websockets that speak"
        " as the pages do (each phone draws its own page, as at a party)",
    )
    args = parser.parse_args()
    rounds = ROUNDS
    if args.smoke:  # every step once, in seconds: no tapping time, each dialog once
        args.sessions, args.seconds, rounds, PACE = "2", 0.0, 1, (0.5, 0.6)
    if chromium_path() is None:
        print("web_door: Chromium (Debian's chromium package) is needed", file=sys.stderr)
        return 2
    counts = [int(count) for count in args.sessions.split(",") if count]
    return asyncio.run(run(counts, args.seconds, rounds, args.visitors == "sockets"))


if __name__ == "__main__":
    sys.exit(main())
