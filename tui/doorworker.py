"""A door worker: one process forked from the session server, serving several visitors.

Each visitor is a partyhost client app (``join --locked``) running in this
process's event loop on the visitor's own pty (:mod:`partyhost.tui.doorterminal`).
Forked from a server that has the whole client loaded, a worker pays the
copy-on-write price of that code once for all its visitors, and each visitor
adds only the app's own few MB.

From the session server a worker receives requests (with the pty and the
session socket) and ``{"retire": true}``; it tells the server ``{"left": 1}``
each time a visitor's app ends. On a session socket it answers ``{"pid": N}``,
takes ``{"size": [COLUMNS, ROWS]}`` and ``{"hangup": true}`` from the door, and
reports ``{"exit": CODE}`` at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import signal
import socket
import struct
import termios
from collections.abc import Iterator
from typing import Any

from partyhost.net.doorwire import (
    HANGUP_SECONDS,
    MAX_MESSAGE,
    Request,
    close_quietly,
    decode,
    send_quietly,
)
from partyhost.tui.app import PartyApp
from partyhost.tui.doorterminal import Terminal, attach
from partyhost.tui.launch import make_app

log = logging.getLogger(__name__)

DRAIN_SECONDS = 1.0
"""How long an ending app's last output (the terminal reset) gets to reach the pty."""


@contextlib.contextmanager
def visitor_environment(env: dict[str, str]) -> Iterator[None]:
    """``os.environ`` as the visitor's, while their app is built (it reads TERM, NO_COLOR...).

    Building an app is synchronous, so no other visitor's code runs meanwhile.
    """
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def window_size(fd: int) -> tuple[int, int]:
    """The pty's size as the door set it (80x24 if it cannot be read)."""
    try:
        rows, columns, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, bytes(8)))
    except OSError:
        return 80, 24
    return (columns or 80), (rows or 24)


def _size_of(message: dict[str, Any]) -> tuple[int, int] | None:
    size = message.get("size")
    if isinstance(size, list) and len(size) == 2 and all(isinstance(n, int) for n in size):
        columns, rows = size
        if 0 < columns < 10000 and 0 < rows < 10000:
            return columns, rows
    return None


class Visitor:
    """One visitor's app, from the request to the exit report."""

    def __init__(self, request: Request, terminal_fd: int, channel: socket.socket) -> None:
        self.request = request
        self.channel = channel
        self.terminal = Terminal(terminal_fd, window_size(terminal_fd), self.hang_up)
        self.app: PartyApp | None = None
        self._hanging_up = False
        self._task: asyncio.Task[Any] | None = None

    async def run(self) -> int:
        self._task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        loop.add_reader(self.channel.fileno(), self._on_channel)
        code = 1
        try:
            with visitor_environment(self.request.env):
                self.app = make_app(
                    address=self.request.address,
                    name=self.request.name,
                    remember=False,
                    locked=True,
                )
            attach(self.app, self.terminal)
            result = await self.app.run_async(size=self.terminal.size)
            code = result if isinstance(result, int) else 0
            if self.app.return_code:
                code = self.app.return_code
            if self.terminal.driver is not None:
                await self.terminal.driver.drain(DRAIN_SECONDS)
        except asyncio.CancelledError:  # it did not end when hung up: counted as killed
            code = -signal.SIGKILL
        except Exception:
            log.exception("door visitor %r: the client failed", self.request.name)
            code = 1
        finally:
            loop.remove_reader(self.channel.fileno())
            close_quietly(self.terminal.fd)
            send_quietly(self.channel, {"exit": code})
            self.channel.close()
        return code

    def _on_channel(self) -> None:
        try:
            data = self.channel.recv(MAX_MESSAGE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.channel.fileno())
            self.hang_up()
            return
        message = decode(data)
        size = _size_of(message)
        if size is not None and self.terminal.driver is not None:
            self.terminal.driver.resize(*size)
        elif size is not None:
            self.terminal.size = size
        if message.get("hangup"):
            self.hang_up()

    def hang_up(self) -> None:
        """End the app (the visitor left or the door asks); cancel it if it lingers."""
        if self._hanging_up:
            return
        self._hanging_up = True
        if self.app is not None and self.app.is_running:
            self.app.exit(return_code=0)
        if self._task is not None:
            asyncio.get_running_loop().call_later(HANGUP_SECONDS, self._task.cancel)


class Worker:
    """Takes visitors from the session server until it is retired or the server goes away."""

    def __init__(self, control: socket.socket) -> None:
        self.control = control
        self.visitors: dict[asyncio.Task[int], Visitor] = {}
        self._retiring = False
        self._done = asyncio.Event()

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        self.control.setblocking(False)
        loop.add_reader(self.control.fileno(), self._on_control)
        await self._done.wait()
        loop.remove_reader(self.control.fileno())
        for visitor in list(self.visitors.values()):
            visitor.hang_up()
        if self.visitors:
            await asyncio.wait(list(self.visitors), timeout=2 * HANGUP_SECONDS)

    def _on_control(self) -> None:
        try:
            data, fds, _, _ = socket.recv_fds(self.control, MAX_MESSAGE, 2)
        except BlockingIOError:
            return
        except OSError:
            data, fds = b"", []
        if not data:
            self._done.set()  # the session server is gone: end every visitor
            return
        message = decode(data)
        if message.get("retire"):
            self._retiring = True
            if not self.visitors:
                self._done.set()
            return
        if len(fds) != 2:
            close_quietly(*fds)
            return
        terminal_fd, channel_fd = fds
        channel = socket.socket(fileno=channel_fd)
        channel.setblocking(False)
        request = Request.parse(message)
        if request is None:
            send_quietly(channel, {"error": "bad request"})
            channel.close()
            close_quietly(terminal_fd)
            send_quietly(self.control, {"left": 1})
            return
        send_quietly(channel, {"pid": os.getpid()})
        visitor = Visitor(request, terminal_fd, channel)
        task = asyncio.get_running_loop().create_task(visitor.run(), name=f"visitor {request.name}")
        self.visitors[task] = visitor
        task.add_done_callback(self._visitor_left)

    def _visitor_left(self, task: asyncio.Task[int]) -> None:
        self.visitors.pop(task, None)
        send_quietly(self.control, {"left": 1})
        if self._retiring and not self.visitors:
            self._done.set()


def run_worker(control: socket.socket) -> int:
    """The worker's whole life, in the forked child."""
    asyncio.run(Worker(control).serve())
    return 0
