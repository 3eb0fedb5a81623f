"""How the door starts a visitor's client: in a shared worker, or as a fresh process.

Either way the client is the installed partyhost (an isolated interpreter, so
nothing in the folder ``serve`` was started in is ever imported), runs in a
private folder that is also its home, sees only the variables a terminal
program needs (never the door password or anything else of the host's), and
is locked to this host (``join --locked``).

:class:`SharedSessions` (the default) keeps one session server
(:mod:`partyhost.tui.doorserver`) that has the client loaded and forks workers
that serve several visitors each. :class:`FreshProcesses` starts
``python -I -m partyhost.cli join ...`` for each visitor: slower and heavier,
kept as the baseline the benchmark compares against.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import signal
import socket
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from partyhost.net.doorwire import (
    HANGUP_SECONDS,
    MAX_MESSAGE,
    Request,
    decode,
    encode,
    send_quietly,
    seqpacket_pair,
)

log = logging.getLogger(__name__)

START_SECONDS = 60.0
"""How long the session server may take to load the client (a busy 2-core laptop is slow)."""
ANSWER_SECONDS = 10.0
"""How long the session server may take to answer one request for a client."""
CLIENT_ENV = ("LANG", "LC_ALL", "LC_CTYPE", "COLORTERM", "NO_COLOR")
"""Variables an SSH client may send (``SendEnv``) that reach the partyhost client."""
SAFE_TERM = re.compile(r"[A-Za-z0-9._+-]{1,64}")
SAFE_VALUE = re.compile(r"[A-Za-z0-9._@=+-]{0,64}")


def game_address(game_host: str, game_port: int) -> str:
    """``HOST:PORT`` as ``partyhost join`` reads it (IPv6 in brackets)."""
    return f"[{game_host}]:{game_port}" if ":" in game_host else f"{game_host}:{game_port}"


def client_environment(term: str | None, sent: Mapping[str, str], home: Path) -> dict[str, str]:
    """The client's whole environment: the visitor's terminal, and folders inside ``home``."""
    env = {
        "PATH": os.defpath,
        "HOME": str(home),
        "TMPDIR": str(home),
        "LANG": "C.UTF-8",
        "TERM": term if term and SAFE_TERM.fullmatch(term) else "xterm-256color",
        "PARTYHOST_CONFIG_DIR": str(home / "config"),
        "PARTYHOST_DATA_DIR": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_STATE_HOME": str(home / "state"),
    }
    for name in CLIENT_ENV:
        value = sent.get(name)
        if isinstance(value, str) and SAFE_VALUE.fullmatch(value):
            env[name] = value
    return env


def isolated_python() -> list[str]:
    """This Python, isolated: no script or working folder on the path, no ``PYTHON*`` variables."""
    return [sys.executable, "-I"]


class RunningClient(Protocol):
    """One visitor's client: a process of its own, or an app in a shared worker."""

    pid: int
    """The process running it (a shared worker serves several visitors)."""
    signals_by_pid: bool
    """True when window sizes and SSH signals must be sent to ``pid`` (its own process)."""

    def resize(self, columns: int, rows: int) -> None:
        """The visitor's window changed (the pty already has the new size)."""

    async def wait(self) -> int:
        """Its exit code (negative: the signal that ended it)."""

    def hang_up(self) -> None:
        """Ask it to end, as a terminal hangup would."""

    async def end(self) -> None:
        """Hang up, kill it if it lingers, and wait until it is gone."""


class ClientLauncher(Protocol):
    async def start(self) -> None: ...

    async def launch(self, request: Request, terminal: int) -> RunningClient:
        """Start a client on the pty's terminal end (the caller keeps and closes ``terminal``)."""

    async def close(self) -> None: ...


# --- the baseline: a fresh process per visitor ---------------------------------------------


class FreshClient:
    signals_by_pid = True

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.pid = process.pid

    def resize(self, columns: int, rows: int) -> None:
        return None  # asyncssh signals SIGWINCH to ``pid``

    async def wait(self) -> int:
        return await self.process.wait()

    def hang_up(self) -> None:
        if self.process.returncode is None:
            _signal_group(self.pid, signal.SIGHUP)

    async def end(self) -> None:
        for signum in (signal.SIGHUP, signal.SIGKILL):
            if self.process.returncode is not None:
                return
            _signal_group(self.pid, signum)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), HANGUP_SECONDS)
        if self.process.returncode is None:
            log.warning("SSH client pid %d did not end", self.pid)


class FreshProcesses:
    """``python -I -m partyhost.cli join ...`` per visitor (imports everything each time)."""

    async def start(self) -> None:
        return None

    async def launch(self, request: Request, terminal: int) -> RunningClient:
        process = await asyncio.create_subprocess_exec(
            *isolated_python(),
            "-m",
            "partyhost.cli",
            *request.arguments(),
            stdin=terminal,
            stdout=terminal,
            stderr=terminal,
            start_new_session=True,
            env=request.env,
            cwd=request.folder,
        )
        return FreshClient(process)

    async def close(self) -> None:
        return None


# --- the default: forked by the session server ----------------------------------------------


class SharedClient:
    """One visitor's app in a shared worker, followed through its session socket."""

    signals_by_pid = False

    def __init__(self, pid: int, channel: socket.socket) -> None:
        self.pid = pid
        self._channel = channel
        self._exit: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read(), name=f"door client {pid}")

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        code = -signal.SIGKILL  # the server went away without a word: treat it as killed
        try:
            while True:
                data = await loop.sock_recv(self._channel, MAX_MESSAGE)
                if not data:
                    break
                reported = decode(data).get("exit")
                if isinstance(reported, int):
                    code = reported
                    break
        except OSError:
            pass
        finally:
            self._channel.close()
            if not self._exit.done():
                self._exit.set_result(code)

    def resize(self, columns: int, rows: int) -> None:
        if not self._exit.done():
            send_quietly(self._channel, {"size": [columns, rows]})

    async def wait(self) -> int:
        return await asyncio.shield(self._exit)

    def hang_up(self) -> None:
        if not self._exit.done():
            send_quietly(self._channel, {"hangup": True})

    async def end(self) -> None:
        self.hang_up()
        try:
            await asyncio.wait_for(self.wait(), 2 * HANGUP_SECONDS + 1)
        except TimeoutError:
            # The worker's event loop is stuck: every visitor in it is stuck too.
            log.warning("SSH door worker %d is not answering; ending it", self.pid)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self.pid, signal.SIGKILL)
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader


class SharedSessions:
    """Owns the session server process; asks it for a place in a worker per visitor."""

    def __init__(self, folder: Path, per_worker: int) -> None:
        self.folder = folder
        self.per_worker = per_worker
        self.process: asyncio.subprocess.Process | None = None
        self._control: socket.socket | None = None
        self._starting = asyncio.Lock()
        self._generation = 0
        """How many times the server was started: restarts happen once per failure seen."""

    async def start(self) -> None:
        async with self._starting:
            if self.process is None or self.process.returncode is not None:
                await self._start_server()

    async def _start_server(self) -> None:
        await self._stop_server()
        self._generation += 1
        mine, theirs = seqpacket_pair()
        try:
            self.process = await asyncio.create_subprocess_exec(
                *isolated_python(),
                "-m",
                "partyhost.tui.doorserver",
                str(theirs.fileno()),
                str(self.per_worker),
                pass_fds=(theirs.fileno(),),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                env={"PATH": os.defpath, "LANG": "C.UTF-8", "HOME": str(self.folder)},
                cwd=self.folder,
                start_new_session=True,
            )
        except BaseException:
            mine.close()
            raise
        finally:
            theirs.close()
        mine.setblocking(False)
        self._control = mine
        try:
            async with asyncio.timeout(START_SECONDS):
                answer = decode(await asyncio.get_running_loop().sock_recv(mine, MAX_MESSAGE))
        except TimeoutError:
            answer = {"error": f"no answer in {START_SECONDS:.0f} s"}
        if "ready" not in answer:
            await self._stop_server()
            reason = answer.get("error") or "it exited"
            raise OSError(f"the SSH door's session server did not start: {reason}")
        log.info("SSH door: session server ready (pid %d)", self.process.pid)

    async def launch(self, request: Request, terminal: int) -> RunningClient:
        for _ in range(2):
            generation = self._generation
            if self.process is None or self.process.returncode is not None:
                await self._restart(generation)
                continue
            try:
                return await self._ask(request, terminal)
            except ConnectionError:  # the server died since it was last asked
                await self._restart(generation)
        return await self._ask(request, terminal)

    async def _restart(self, generation: int) -> None:
        """Start the server again, unless another visitor's request already did."""
        async with self._starting:
            if self._generation == generation:
                log.warning("SSH door: the session server is gone; starting it again")
                await self._start_server()

    async def _ask(self, request: Request, terminal: int) -> RunningClient:
        """One request to the server: the visitor's place in a worker, or OSError."""
        assert self._control is not None
        mine, theirs = seqpacket_pair()
        try:
            await _send_with_fds(
                self._control, encode(request.message()), [terminal, theirs.fileno()]
            )
        except BaseException:
            mine.close()
            raise
        finally:
            theirs.close()
        mine.setblocking(False)
        try:
            async with asyncio.timeout(ANSWER_SECONDS):
                data = await asyncio.get_running_loop().sock_recv(mine, MAX_MESSAGE)
        except TimeoutError:
            mine.close()
            raise OSError("the session server did not answer") from None
        except OSError:
            data = b""
        if not data:
            mine.close()
            raise ConnectionResetError("the session server hung up")
        answer = decode(data)
        pid = answer.get("pid")
        if not isinstance(pid, int):
            mine.close()
            raise OSError(str(answer.get("error") or "the session server said no"))
        return SharedClient(pid, mine)

    async def close(self) -> None:
        await self._stop_server()

    async def _stop_server(self) -> None:
        """Close the control socket (the server ends its children and exits); reap it."""
        if self._control is not None:
            self._control.close()
            self._control = None
        process, self.process = self.process, None
        if process is None or process.returncode is not None:
            return
        try:
            await asyncio.wait_for(process.wait(), 2 * HANGUP_SECONDS + 1)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()


async def _send_with_fds(sock: socket.socket, data: bytes, fds: list[int]) -> None:
    """One message with descriptors on a non-blocking socket, waiting while it is full."""
    loop = asyncio.get_running_loop()
    while True:
        try:
            socket.send_fds(sock, [data], fds)
            return
        except BlockingIOError:
            await _writable(loop, sock)


async def _writable(loop: asyncio.AbstractEventLoop, sock: socket.socket) -> None:
    ready: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_writer(sock.fileno(), wake)
    try:
        await ready
    finally:
        loop.remove_writer(sock.fileno())


def _signal_group(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signum)
