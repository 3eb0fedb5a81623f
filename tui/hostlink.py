"""The client's link to a host: the connection, its network worker, and the messages it posts.

:func:`follow_host` runs in the app's one network worker: it never touches widgets, posts
one message per frame, and nothing that goes wrong with the link ends the app.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
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


# --- the messages the worker posts: one per kind of host frame ----------------------


class NewestOnly(Message):
    """A message whose newer copy replaces an unprocessed older one (only the newest counts)."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, type(self))


@dataclass
class Connected(Message):
    """The hello is done; ``welcome`` lists the host's games."""

    welcome: Frame


@dataclass
class ConnectFailed(Message):
    """The first connection attempt failed (wrong address, host down, bad protocol)."""

    reason: str


@dataclass
class ConnectionChanged(Message):
    """The link dropped, is being retried, came back, or was given up on."""

    state: str
    detail: str = ""
    retry_after: float | None = None
    """Seconds the host asked to wait before the seat is asked for again (None: no wait)."""


@dataclass
class RoomsListed(NewestOnly):
    rooms: list[Frame]


@dataclass
class Joined(Message):
    code: str
    seat: int | None
    token: str | None = None


@dataclass
class RoomUpdated(NewestOnly):
    room: Frame


@dataclass
class ViewUpdated(NewestOnly):
    """A fresh game view, with the whole event log so far: replacing an older one loses no line."""

    view: Frame
    events: tuple[Frame, ...] = field(default=())
    now: float | None = None
    """The room's game clock when the host sent the view (times in the view are on it)."""


@dataclass
class PastGamesListed(NewestOnly):
    """The games the host kept (finished, and running ones marked so)."""

    games: list[Frame]


@dataclass
class StandingsShown(NewestOnly):
    """A night's standings (``night``, ``tonight``, ``nights``, ``rows``)."""

    standings: Frame


@dataclass
class ReplayPage(Message):
    """Steps ``first`` on of past game ``game_id``'s replay (every page counts: never replaced)."""

    game_id: int
    info: Frame
    first: int
    steps: list[Frame]
    total: int


@dataclass
class ChatReceived(Message):
    """A chat line; it joins the game log too (``events``, the whole log so far)."""

    line: Frame
    events: tuple[Frame, ...] = field(default=())


@dataclass
class NoticeReceived(Message):
    """A host announcement; it joins the game log too (``events``, the whole log so far)."""

    text: str
    events: tuple[Frame, ...] = field(default=())


@dataclass
class DecksListed(NewestOnly):
    """Every deck file of the host, broken ones included (``decks``)."""

    decks: list[Frame]


@dataclass
class HostError(Message):
    code: str
    text: str
    problems: tuple[Frame, ...] = ()
    """For ``bad_deck``: each problem of a deck with its file, line and column."""


@dataclass
class ReclaimAsked(Message):
    """The host asks this player whether a visitor is the absent player ``name``."""

    ask: int
    name: str
    seconds: float


@dataclass
class ReclaimWaiting(Message):
    """This client asked for ``name``'s seat by name; the table is asked to confirm."""

    name: str
    seconds: float


@dataclass
class LeftRoom(Message):
    reason: str


@dataclass
class HostClosing(Message):
    reason: str


@dataclass
class ConnectionClosed(Message):
    """The worker has ended for good (closed by us, or the host went away)."""

    reason: str


# --- frames in, messages out ---------------------------------------------------------


class FrameReader:
    """Maps frames to messages and keeps the room's game log (events, notices, chat): it
    must survive a newer view replacing an older one in the message queue."""

    def __init__(self) -> None:
        self.events: list[Frame] = []

    def read(self, frame: Frame) -> Message | None:
        kind = frame.get("t")
        if kind == "connection":
            return ConnectionChanged(
                str(frame.get("state", "")),
                str(frame.get("detail", "")),
                number_of(frame.get("retry_after")),
            )
        if kind == "rooms":
            return RoomsListed(_maps(frame.get("rooms")))
        if kind == "joined":
            self.events = []
            seat, token = frame.get("seat"), frame.get("token")
            return Joined(
                str(frame.get("code", "")),
                seat if isinstance(seat, int) else None,
                token if isinstance(token, str) else None,
            )
        if kind == "room":
            return RoomUpdated(frame)
        if kind == "view":
            view = frame.get("view")
            if not isinstance(view, dict):
                return None
            if isinstance(frame.get("log"), list):  # a first view: what came before it
                self.events = [
                    e for entry in _maps(frame["log"]) for e in _maps(entry.get("events"))
                ]
            events = self._logged(*_maps(frame.get("events")))
            return ViewUpdated(view, events, number_of(frame.get("now")))
        if kind == "chat_line":
            return ChatReceived(frame, self._logged({CHAT: frame}))
        if kind == "notice":
            text = str(frame.get("text", ""))
            return NoticeReceived(text, self._logged({NOTICE: text}))
        if kind == "decks":
            return DecksListed(_maps(frame.get("decks")))
        if kind == "error":
            return HostError(
                str(frame.get("code", "error")),
                str(frame.get("message", "")),
                tuple(_maps(frame.get("problems"))),
            )
        if kind == "reclaim_ask":
            ask = frame.get("ask")
            if not isinstance(ask, int):
                return None
            return ReclaimAsked(ask, str(frame.get("name", "")), _seconds(frame))
        if kind == "reclaim_waiting":
            return ReclaimWaiting(str(frame.get("name", "")), _seconds(frame))
        if kind == "left":
            self.events = []
            return LeftRoom(str(frame.get("reason", "")))
        if kind == "bye":
            return HostClosing(str(frame.get("reason", "")))
        if kind == "past_games":
            return PastGamesListed(_maps(frame.get("games")))
        if kind == "standings":
            return StandingsShown(frame)
        if kind == "replay":
            return _replay_page(frame)
        return None

    def _logged(self, *entries: Frame) -> tuple[Frame, ...]:
        """The log with ``entries`` added, kept to its last :data:`LOG_LIMIT`."""
        self.events.extend(entries)
        del self.events[:-LOG_LIMIT]
        return tuple(self.events)


def said_alike(one: Frame, other: Frame) -> bool:
    """Whether two chat lines are the same line said once (same speaker, words and time)."""
    return (
        one.get("at") is not None
        and one.get("at") == other.get("at")
        and one.get("seat") == other.get("seat")
        and one.get("name") == other.get("name")
        and one.get("text") == other.get("text")
    )


def _maps(value: Any) -> list[Frame]:
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict)]


def _seconds(frame: Frame) -> float:
    return number_of(frame.get("seconds")) or 0.0


def _replay_page(frame: Frame) -> Message | None:
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
        app.post_message(ConnectFailed(describe_failure(exc, host, port)))
        return
    app.connection = connection
    app.post_message(Connected(dict(connection.welcome)))
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
    app.post_message(ConnectionClosed(reason))


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
