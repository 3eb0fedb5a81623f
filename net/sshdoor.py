"""The SSH door: ``ssh -t -p 2222 NAME@HOST`` opens the partyhost client, nothing installed.

An asyncssh server runs in the host's process. Each SSH connection may open
one session; a session that asks for a terminal gets a fresh pseudo-terminal
and, on it, the ordinary client (``partyhost join 127.0.0.1:PORT --name NAME
--locked``), run by a worker of the door's session server or as a fresh
process (:mod:`partyhost.net.doorclients`); the SSH channel is wired to the
pty's master end. Whichever ends first, the client or the channel, ends the
other (hangup, then kill). A session without a terminal gets a one-line hint.

Connections are capped in total and per address, must open their session
within the login timeout, and wrong passwords are answered ever more slowly
(:mod:`partyhost.net.doorconnection`, :mod:`partyhost.net.doorguard`). The
host key is made once and kept in the host's data folder, so returning
players never see a changed-key warning.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import struct
import termios
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import asyncssh
from partyhost.net.doorclients import (
    ClientLauncher,
    FreshProcesses,
    RunningClient,
    SharedSessions,
    client_environment,
    game_address,
)
from partyhost.net.doorconnection import DoorConnection, DoorProcess
from partyhost.net.doorfolders import DoorFolders
from partyhost.net.doorguard import (
    BACKOFF_FIRST,
    Caps,
    ConnectionCounter,
    PasswordBackoff,
    QuietLog,
)
from partyhost.net.doorwire import HANGUP_SECONDS, Request
from partyhost.net.names import clean_name
from partyhost.net.protocol import MAX_NAME_LENGTH

if TYPE_CHECKING:
    from partyhost.net.config import HostConfig

log = logging.getLogger(__name__)

HOST_KEY_FILE = "ssh_host_ed25519_key"
DRAIN_SECONDS = 0.2
"""After the client exits, how long its last screen output gets to reach the channel."""
TERMINAL_RESET = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1004l\x1b[?2004l"
    b"\x1b[<u\x1b[0m\x1b[?7h\x1b[?25h\x1b[?1049l"
)
"""Mouse, focus and paste reporting off, keyboard protocol popped, line wrap back on,
cursor shown, main screen: what the client undoes on a normal exit."""


@dataclass(frozen=True)
class DoorSettings:
    """Where the door listens, where its clients connect, who may come in and how many."""

    listen_host: str
    port: int
    game_host: str
    game_port: int
    password: str | None = None
    max_sessions: int = 32
    max_connections: int = 64
    max_per_address: int = 4
    login_timeout: float = 20.0
    """Seconds a connection has to log in and open its session."""
    password_backoff: float = BACKOFF_FIRST
    """Seconds the first wrong password from an address waits (then doubling)."""
    session_mode: Literal["shared", "fresh"] = "shared"
    """shared: clients in workers forked from the session server; fresh: a new process each."""
    visitors_per_worker: int = 3
    data_dir: Path | None = None

    @classmethod
    def from_config(cls, config: HostConfig, game_host: str, game_port: int) -> DoorSettings:
        return cls(
            listen_host=config.host,
            port=config.ssh_port or 0,
            game_host=game_host,
            game_port=game_port,
            password=config.ssh_password,
            max_sessions=config.ssh_max_sessions,
            max_connections=config.ssh_max_connections,
            max_per_address=config.ssh_max_per_address,
            login_timeout=config.ssh_login_timeout,
            password_backoff=config.ssh_password_backoff,
            session_mode=config.ssh_session_mode,
            visitors_per_worker=config.ssh_visitors_per_worker,
            data_dir=config.data_dir,
        )


def load_host_key(data_dir: Path | None) -> asyncssh.SSHKey:
    """The door's Ed25519 host key from ``data_dir``, made on first use (memory only for None)."""
    if data_dir is None:
        return asyncssh.generate_private_key("ssh-ed25519")
    path = data_dir / HOST_KEY_FILE
    if path.exists():
        try:
            return asyncssh.read_private_key(path)
        except (OSError, asyncssh.KeyImportError) as exc:
            raise OSError(f"cannot read the SSH host key {path}: {exc}; move it away") from exc
    key = asyncssh.generate_private_key("ssh-ed25519", comment="partyhost")
    data_dir.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.unlink(missing_ok=True)
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(key.export_private_key())
    os.replace(temporary, path)
    path.with_name(path.name + ".pub").write_bytes(key.export_public_key())
    return key


def set_window_size(fd: int, columns: int, rows: int, xpixel: int = 0, ypixel: int = 0) -> None:
    """TIOCSWINSZ on a pty; zero sizes (a client that sent none) become 80x24."""
    size = struct.pack("HHHH", rows or 24, columns or 80, xpixel, ypixel)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, size)


class SSHDoor:
    """The SSH server of one host. ``await start()``, later ``await close()``."""

    def __init__(self, settings: DoorSettings) -> None:
        self.settings = settings
        self.connections: set[asyncssh.SSHServerConnection] = set()
        self.clients: set[RunningClient] = set()
        self.counter = ConnectionCounter(Caps(settings.max_connections, settings.max_per_address))
        self.quiet = QuietLog(log)
        self.backoff = PasswordBackoff(first=settings.password_backoff)
        self.folders = DoorFolders(settings.data_dir)
        self.launcher: ClientLauncher | None = None
        self.key: asyncssh.SSHKey | None = None
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._launcher_ready: asyncio.Task[None] | None = None
        self._sessions: set[asyncio.Task[None]] = set()
        self._closing = False

    @property
    def port(self) -> int:
        return self._acceptor.get_port() if self._acceptor is not None else self.settings.port

    @property
    def password(self) -> str | None:
        return self.settings.password

    @property
    def login_timeout(self) -> float:
        return self.settings.login_timeout

    @property
    def fingerprint(self) -> str:
        return self.key.get_fingerprint() if self.key is not None else ""

    async def start(self) -> None:
        """Load (or make) the host key, sweep old folders, listen; load clients meanwhile."""
        settings = self.settings
        self.key = await asyncio.to_thread(load_host_key, settings.data_dir)
        folder = await asyncio.to_thread(self.folders.open)
        launcher: ClientLauncher = (
            FreshProcesses()
            if settings.session_mode == "fresh"
            else SharedSessions(folder, settings.visitors_per_worker)
        )
        self.launcher = launcher
        self._launcher_ready = asyncio.create_task(launcher.start(), name="SSH door clients")
        self._launcher_ready.add_done_callback(_report_launcher)
        try:
            self._acceptor = await asyncssh.listen(
                settings.listen_host or None,
                settings.port,
                server_factory=lambda: DoorConnection(self),
                server_host_keys=[self.key],
                encoding=None,
                line_editor=False,
                agent_forwarding=False,
                x11_forwarding=False,
                allow_scp=False,
                login_timeout=settings.login_timeout,
                keepalive_interval=15,
                keepalive_count_max=4,
            )
        except BaseException:
            await self._stop_launcher()
            raise
        log.info("SSH door on port %d, host key %s", self.port, self.fingerprint)

    async def close(self) -> None:
        """Stop listening, end every visitor's client, close their connections."""
        self._closing = True
        if self._acceptor is not None:
            self._acceptor.close()
        for client in list(self.clients):
            client.hang_up()
        if self._sessions:
            await asyncio.wait(list(self._sessions), timeout=2 * HANGUP_SECONDS + 3)
        for connection in list(self.connections):
            connection.close()
        if self._acceptor is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._acceptor.wait_closed(), HANGUP_SECONDS)
            self._acceptor = None
        await self._stop_launcher()

    async def _stop_launcher(self) -> None:
        if self._launcher_ready is not None:
            self._launcher_ready.cancel()
            with contextlib.suppress(BaseException):
                await self._launcher_ready
            self._launcher_ready = None
        if self.launcher is not None:
            await self.launcher.close()
            self.launcher = None
        await asyncio.to_thread(self.folders.close)

    async def session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        """One SSH session: a client on a pty, or a hint and goodbye."""
        task = asyncio.current_task()
        assert task is not None
        status = 1
        try:
            if process.term_type is None:
                _say(process, f"partyhost needs a terminal: connect with {self._ssh_hint(process)}")
            elif self._closing:
                _say(process, "The host is closing; no new games here.")
            elif len(self._sessions) >= self.settings.max_sessions:
                limit = self.settings.max_sessions
                _say(process, f"The SSH door is full (at most {limit} at once); try again later.")
            else:
                self._sessions.add(task)
                status = await self._run_client(process)
        except Exception:
            log.exception("SSH session failed")
            with contextlib.suppress(Exception):
                _say(process, "partyhost: the door could not start a game client; sorry.")
        finally:
            self._sessions.discard(task)
            with contextlib.suppress(Exception):  # exit() itself skips a closed channel
                process.exit(status)
                await asyncio.wait_for(process.wait_closed(), HANGUP_SECONDS)

    def _ssh_hint(self, process: asyncssh.SSHServerProcess[bytes]) -> str:
        """The command that works, with the address this visitor used."""
        sockname = process.get_extra_info("sockname")
        host = sockname[0] if isinstance(sockname, tuple) and sockname else "HOST"
        return f"ssh -t -p {self.port} NAME@{host}"

    async def _start_client(
        self, process: asyncssh.SSHServerProcess[bytes], folder: Path, terminal: int
    ) -> RunningClient:
        assert self.launcher is not None and self._launcher_ready is not None
        username = str(process.get_extra_info("username") or "")
        name = clean_name(username, MAX_NAME_LENGTH)
        settings = self.settings
        request = Request(
            game_address(settings.game_host, settings.game_port),
            name,
            client_environment(process.term_type, process.env, folder),
            str(folder),
        )
        await asyncio.shield(self._launcher_ready)
        client = await self.launcher.launch(request, terminal)
        log.info("SSH: %r plays as %r (pid %d)", username, name, client.pid)
        return client

    async def _run_client(self, process: asyncssh.SSHServerProcess[bytes]) -> int:
        """Run the client on a new pty until it exits or the channel closes."""
        folder = self.folders.visitor()
        try:
            master, terminal = os.openpty()
            try:
                set_window_size(master, *process.term_size)
                client = await self._start_client(process, folder, terminal)
            except BaseException:
                os.close(master)
                raise
            finally:
                os.close(terminal)
            self.clients.add(client)
            try:
                return await self._relay(process, client, master)
            finally:
                await client.end()
                self.clients.discard(client)
        finally:
            self.folders.discard(folder)

    async def _relay(
        self, process: asyncssh.SSHServerProcess[bytes], client: RunningClient, master: int
    ) -> int:
        """Wire the channel to the pty until one side ends; the exit status for the visitor."""
        if client.signals_by_pid:
            process.set_redirect_pid(client.pid)
        elif isinstance(process, DoorProcess):
            process.on_resize = client.resize
        try:
            # send_eof=False: the channel stays writable after the pty closes (see below).
            await process.redirect(stdin=os.dup(master), stdout=master, send_eof=False)
        except BaseException:
            os.close(master)
            raise
        exited = asyncio.ensure_future(client.wait())
        closed = asyncio.ensure_future(process.channel.wait_closed())
        await asyncio.wait({exited, closed}, return_when=asyncio.FIRST_COMPLETED)
        closed.cancel()
        if not exited.done():
            exited.cancel()
            return 0
        await asyncio.sleep(DRAIN_SECONDS)
        code = exited.result()
        if code >= 0:
            return code
        # Killed (e.g. the host is closing): it could not restore the terminal itself.
        process.stdout.write(TERMINAL_RESET)
        _say(process, "partyhost: the game client ended; goodbye.")
        return 0 if self._closing else 128 - code


def _report_launcher(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("SSH door: cannot start visitors' clients: %s", task.exception())


def _say(process: asyncssh.SSHServerProcess[bytes], line: str) -> None:
    process.stderr.write(line.encode() + b"\r\n")
