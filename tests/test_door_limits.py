"""The door holds: connection caps per address and in total, one session per connection,
a login timeout, slow answers to wrong passwords, and a log that does not grow with a flood.

Attacks come from several loopback source addresses (127.0.0.2, .3, ...).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from pathlib import Path

import asyncssh
import pytest
from partyhost.net.addresslimits import ConnectionCounter, QuietLog
from partyhost.net.config import HostConfig
from sshdoorhelpers import (
    LOOPBACK,
    door_of,
    no_visitors,
    open_terminal,
    read_until,
    running_door,
    ssh_connect,
    ssh_port_of,
)
from tmuxdriver import WAIT_SECONDS

DOOR_LOG = "partyhost.net"


def lines(caplog: pytest.LogCaptureFixture, text: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if text in r.getMessage()]


async def closed_by_door(sock: socket.socket, seconds: float = WAIT_SECONDS) -> bool:
    """True once the door has closed this raw TCP connection (reads end-of-stream)."""
    loop = asyncio.get_running_loop()
    sock.setblocking(False)
    try:
        async with asyncio.timeout(seconds):
            while await loop.sock_recv(sock, 4096):
                pass
    except ConnectionResetError:
        pass
    return True


async def raw_connection(port: int, source: str) -> socket.socket:
    """A TCP connection to the door that says nothing (the event loop keeps running)."""
    sock = socket.socket()
    sock.setblocking(False)
    sock.bind((source, 0))
    await asyncio.get_running_loop().sock_connect(sock, (LOOPBACK, port))
    return sock


async def test_connections_are_capped_per_address_and_in_total(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, DOOR_LOG)
    limits = {"ssh_max_connections": 5, "ssh_max_per_address": 2}
    async with running_door(tmp_path, **limits) as host:
        port, door = ssh_port_of(host), door_of(host)
        kept = [await ssh_connect(port, source=source) for source in ("127.0.0.2",) * 2]
        for _ in range(20):  # a flood from one address: refused before any SSH work
            with pytest.raises((asyncssh.Error, OSError)):
                await ssh_connect(port, source="127.0.0.2")
        kept += [await ssh_connect(port, source=s) for s in ("127.0.0.3", "127.0.0.3", "127.0.0.4")]
        with pytest.raises((asyncssh.Error, OSError)):
            await ssh_connect(port, source="127.0.0.5")  # the door is full
        assert door.counter.total == 5 and door.counter.held_by("127.0.0.2") == 2
        kept.pop().close()  # one leaves: a place opens for anyone
        async with asyncio.timeout(WAIT_SECONDS):
            while door.counter.total != 4:
                await asyncio.sleep(0.02)
        async with await ssh_connect(port, source="127.0.0.5") as latecomer:
            process = await open_terminal(latecomer)
            await read_until(process.stdout, b"Welcome to door host")
        for connection in kept:
            connection.close()
        await no_visitors(host)
    refused_2 = lines(caplog, "refused 127.0.0.2")
    assert len(refused_2) == 1, "logged once per address and interval, not per attempt"
    assert "2 connections from this address already" in refused_2[0]
    assert len(lines(caplog, "refused 127.0.0.5")) == 1


async def test_a_flood_of_idle_sockets_leaves_the_game_port_and_the_log_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, DOOR_LOG)
    async with running_door(tmp_path, ssh_max_connections=8, ssh_max_per_address=2) as host:
        port, door = ssh_port_of(host), door_of(host)
        flood = [await raw_connection(port, f"127.0.0.{2 + n % 6}") for n in range(300)]
        try:
            await asyncio.sleep(0.5)
            assert door.counter.total <= 8
            reader, writer = await asyncio.open_connection(LOOPBACK, host.port)
            writer.close()  # the game port still accepts
            assert reader is not None
        finally:
            for sock in flood:
                sock.close()
    refusals = lines(caplog, "SSH door: refused")
    assert 0 < len(refusals) <= 6, refusals


async def test_one_session_per_connection(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, DOOR_LOG)
    async with running_door(tmp_path) as host:
        async with await ssh_connect(ssh_port_of(host)) as connection:
            process = await open_terminal(connection)
            await read_until(process.stdout, b"Welcome to door host")
            for _ in range(3):
                with pytest.raises(asyncssh.ChannelOpenError):
                    await open_terminal(connection)
            assert len(door_of(host).clients) == 1
        await no_visitors(host)
    assert len(lines(caplog, "second session")) == 1


async def test_a_connection_that_does_not_log_in_or_open_a_session_is_closed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, DOOR_LOG)
    async with running_door(tmp_path, ssh_login_timeout=0.5) as host:
        port, door = ssh_port_of(host), door_of(host)
        silent = await raw_connection(port, "127.0.0.2")  # never says a word
        assert await closed_by_door(silent)
        silent.close()
        connection = await ssh_connect(port, source="127.0.0.3")  # logs in, opens nothing
        async with asyncio.timeout(WAIT_SECONDS):
            await connection.wait_closed()
        assert door.counter.total == 0
    assert lines(caplog, "idle connection from 127.0.0.3")


async def test_wrong_passwords_are_answered_ever_more_slowly_per_address(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, DOOR_LOG)
    first = 0.05
    async with running_door(tmp_path, ssh_password="kazoo", wrong_password_delay=first) as host:
        port = ssh_port_of(host)
        for _ in range(HostConfig.wrong_password_free):  # typos cost nothing
            with pytest.raises(asyncssh.PermissionDenied):
                await ssh_connect(port, source="127.0.0.2", password="typo")
        for slowed in range(3):
            started = time.monotonic()
            with pytest.raises(asyncssh.PermissionDenied):
                await ssh_connect(port, source="127.0.0.2", password="guess")
            assert time.monotonic() - started >= first * 2**slowed
        started = time.monotonic()  # parallel guesses from one address wait in line:
        guesses = [ssh_connect(port, source="127.0.0.2", password=f"g{n}") for n in range(2)]
        results = await asyncio.gather(*guesses, return_exceptions=True)
        assert all(isinstance(r, asyncssh.PermissionDenied) for r in results)
        assert time.monotonic() - started >= 2 * first * 2**3  # each its wait, one after another
        async with await ssh_connect(port, source="127.0.0.2", password="kazoo"):
            pass  # the right password still works, after its wait
    logged = lines(caplog, "wrong SSH door password from 127.0.0.2")
    assert len(logged) == 1, "one line per address and interval, not one per guess"
    assert logged[0].endswith("; 1 in the last 600 s")


async def test_a_guesser_does_not_slow_anyone_else(tmp_path: Path) -> None:
    async with running_door(tmp_path, ssh_password="kazoo", wrong_password_delay=30.0) as host:
        port = ssh_port_of(host)
        for _ in range(HostConfig.wrong_password_free):
            with pytest.raises(asyncssh.PermissionDenied):
                await ssh_connect(port, source="127.0.0.2", password="typo")
        guess = asyncio.ensure_future(ssh_connect(port, source="127.0.0.2", password="guess"))
        try:
            async with await ssh_connect(port, source="127.0.0.3", password="kazoo"):
                assert not guess.done(), "the guess is still held while others come in"
        finally:
            guess.cancel()
            await asyncio.gather(guess, return_exceptions=True)


def test_quiet_log_says_once_per_interval_how_many_were_held_back() -> None:
    now = [0.0]
    records: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    logger = logging.getLogger("test.quietlog")
    logger.addHandler(Collect())
    quiet = QuietLog(logger, interval=60.0, clock=lambda: now[0])
    assert quiet.warning("refused", "10.0.0.2", "refused 10.0.0.2")
    for _ in range(500):
        assert not quiet.warning("refused", "10.0.0.2", "refused 10.0.0.2")
    assert quiet.warning("refused", "10.0.0.3", "refused 10.0.0.3")  # another address
    assert quiet.warning("password", "10.0.0.2", "wrong password")  # another kind
    now[0] = 61.0
    assert quiet.warning("refused", "10.0.0.2", "refused 10.0.0.2")
    assert not quiet.warning("refused", "10.0.0.2", "refused 10.0.0.2 again")
    quiet.flush()  # within the interval: nothing yet
    now[0] = 122.0
    quiet.flush()  # then what was held back, once, even with no new refusal
    quiet.flush()
    assert records == [
        "refused 10.0.0.2",
        "refused 10.0.0.3",
        "wrong password",
        "refused 10.0.0.2 (500 more like it in the last 60 s)",
        "refused 10.0.0.2 again (1 like it since the last line)",
    ]


def test_connection_counter_arithmetic() -> None:
    counter = ConnectionCounter(total=3, per_address=2)
    assert counter.admit("a") is None and counter.admit("a") is None
    assert counter.admit("a") == "2 connections from this address already"
    assert counter.admit("b") is None
    assert counter.admit("c") == "the door holds 3 connections at most"
    counter.release("a")
    counter.release("zzz")  # never admitted: no effect
    assert counter.total == 2 and counter.admit("c") is None
