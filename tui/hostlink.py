"""The client's network worker: one connection to a host, its frames turned into messages.

The app runs :func:`follow_host` in one exclusive worker. It opens the
connection through the app's factory and posts ``Connected``, then one message
per frame (:class:`~partyhost.tui.frames.FrameReader`), and at the end
``ConnectionClosed`` with a sentence a person understands. Nothing that goes
wrong with the link ends the app.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Protocol

from partyhost.net.client import ConnectionFailed
from partyhost.tui import messages as m
from partyhost.tui.connection import Connection, ConnectionFactory
from partyhost.tui.frames import FrameReader
from textual.message import Message


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
        app.post_message(m.ConnectFailed(describe_failure(exc, host, port)))
        return
    app.connection = connection
    app.post_message(m.Connected(dict(connection.welcome)))
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
    app.post_message(m.ConnectionClosed(reason))


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
