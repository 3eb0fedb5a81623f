"""A connection whose peer is already gone closes quietly, without a traceback in the log.

Closing lingers (FIN first, then close); on a socket the peer has already reset,
``write_eof`` raises ``OSError`` (ENOTCONN), as it did when a bot came back on a new
connection while its old one was being closed.
"""

from __future__ import annotations

import asyncio
import errno
from typing import Any

import pytest
from partyhost.net.config import HostConfig
from partyhost.net.hosting.connection import Connection


class GoneTransport(asyncio.Transport):
    """A socket whose peer reset it: shutting down its writing side fails."""

    def __init__(self) -> None:
        super().__init__()
        self.closed = False

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        raise OSError(errno.ENOTCONN, "Transport endpoint is not connected")

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed


class Flushed:
    """The host's writer, with nothing waiting."""

    def flush(self) -> None:
        pass


class StubHost:
    config = HostConfig()
    journal = None
    outgoing = Flushed()


async def no_lobby(connection: Connection, message: dict[str, Any]) -> None:
    raise AssertionError("no request is read here")


async def test_closing_a_connection_whose_peer_is_gone_just_closes_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    connection = Connection(StubHost(), no_lobby)  # type: ignore[arg-type]
    transport = GoneTransport()
    connection.transport = transport
    connection.close("replaced by a new connection")
    assert transport.closed and connection.closed
    assert connection.close_reason == "replaced by a new connection"
    assert not [record for record in caplog.records if record.exc_info]
