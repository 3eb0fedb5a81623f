"""Knowing a browser again: the browser door's visitor cookie, and which visitors have a
page open.

The page's response gives a browser without one a random id in the cookie
:data:`COOKIE` (HttpOnly, SameSite=Strict); the page's websocket brings it back,
and the door runs that browser's client in a folder kept for the id, where the
client finds its name and seat tokens again after a reload. A reload should go
straight back to the seat (``join --resume``); a second tab of the same browser,
while the first is open, is only offered it, as ``partyhost join`` offers it.
:class:`OpenPages` tells the two apart: an old page gets a moment to close, then
must answer a ping (a phone that slept may leave a page whose connection died
without the door seeing it).
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Mapping

from aiohttp import web

COOKIE = "partyhost_visitor"
ID_BYTES = 24
"""192 random bits: nobody guesses another visitor's id (it is a key to their seats)."""
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


def new_visitor_id() -> str:
    return secrets.token_urlsafe(ID_BYTES)


def visitor_of(cookies: Mapping[str, str]) -> str | None:
    """The visitor id a request's cookies carry, or None (none, or not one of ours)."""
    value = cookies.get(COOKIE)
    return value if value is not None and VISITOR_ID.fullmatch(value) else None


def give_cookie(request: web.BaseRequest, response: web.StreamResponse) -> None:
    """Give a browser that has no visitor id (or a mangled one) a new one."""
    if visitor_of(request.cookies) is None:
        response.set_cookie(
            COOKIE,
            new_visitor_id(),
            max_age=COOKIE_SECONDS,
            path="/",
            httponly=True,
            samesite="Strict",
        )


class OpenPage:
    """One page's websocket, as much of it as telling a reload from a second tab needs."""

    def __init__(self, socket: web.WebSocketResponse) -> None:
        self.socket = socket
        self.heard = asyncio.Event()
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


class OpenPages:
    """The pages (websockets) each visitor id has open at this door."""

    def __init__(self) -> None:
        self._open: dict[str, set[OpenPage]] = {}
        self._all_closed: dict[str, asyncio.Event] = {}

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
