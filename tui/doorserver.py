"""The door's session server: the client loaded once, workers forked from it.

Started by the door as ``python -I -m partyhost.tui.doorserver FD [PER_WORKER]``
(isolated: nothing from the folder ``serve`` was started in is importable, no
``PYTHON*`` variables, an environment without secrets). It imports the whole
client, rehearses it once headless against a host of its own on loopback
(so lazily built tables and caches exist before forking), freezes those
objects out of the garbage collector's sight and then forks workers
(:mod:`partyhost.tui.doorworker`), each serving up to ``PER_WORKER`` visitors.
The loaded code is shared copy-on-write by every worker; each visitor costs
only their app's few MB, and no visitor waits for imports.

The door talks to the server over the ``SOCK_SEQPACKET`` socket ``FD``
(:mod:`partyhost.net.doorwire`). A request carries the visitor's pty and the
session's own socket; the server hands both to a worker with room (forking a
new one if none has) and forgets them. A worker whose last visitor left is
retired. When the door's end of ``FD`` closes, the server ends every worker
and exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import logging
import os
import pkgutil
import selectors
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass

from partyhost.net.doorwire import (
    HANGUP_SECONDS,
    MAX_MESSAGE,
    close_quietly,
    decode,
    send_quietly,
    seqpacket_pair,
)

log = logging.getLogger(__name__)

PER_WORKER = 3
"""Visitors one worker serves: fewer isolate better, more share more memory."""
PRELOADED_PACKAGES = ("partyhost.tui",)
"""Imported with every submodule before the first fork, so no visitor waits for them."""
PRELOADED_MODULES = ("partyhost.net.client", "textual.widgets")
REHEARSAL_SECONDS = 20.0
LOOPBACK = "127.0.0.1"
SERVER_NAME = b"partyhost-door"
WORKER_NAME = b"partyhost-guest"
"""Process names ``ps -e`` and ``top`` show for the server and its workers."""


def name_process(name: bytes) -> None:
    """Set the name ``ps`` shows (best effort)."""
    with contextlib.suppress(OSError), open("/proc/self/comm", "wb") as comm:
        comm.write(name)


def preload() -> None:
    """Import the client and everything it will import, before any fork."""
    for package_name in PRELOADED_PACKAGES:
        package = importlib.import_module(package_name)
        for module in pkgutil.walk_packages(package.__path__, package_name + "."):
            importlib.import_module(module.name)
    for module_name in PRELOADED_MODULES:
        importlib.import_module(module_name)


def rehearse() -> None:
    """Run the client once, headless, against a host on loopback: caches filled before forking.

    Only a head start for visitors' first screens: a rehearsal that fails is logged.
    """
    from partyhost.net.config import HostConfig
    from partyhost.net.host import Host
    from partyhost.tui.launch import make_app

    async def visit() -> None:
        config = HostConfig(host=LOOPBACK, port=0, host_name="rehearsal", shutdown_timeout=1.0)
        host = Host(config)
        await host.start()
        try:
            address = f"{LOOPBACK}:{host.port}"
            app = make_app(address=address, name="rehearsal", remember=False, locked=True)
            async with app.run_test(size=(100, 30)) as pilot:
                async with asyncio.timeout(REHEARSAL_SECONDS):
                    while app.wanted_screen() != "lobby":
                        await pilot.pause(0.01)
                await pilot.pause()
                await pilot.press("j", "a", "b", "escape")
                await pilot.pause()
        finally:
            await host.close()

    try:
        asyncio.run(visit())
    except Exception as exc:
        log.warning("the client's rehearsal failed (%r); visitors' first screens come slower", exc)


@dataclass
class _Worker:
    pid: int
    pidfd: int
    control: socket.socket
    visitors: int = 0
    retired: bool = False
    kill_at: float | None = None


class SessionServer:
    """Hands visitors to workers; forks, retires and reaps them. One thread, one selector."""

    def __init__(self, control: socket.socket, per_worker: int = PER_WORKER) -> None:
        self.control = control
        self.per_worker = max(1, per_worker)
        self.selector = selectors.DefaultSelector()
        self.workers: dict[int, _Worker] = {}
        self.closing = False

    def serve(self) -> None:
        self.control.setblocking(True)
        self.selector.register(self.control, selectors.EVENT_READ, None)
        while not (self.closing and not self.workers):
            for key, _ in self.selector.select(self._next_timeout()):
                if key.data is None:
                    self._on_request()
                elif key.fileobj is key.data.control:
                    self._on_worker_message(key.data)
                else:
                    self._reap(key.data)
            self._kill_lingering()

    def _next_timeout(self) -> float | None:
        deadlines = [w.kill_at for w in self.workers.values() if w.kill_at is not None]
        return max(0.0, min(deadlines) - time.monotonic()) if deadlines else None

    def _on_request(self) -> None:
        try:
            data, fds, _, _ = socket.recv_fds(self.control, MAX_MESSAGE, 2)
        except OSError:
            data, fds = b"", []
        if not data:
            self._close()
            return
        if len(fds) != 2:
            close_quietly(*fds)
            return
        try:
            worker = self._worker_with_room()
            socket.send_fds(worker.control, [data], fds, socket.MSG_DONTWAIT)
            worker.visitors += 1
        except OSError as exc:
            with socket.socket(fileno=os.dup(fds[1])) as channel:
                send_quietly(channel, {"error": f"cannot start a client: {exc.strerror or exc}"})
        finally:
            close_quietly(*fds)

    def _worker_with_room(self) -> _Worker:
        if self.closing:
            raise OSError("the door is closing")
        for worker in self.workers.values():
            if not worker.retired and worker.visitors < self.per_worker:
                return worker
        return self._fork_worker()

    def _fork_worker(self) -> _Worker:
        mine, theirs = seqpacket_pair()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _become_worker(theirs)
        theirs.close()
        worker = _Worker(pid, os.pidfd_open(pid), mine)
        self.workers[pid] = worker
        self.selector.register(worker.pidfd, selectors.EVENT_READ, worker)
        self.selector.register(worker.control, selectors.EVENT_READ, worker)
        return worker

    def _on_worker_message(self, worker: _Worker) -> None:
        try:
            data = worker.control.recv(MAX_MESSAGE)
        except OSError:
            data = b""
        if not data:
            self.selector.unregister(worker.control)
            worker.retired = True
            return
        left = decode(data).get("left")
        if isinstance(left, int):
            worker.visitors = max(0, worker.visitors - left)
        if worker.visitors == 0 and not worker.retired:
            worker.retired = True
            send_quietly(worker.control, {"retire": True})

    def _reap(self, worker: _Worker) -> None:
        try:
            ended, status = os.waitpid(worker.pid, os.WNOHANG)
        except ChildProcessError:
            ended, status = worker.pid, 0
        if ended == 0:
            return
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            log.warning(
                "door worker %d ended with %d (%d visitors)", worker.pid, code, worker.visitors
            )
        self.selector.unregister(worker.pidfd)
        os.close(worker.pidfd)
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(worker.control)
        worker.control.close()
        del self.workers[worker.pid]

    def _close(self) -> None:
        """The door is gone or closing: every worker hangs up its visitors and ends."""
        self.closing = True
        self.selector.unregister(self.control)
        deadline = time.monotonic() + 2 * HANGUP_SECONDS
        for worker in self.workers.values():
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(worker.control)
            worker.control.shutdown(socket.SHUT_RDWR)
            worker.kill_at = deadline

    def _kill_lingering(self) -> None:
        now = time.monotonic()
        for worker in self.workers.values():
            if worker.kill_at is not None and worker.kill_at <= now:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.pid, signal.SIGKILL)
                worker.kill_at = now + HANGUP_SECONDS


def _become_worker(control: socket.socket) -> None:
    """In the forked child: shed the server's descriptors, serve visitors, exit."""
    code = 70
    try:
        keep = control.fileno()
        os.closerange(3, keep)
        os.closerange(keep + 1, os.sysconf("SC_OPEN_MAX"))
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.setsid()  # a session (and so a scheduler autogroup) of its own, as a client process had
        name_process(WORKER_NAME)
        gc.enable()
        from partyhost.tui.doorworker import run_worker

        code = run_worker(control)
    except BaseException:
        log.exception("door worker failed")
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2 or not all(arg.isdigit() for arg in argv):
        print("usage: python -I -m partyhost.tui.doorserver FD [PER_WORKER] (the SSH door runs it)")
        return 2
    control = socket.socket(fileno=int(argv[0]))
    per_worker = int(argv[1]) if len(argv) == 2 else PER_WORKER
    logging.basicConfig(level=logging.WARNING, format="partyhost door: %(message)s")
    gc.disable()  # no collections while loading: fewer freed holes in the pages workers share
    name_process(SERVER_NAME)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the door ends the server, not Ctrl+C
    try:
        preload()
    except Exception as exc:
        send_quietly(control, {"error": f"cannot load the client: {exc!r}"})
        raise
    rehearse()
    if threading.active_count() != 1:
        send_quietly(control, {"error": "a thread outlived the rehearsal; cannot fork safely"})
        return 1
    gc.collect()
    gc.freeze()
    send_quietly(control, {"ready": os.getpid()})
    SessionServer(control, per_worker).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
