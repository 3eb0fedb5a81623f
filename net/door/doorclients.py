"""A door visitor's client: a fresh ``partyhost join`` on a pty of its own, and its relay.

The client is started by ``subprocess``, never by forking the host (which has OpenSSL
loaded), one visitor ahead, so a visitor waits for the lobby, not for Python's imports; it
runs isolated (``python -I``) in a private home, seeing none of the host's variables.
The door relays the bytes itself so that it can hang up a visitor whose terminal stops
taking the screen (:data:`MAX_UNSENT`) and meter a flood of keys.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh
from partyhost.net.addresslimits import TokenBucket
from partyhost.net.door.visitorenv import (
    INPUT_BURST,
    INPUT_BYTES_PER_SECOND,
    JOIN_OPTIONS,
    client_environment,
    fit_screen,
)
from partyhost.net.platform import set_terminal_size

log = logging.getLogger(__name__)

HANGUP_SECONDS = 3.0
"""How long a visitor's client may take to end after a hangup before it is killed."""
DRAIN_SECONDS = 1.0
"""After the client exits, how long its last screen output (the terminal reset) gets."""
READ_BYTES = 65536
KEY_BYTES = 4096
MAX_UNSENT = 2 * 1024 * 1024
"""Screen output waiting for a visitor's terminal; past this the visitor is hung up."""
TAKE_TERMINAL = (
    "import fcntl, signal, termios\n"
    "fcntl.ioctl(0, termios.TIOCSCTTY, 0)\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "for signum in (signal.SIGQUIT, signal.SIGHUP, signal.SIGTERM):\n"
    "    signal.signal(signum, signal.SIG_DFL)\n"
)
"""The client's first step: its pty becomes its controlling terminal (``subprocess`` cannot
make it so), so SIGWINCH and the door's hangup reach it, and the signals a host started with
``&`` or ``nohup`` ignores act as by default: a client deaf to the hangup outlives its visitor."""
CLIENT_START = (
    TAKE_TERMINAL + "import json, os, socket, sys\n"
    "from partyhost.cli import main\n"
    "import partyhost.net.clients.client, partyhost.tui.app\n"  # what a visitor would wait for
    "with socket.socket(fileno=int(sys.argv[1])) as door:\n"
    "    with door.makefile(encoding='utf-8') as orders:\n"
    "        order = orders.readline()\n"
    "    if not order:\n"
    "        sys.exit(0)\n"
    "    door.sendall(b'.')\n"
    "visitor = json.loads(order)\n"
    "os.environ.clear()\n"
    "os.environ.update(visitor['env'])\n"
    "os.chdir(visitor['folder'])\n"
    "sys.exit(main([*sys.argv[2:], *visitor['arguments']]))\n"
)
"""A spare: it loads the client, then reads its visitor's name, environment and folder (one
JSON line) from a socket, says it took them (one byte) and runs ``partyhost join``."""
TAKE_SECONDS = 30.0
"""How long a spare may take to acknowledge its visitor (it may still be loading the client)."""


def client_command(door: int, address: str) -> list[str]:
    """This Python, isolated, to run ``partyhost join``: this host only, nothing kept on disk."""
    return [
        *(sys.executable, "-I", "-c", CLIENT_START, str(door)),
        *("join", address, *JOIN_OPTIONS),
    ]


@dataclass(eq=False)
class ClientLauncher:
    """Starts each visitor's client one visitor ahead: a spare waits, the client loaded,
    with an environment as bare as its visitor's until it is taken."""

    address: str
    home: Path
    _spare: tuple[VisitorClient, socket.socket] | None = None
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def launch(
        self, name: str, env: dict[str, str], folder: Path, columns: int, rows: int
    ) -> VisitorClient:
        """The spare, given to this visitor (a new one if it died); the next spare started."""
        order = {"arguments": [f"--name={name}"], "env": env, "folder": str(folder)}
        async with self._lock:
            spare, self._spare = self._spare, None
            client = await _hand_over(spare or await self._start_spare(), order, columns, rows)
            if client is None:  # the spare died waiting: a new one, straight away
                client = await _hand_over(await self._start_spare(), order, columns, rows)
            await self.replenish()
        if client is None:
            raise OSError("the client did not start")
        return client

    async def _start_spare(self) -> tuple[VisitorClient, socket.socket]:
        door, theirs = socket.socketpair()
        try:
            client = await VisitorClient.start(
                client_command(theirs.fileno(), self.address),
                client_environment(None, {}, self.home),
                self.home,
                pass_fds=(theirs.fileno(),),
            )
        except BaseException:
            door.close()
            raise
        finally:
            theirs.close()
        door.setblocking(False)
        return client, door

    async def replenish(self) -> None:
        """A spare for the next visitor; if none can start now, that visitor starts one."""
        try:
            self._spare = await self._start_spare()
        except OSError as exc:
            log.warning("SSH door: cannot start a client ahead: %s", exc)

    async def close(self) -> None:
        async with self._lock:
            if self._spare is not None:
                client, door = self._spare
                self._spare = None
                door.close()
                await client.end()

    @property
    def spare_pid(self) -> int | None:
        return self._spare[0].pid if self._spare is not None else None


async def _hand_over(
    spare: tuple[VisitorClient, socket.socket], order: dict[str, Any], columns: int, rows: int
) -> VisitorClient | None:
    """Tell a spare who its visitor is; None if it is gone. Only its answer proves it took
    the order: a spare killed a moment ago may still hold its end open."""
    client, door = spare
    loop = asyncio.get_running_loop()
    try:
        set_terminal_size(client.master, *fit_screen(columns, rows))
        await loop.sock_sendall(door, json.dumps(order).encode() + b"\n")
        if await asyncio.wait_for(loop.sock_recv(door, 1), TAKE_SECONDS):
            return client
    except (OSError, TimeoutError):  # it died (EPIPE, or no answer) or hangs waiting
        pass
    finally:
        door.close()
    await client.end()
    return None


class VisitorClient:
    """One visitor's client process (leading its own session, so a hangup reaches all it
    started), and the relay between its pty and the SSH session."""

    def __init__(self, process: asyncio.subprocess.Process, master: int) -> None:
        self.process = process
        self.pid = process.pid
        self.master = master
        self._output_ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._dropped: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    @classmethod
    async def start(
        cls,
        command: list[str],
        env: dict[str, str],
        folder: Path,
        columns: int = 80,
        rows: int = 24,
        pass_fds: tuple[int, ...] = (),
    ) -> VisitorClient:
        master, terminal = os.openpty()
        try:
            set_terminal_size(master, *fit_screen(columns, rows))
            process = await asyncio.create_subprocess_exec(
                *command,
                stdin=terminal,
                stdout=terminal,
                stderr=terminal,
                start_new_session=True,
                env=env,
                cwd=folder,
                pass_fds=pass_fds,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(terminal)  # the client holds the only terminal end: its exit ends the output
        os.set_blocking(master, False)
        return cls(process, master)

    async def relay(self, session: asyncssh.SSHServerProcess[bytes]) -> int | None:
        """Carry bytes until one side ends: the client's exit code, or None if the visitor went."""
        loop = asyncio.get_running_loop()
        loop.add_reader(self.master, self._on_output, session)
        keys = asyncio.ensure_future(self._forward_keys(session))
        exited = asyncio.ensure_future(self.process.wait())
        closed = asyncio.ensure_future(session.channel.wait_closed())
        try:
            ends: set[asyncio.Future[Any]] = {exited, closed, self._dropped}
            await asyncio.wait(ends, return_when=asyncio.FIRST_COMPLETED)
            if exited.done() and not closed.done() and not self._dropped.done():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(self._output_ended), DRAIN_SECONDS)
                return exited.result()
            return None
        finally:
            for task in (keys, exited, closed):
                task.cancel()
            loop.remove_reader(self.master)

    def _on_output(self, session: asyncssh.SSHServerProcess[bytes]) -> None:
        try:
            data = os.read(self.master, READ_BYTES)
        except BlockingIOError:
            return
        except OSError:  # EIO: every terminal end is closed (the client is gone)
            data = b""
        if data:
            try:
                session.stdout.write(data)
            except OSError:  # the channel is closing: so is the relay
                data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            _settle(self._output_ended)
        elif session.channel.get_write_buffer_size() > MAX_UNSENT:
            asyncio.get_running_loop().remove_reader(self.master)
            log.info("SSH door: pid %d's visitor stopped reading the screen; hanging up", self.pid)
            _settle(self._dropped)

    async def _forward_keys(self, session: asyncssh.SSHServerProcess[bytes]) -> None:
        """The visitor's keys and window changes, to the pty; metered (unread keys wait in SSH)."""
        meter = TokenBucket(INPUT_BYTES_PER_SECOND, INPUT_BURST)
        while True:
            try:
                data = await session.stdin.read(KEY_BYTES)
            except asyncssh.TerminalSizeChanged as change:
                if change.width > 0 and change.height > 0:  # the kernel signals SIGWINCH
                    set_terminal_size(self.master, *fit_screen(change.width, change.height))
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            if not data:
                return
            await self._write_keys(data)
            await asyncio.sleep(meter.wait_after(len(data), time.monotonic()))

    async def _write_keys(self, data: bytes) -> None:
        """Write all of ``data`` to the pty, waiting while the client does not read its input."""
        loop = asyncio.get_running_loop()
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.master, view) :]
            except BlockingIOError:
                writable: asyncio.Future[None] = loop.create_future()
                loop.add_writer(self.master, _settle, writable)
                try:
                    await writable
                finally:
                    loop.remove_writer(self.master)
            except OSError:
                return  # the client is gone: its exit ends the session

    def hang_up(self) -> None:
        """Ask the client to end, as a terminal hangup would."""
        if self.process.returncode is None:
            self._signal(signal.SIGHUP)

    async def end(self) -> None:
        """Hang up, kill it if it lingers, wait until it is gone, close the pty."""
        try:
            for signum in (signal.SIGHUP, signal.SIGKILL):
                if self.process.returncode is not None:
                    return
                self._signal(signum)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.process.wait(), HANGUP_SECONDS)
            if self.process.returncode is None:
                log.warning("SSH door: client pid %d did not end", self.pid)
        finally:
            os.close(self.master)

    def _signal(self, signum: int) -> None:
        """Signal the client's whole session (it leads its own process group)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signum)


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
