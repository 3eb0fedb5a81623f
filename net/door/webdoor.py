"""The browser door: ``http://HOST:PORT/`` opens the partyhost client in a web page.

An aiohttp server in the host's process serves one page (its script, styles and font from
textual-serve's static folder on this host: nothing from outside the LAN) and one websocket
per visitor, relayed to a fresh locked client (:mod:`.webclients`). A websocket must come
from the door's own page (``Origin``), is capped and metered as the SSH door is, and is
closed after :attr:`HostConfig.web_idle_timeout` seconds without input.

A browser is known again by a random id in its cookie: its client runs in a folder kept
for it, so a reload goes straight back to the seat (``join --resume``), while a second tab
of that browser is only offered it. :class:`OpenPages` tells the two apart.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import re
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import textual_serve
from aiohttp import WSMsgType, web
from partyhost.net.address import with_port
from partyhost.net.addresslimits import ConnectionCounter, QuietLog, TokenBucket
from partyhost.net.door.visitorenv import INPUT_BURST, INPUT_BYTES_PER_SECOND, DoorFolders
from partyhost.net.door.webclients import WebVisitorClient

if TYPE_CHECKING:
    from partyhost.net.config import HostConfig

log = logging.getLogger(__name__)

PAGE = files("partyhost.net.door").joinpath("webpage.html").read_text(encoding="utf-8")
"""The page's template: ``{{title}}`` and ``{{websocket}}`` are filled in per request."""
STATIC = Path(textual_serve.__file__).parent / "static"
"""textual-serve's script (xterm.js and its glue), stylesheet, fonts and background."""
HOST_HEADER = re.compile(r"[A-Za-z0-9.\-]{1,253}(:\d{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:\d{1,5})?")
"""A ``Host`` the page may name in its websocket's address and its policy: a name or an
address and a port, nothing that could end or add a policy directive."""
CLOSE_SECONDS = 3.0
"""How long the door waits for pages to answer its goodbye when the host closes."""
MAX_MESSAGE = 64 * 1024
"""The largest websocket message a page may send (keys, a paste, a resize)."""
ENDS = frozenset({WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR})
"""The websocket messages that end a page's connection."""
COOKIE = "partyhost_visitor"
ID_BYTES = 24
VISITOR_ID = re.compile(r"[A-Za-z0-9_-]{32}")
"""What :func:`new_visitor_id` makes; anything else in the cookie is ignored."""
COOKIE_SECONDS = 24 * 60 * 60
"""A night's party: the browser forgets the id after this."""
RELOAD_SECONDS = 1.5
"""How long a new page waits for the same browser's other pages to close: a reloaded
page's old websocket closes about when the new page asks for its own."""
PROBE_SECONDS = 2.0
"""How long a page still open then has to answer a ping (a browser answers at once, even
for a tab in the background) before the door counts it as gone."""


def origin_matches(origin: str | None, host: str | None) -> bool:
    """Whether a websocket's ``Origin`` is the page this door served: same host and port."""
    if not origin or not host:
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def new_visitor_id() -> str:
    """A browser's new id: 192 random bits, a key to its seats."""
    return secrets.token_urlsafe(ID_BYTES)


def visitor_of(cookies: Mapping[str, str]) -> str | None:
    """The visitor id a request's cookies carry, or None (none, or not one of ours)."""
    value = cookies.get(COOKIE)
    return value if value is not None and VISITOR_ID.fullmatch(value) else None


@dataclass(eq=False)
class OpenPage:
    """One page's websocket, as much of it as telling a reload from a second tab needs."""

    socket: web.WebSocketResponse
    heard: asyncio.Event = field(default_factory=asyncio.Event)
    """Set whenever the page sends anything (a key, a pong): it is still there."""

    async def answers(self, seconds: float) -> bool:
        """Whether the page answers a ping within ``seconds``: a page whose connection died
        unseen (a phone that slept, a network that changed) does not."""
        self.heard.clear()
        try:
            await self.socket.ping()
            await asyncio.wait_for(self.heard.wait(), seconds)
        except (TimeoutError, ConnectionError, RuntimeError):
            return False
        return True


@dataclass(eq=False)
class OpenPages:
    """The pages (websockets) each visitor id has open at this door."""

    _open: dict[str, set[OpenPage]] = field(default_factory=dict)
    _all_closed: dict[str, asyncio.Event] = field(default_factory=dict)

    def opened(self, visitor: str, page: OpenPage) -> None:
        self._open.setdefault(visitor, set()).add(page)

    def closed(self, visitor: str, page: OpenPage) -> None:
        pages = self._open.get(visitor, set())
        pages.discard(page)
        if pages:
            return
        self._open.pop(visitor, None)
        event = self._all_closed.pop(visitor, None)
        if event is not None:
            event.set()

    def count(self, visitor: str) -> int:
        return len(self._open.get(visitor, ()))

    async def another_is_open(
        self, visitor: str, seconds: float = RELOAD_SECONDS, probe: float = PROBE_SECONDS
    ) -> bool:
        """Whether this visitor still has a live page: their pages are given ``seconds`` to
        close (a reload's old page closes; a second tab stays), then those left a ``probe``
        to answer a ping (an old page whose connection died unseen never does)."""
        if visitor not in self._open:
            return False
        event = self._all_closed.setdefault(visitor, asyncio.Event())
        try:
            await asyncio.wait_for(event.wait(), seconds)
        except TimeoutError:
            pages = list(self._open.get(visitor, ()))
            answers = await asyncio.gather(*(page.answers(probe) for page in pages))
            return any(answers)
        return False


class WebDoor:
    """The web server of one host, whose visitors' clients connect to the game port at
    ``game_host``. ``await start()``, later ``await close()``."""

    def __init__(self, config: HostConfig, game_host: str, game_port: int) -> None:
        self.config = config
        self.game_address = with_port(game_host, game_port)
        self.counter = ConnectionCounter(config.ssh_max_sessions, config.ssh_max_per_address)
        self.quiet = QuietLog(log)
        self.folders = DoorFolders(config.data_dir)
        self.clients: set[WebVisitorClient] = set()
        self.pages = OpenPages()
        self._sockets: set[web.WebSocketResponse] = set()
        self._runner: web.AppRunner | None = None
        self._closing = False

    @property
    def port(self) -> int:
        if self._runner is not None:
            for address in self._runner.addresses:
                if isinstance(address, tuple) and len(address) >= 2:
                    return int(address[1])
        return self.config.web_port or 0

    async def start(self) -> None:
        """Make the door's folder, then listen."""
        await asyncio.to_thread(self.folders.open)
        app = web.Application(client_max_size=MAX_MESSAGE)
        app.add_routes(
            [
                web.get("/", self.page),
                web.get("/ws", self.websocket),
                web.static("/static", STATIC, show_index=False, follow_symlinks=False),
            ]
        )
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        try:
            await self._runner.setup()
            site = web.TCPSite(self._runner, self.config.host or None, self.config.web_port or 0)
            await site.start()
        except BaseException:
            await self._runner.cleanup()
            self._runner = None
            await asyncio.to_thread(self.folders.close)
            raise
        log.info("Web door on port %d", self.port)

    async def close(self) -> None:
        """Stop listening, end every visitor's client, remove the door's folders."""
        self._closing = True
        closing = [
            asyncio.ensure_future(socket.close(message=b"The host is closing."))
            for socket in list(self._sockets)
        ]
        if closing:  # all at once, and not waiting long for pages that do not answer
            await asyncio.wait(closing, timeout=CLOSE_SECONDS)
            for task in closing:
                task.cancel()
            await asyncio.gather(*closing, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await asyncio.gather(*(client.stop() for client in list(self.clients)))
        await asyncio.to_thread(self.folders.close)

    async def page(self, request: web.Request) -> web.Response:
        """The page, its websocket's address taken from the host the browser asked for."""
        if not HOST_HEADER.fullmatch(request.host):
            raise web.HTTPBadRequest(text="Open this door by its address, e.g. http://HOST:PORT/")
        websocket = f"ws://{request.host}/ws"
        text = PAGE.replace("{{title}}", html.escape(self.config.display_name)).replace(
            "{{websocket}}", html.escape(websocket)
        )
        response = web.Response(
            text=text,
            content_type="text/html",
            headers={
                "Content-Security-Policy": (
                    f"default-src 'self'; connect-src 'self' {websocket}; style-src 'self'"
                    " 'unsafe-inline'; script-src 'self' 'unsafe-inline'; img-src 'self' data:"
                ),
                "Cache-Control": "no-store",
            },
        )
        if visitor_of(request.cookies) is None:  # no visitor id yet, or a mangled one
            response.set_cookie(
                COOKIE,
                new_visitor_id(),
                max_age=COOKIE_SECONDS,
                path="/",
                httponly=True,
                samesite="Strict",
            )
        return response

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        """One visitor: checked (Origin, caps), then a client for as long as the page stays."""
        address = request.remote or "unknown"
        if not origin_matches(request.headers.get("Origin"), request.host):
            self.quiet.warning(
                "origin", address, f"Web door: refused {address}: a page from another site"
            )
            raise web.HTTPForbidden(text="This door only opens to its own page.")
        if self._closing:
            raise web.HTTPServiceUnavailable(text="The host is closing.")
        refusal = self.counter.admit(address)
        if refusal is not None:
            self.quiet.warning("refused", address, f"Web door: refused {address}: {refusal}")
            raise web.HTTPServiceUnavailable(text=f"The door is full: {refusal}; try later.")
        try:
            return await self._serve(request, address)
        finally:
            self.counter.release(address)

    async def _serve(self, request: web.Request, address: str) -> web.WebSocketResponse:
        visitor = visitor_of(request.cookies)
        resume = visitor is not None and not await self.pages.another_is_open(visitor)
        # Pings answered here, so that a pong tells OpenPages the page is still there.
        socket = web.WebSocketResponse(heartbeat=15, autoping=False, max_msg_size=MAX_MESSAGE)
        await socket.prepare(request)
        page = OpenPage(socket)
        self._sockets.add(socket)
        folder, kept = self._folder_for(visitor)
        client = WebVisitorClient(
            self.game_address,
            folder,
            write_bytes=socket.send_bytes,
            write_str=socket.send_str,
            close=lambda: _close(socket),
            kept=kept,
            resume=resume and kept,
        )
        if kept and visitor is not None:
            self.pages.opened(visitor, page)
        try:
            self.clients.add(client)  # before it starts: a door that closes meanwhile stops it
            if self._closing:  # it closed while the page's socket opened: no client to start
                return socket
            await client.start(
                _number(request.query.get("width")), _number(request.query.get("height"))
            )
            log.info("Web door: %s plays (pid %s)", address, client.pid)
            relay = asyncio.ensure_future(self._relay(page, client, address))
            ended = asyncio.ensure_future(client.ended())
            try:
                await asyncio.wait({relay, ended}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (relay, ended):
                    task.cancel()
                await asyncio.gather(relay, ended, return_exceptions=True)
        finally:
            if kept and visitor is not None:  # before the client's goodbye: a reload waits on it
                self.pages.closed(visitor, page)
            self.clients.discard(client)
            await client.stop()
            self._sockets.discard(socket)
            await socket.close()
            if kept:
                self.folders.release(folder)
            else:
                self.folders.discard(folder)
        return socket

    def _folder_for(self, visitor: str | None) -> tuple[Path, bool]:
        """The folder kept for this browser, and True; else (no cookie of ours, or the kept
        folder cannot be had) a fresh one thrown away afterwards, and False."""
        if visitor is not None:
            try:
                return self.folders.kept(visitor), True
            except OSError as error:
                log.warning("Web door: no kept folder for a visitor: %s", error)
        return self.folders.visitor(), False

    async def _relay(self, page: OpenPage, client: WebVisitorClient, address: str) -> None:
        """The page's keys, taps and size to the client, until either side ends or idles
        (only what the visitor sends counts against idling, never a ping or a pong)."""
        socket = page.socket
        idle = self.config.web_idle_timeout
        meter = TokenBucket(INPUT_BYTES_PER_SECOND, INPUT_BURST)
        last_input = time.monotonic()
        while not socket.closed:
            try:
                left = last_input + idle - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                message = await asyncio.wait_for(socket.receive(), left)
            except TimeoutError:
                self.quiet.warning(
                    "idle",
                    address,
                    f"Web door: closed an idle session from {address} (nothing for {idle:g} s)",
                )
                return
            page.heard.set()
            if message.type == WSMsgType.PING:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await socket.pong(message.data)
                await asyncio.sleep(meter.wait_after(1 + len(message.data), time.monotonic()))
                continue
            if message.type in ENDS:
                return
            if message.type != WSMsgType.TEXT:
                continue
            last_input = time.monotonic()
            await _forward(socket, client, message.data)
            await asyncio.sleep(meter.wait_after(len(message.data), time.monotonic()))


async def _forward(socket: web.WebSocketResponse, client: WebVisitorClient, text: str) -> None:
    """One message of textual-serve's page: keys, a new size, a ping, focus or blur."""
    try:
        envelope = json.loads(text)
    except ValueError:
        return
    if not isinstance(envelope, list) or not envelope:
        return
    kind = envelope[0]
    data = envelope[1] if len(envelope) > 1 else None
    if kind == "stdin" and isinstance(data, str):
        await client.send_bytes(data.encode("utf-8"))
    elif kind == "resize" and isinstance(data, dict):
        await client.set_terminal_size(_number(data.get("width")), _number(data.get("height")))
    elif kind == "ping" and isinstance(data, str):
        await socket.send_json(["pong", data[:32]])
    elif kind == "blur":
        await client.blur()
    elif kind == "focus":
        await client.focus()


async def _close(socket: web.WebSocketResponse) -> None:
    """End the page's websocket (the client exited): the page says the game ended."""
    await socket.close()


def _number(value: object) -> int:
    """A page's claimed size, 0 (the default size) if it is no number."""
    try:
        return int(str(value))
    except ValueError:
        return 0
