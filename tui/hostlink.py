"""The client's link to a host: the connection, its network worker, and the messages it posts.

:func:`follow_host` runs in the app's one network worker: it never touches widgets, posts
one message per frame, and nothing that goes wrong with the link ends the app.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from partyhost.net.clients.client import ConnectionFailed, RequestMethods
from partyhost.tui.text import Frame, number_of
from textual.message import Message

LOG_LIMIT = 200
NOTICE = "notice"
"""The key of a host notice in the game log (a game's events have a ``kind`` instead)."""
CHAT = "chat"
"""The key of a chat line in the game log: everyone at the table sees what is said."""


class Connection(Protocol):
    """A live link to a host: the welcome, a way to send, and a stream of frames (with
    ``{"t": "connection", "state": ...}`` items as a reconnecting link drops and returns)."""

    @property
    def welcome(self) -> Frame: ...

    def write(self, message: Frame) -> None:
        """Send one message without waiting (``ConnectionLost`` when the link is down)."""

    def __aiter__(self) -> AsyncIterator[Frame]: ...

    async def close(self) -> None: ...


ConnectionFactory = Callable[[str, int, str], Awaitable[Connection]]
"""``(host, port, name) -> Connection`` with the hello already done."""


class HostRequests(RequestMethods[bool]):
    """Every request, sent from the UI without waiting: ``False`` (so a screen can keep what
    was typed) when it could not go out."""

    def __init__(self, queue: Callable[[Frame], bool]) -> None:
        self._queue = queue

    def send(self, message: Frame) -> bool:
        return self._queue(message)


# --- frames in, messages out ---------------------------------------------------------

STORED = frozenset({"rooms", "decks", "past_games", "standings"})
"""The listings the app keeps as they come, each in its reactive of the same name."""
NEWEST_ONLY = STORED | {"room", "view"}
"""The kinds whose newer message replaces an unprocessed older one (only the newest counts;
a view carries the whole event log so far, so replacing one loses no line)."""
LISTED = {"rooms": "rooms", "decks": "decks", "past_games": "games"}
"""Each listing's field of items."""


@dataclass
class HostSaid(Message):
    """One frame from the host, checked and read into ``data``, or the worker's word on the
    link (``connected``, ``connect_failed``, ``closed``); the app handles it by ``kind``."""

    kind: str
    data: Any
    events: tuple[Frame, ...] = ()
    """The room's game log so far (events, notices and chat), with a view, chat or notice."""

    def can_replace(self, message: Message) -> bool:
        return (
            isinstance(message, HostSaid) and message.kind == self.kind and self.kind in NEWEST_ONLY
        )


@dataclass(frozen=True)
class ReplayPage:
    """Steps ``first`` on of past game ``game_id``'s replay (every page counts: never replaced)."""

    game_id: int
    info: Frame
    first: int
    steps: list[Frame]
    total: int


class FrameReader:
    """Reads frames into messages and keeps the room's game log (events, notices, chat): it
    must survive a newer view replacing an older one in the message queue."""

    def __init__(self) -> None:
        self.events: list[Frame] = []

    def read(self, frame: Frame) -> HostSaid | None:
        kind = str(frame.get("t"))
        data: Any = frame
        events: tuple[Frame, ...] = ()
        if kind == "connection":
            data = {
                "state": str(frame.get("state", "")),
                "detail": str(frame.get("detail", "")),
                "retry_after": number_of(frame.get("retry_after")),
            }
        elif kind in LISTED:
            data = tuple(_maps(frame.get(LISTED[kind])))
        elif kind == "joined":
            self.events = []
            seat, token = frame.get("seat"), frame.get("token")
            data = {
                "code": str(frame.get("code", "")),
                "seat": seat if isinstance(seat, int) else None,
                "token": token if isinstance(token, str) else None,
            }
        elif kind == "view":
            if not isinstance(frame.get("view"), dict):
                return None
            if isinstance(frame.get("log"), list):  # a first view: what came before it
                self.events = [
                    e for entry in _maps(frame["log"]) for e in _maps(entry.get("events"))
                ]
            events = self._logged(*_maps(frame.get("events")))
        elif kind == "chat_line":
            events = self._logged({CHAT: frame})
        elif kind == "notice":
            data = str(frame.get("text", ""))
            events = self._logged({NOTICE: data})
        elif kind == "error":
            data = {
                "code": str(frame.get("code", "error")),
                "text": str(frame.get("message", "")),
                "problems": _maps(frame.get("problems")),
            }
        elif kind in ("reclaim_ask", "reclaim_waiting"):
            ask = frame.get("ask")
            if kind == "reclaim_ask" and not isinstance(ask, int):
                return None
            seconds = number_of(frame.get("seconds")) or 0.0
            data = {"ask": ask, "name": str(frame.get("name", "")), "seconds": seconds}
        elif kind in ("left", "bye"):
            if kind == "left":
                self.events = []
            data = str(frame.get("reason", ""))
        elif kind == "replay":
            data = _replay_page(frame)
            if data is None:
                return None
        elif kind not in ("room", "standings"):
            return None
        return HostSaid(kind, data, events)

    def _logged(self, *entries: Frame) -> tuple[Frame, ...]:
        """The log with ``entries`` added, kept to its last :data:`LOG_LIMIT`."""
        self.events.extend(entries)
        del self.events[:-LOG_LIMIT]
        return tuple(self.events)


def said_alike(one: Frame, other: Frame) -> bool:
    """Whether two chat lines are the same line said once (same speaker, words and time)."""
    keys = ("at", "seat", "name", "text")
    return one.get("at") is not None and all(one.get(key) == other.get(key) for key in keys)


def _maps(value: Any) -> list[Frame]:
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict)]


def _replay_page(frame: Frame) -> ReplayPage | None:
    game_id, first, total, info = (frame.get(key) for key in ("id", "first", "total", "info"))
    if not (isinstance(game_id, int) and isinstance(first, int) and isinstance(total, int)):
        return None
    return ReplayPage(
        game_id, info if isinstance(info, dict) else {}, first, _maps(frame.get("steps")), total
    )


# --- the worker ----------------------------------------------------------------------


class LinkHolder(Protocol):
    """The app as its network worker sees it: how to connect, the live link, its messages."""

    connection_factory: ConnectionFactory
    connection: Connection | None

    def post_message(self, message: Message) -> bool: ...


async def follow_host(app: LinkHolder, host: str, port: int, name: str) -> None:
    """Connect to ``host:port`` as ``name`` and read frames until the link ends."""
    try:
        connection = await app.connection_factory(host, port, name)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # any failure to connect is shown, never fatal
        app.post_message(HostSaid("connect_failed", describe_failure(exc, host, port)))
        return
    app.connection = connection
    app.post_message(HostSaid("connected", dict(connection.welcome)))
    reader = FrameReader()
    reason = "The host closed the connection."
    try:
        async for frame in connection:
            message = reader.read(frame)
            if message is not None:
                app.post_message(message)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # a broken link ends the session, not the app
        reason = describe_failure(exc, host, port)
    finally:
        app.connection = None
        with contextlib.suppress(Exception):
            await connection.close()
    app.post_message(HostSaid("closed", reason))


def describe_failure(exc: BaseException, host: str, port: int) -> str:
    """A sentence a person understands for a connection failure."""
    if isinstance(exc, ConnectionFailed):
        hint = " Is partyhost running there?" if exc.code == "connect_failed" else ""
        return f"{exc}{hint}"
    if isinstance(exc, ConnectionRefusedError):
        return f"Nobody is hosting at {host}:{port} (connection refused)."
    if isinstance(exc, TimeoutError):
        return f"{host}:{port} did not answer in time."
    if isinstance(exc, OSError) and exc.strerror:
        return f"Could not reach {host}:{port}: {exc.strerror}."
    text = str(exc) or type(exc).__name__
    return f"Could not talk to {host}:{port}: {text}"
