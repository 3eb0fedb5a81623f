"""What the client needs from a connection, so screens can be tested without a host.

The app is handed a :data:`ConnectionFactory`; the default one opens the real
reconnecting client from :mod:`partyhost.net.client`, tests hand in a fake.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

Frame = dict[str, Any]


class Connection(Protocol):
    """A live link to a host: the welcome, a way to send, and a stream of frames.

    The stream also carries ``{"t": "connection", "state": ...}`` items when a
    reconnecting link drops (``lost``), retries (``reconnecting``), comes back
    (``restored``) or gives up (``failed``).
    """

    @property
    def welcome(self) -> Frame: ...

    def send(self, message: Frame) -> Any:
        """Queue one message (may return an awaitable)."""

    def __aiter__(self) -> AsyncIterator[Frame]: ...

    async def close(self) -> None: ...


ConnectionFactory = Callable[[str, int, str], Awaitable[Connection]]
"""``(host, port, name) -> Connection`` with the hello already done."""


async def send_message(connection: Connection, message: Frame) -> None:
    """Send through either a plain or a coroutine ``send``."""
    result = connection.send(message)
    if inspect.isawaitable(result):
        await result
