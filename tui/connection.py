"""What the client needs from a connection, and the one way screens send to the host.

The app is handed a :data:`ConnectionFactory`; the default one opens the real
reconnecting client from :mod:`partyhost.net.client`, tests hand in a fake.
Screens never write a message: they call :class:`HostRequests`, the client
library's typed request methods, whose messages the app hands to the
connection.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

from partyhost.net.client import RequestMethods

Frame = dict[str, Any]


class Connection(Protocol):
    """A live link to a host: the welcome, a way to send, and a stream of frames.

    The stream also carries ``{"t": "connection", "state": ...}`` items when a
    reconnecting link drops (``lost``), retries (``reconnecting``), comes back
    (``restored``) or gives up (``failed``).
    """

    @property
    def welcome(self) -> Frame: ...

    def write(self, message: Frame) -> None:
        """Send one message built by the client library's request methods, without waiting.

        Raises ``ConnectionLost`` when the link is down.
        """

    def __aiter__(self) -> AsyncIterator[Frame]: ...

    async def close(self) -> None: ...


ConnectionFactory = Callable[[str, int, str], Awaitable[Connection]]
"""``(host, port, name) -> Connection`` with the hello already done."""


class HostRequests(RequestMethods[bool]):
    """Every request, sent from the UI without waiting: ``True`` when it went out.

    ``queue`` sends in the background, or says why it cannot (offline) and
    returns ``False``, so a screen can keep what was typed.
    """

    def __init__(self, queue: Callable[[Frame], bool]) -> None:
        self._queue = queue

    def send(self, message: Frame) -> bool:
        return self._queue(message)
