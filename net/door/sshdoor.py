"""The SSH door: ``ssh -t -p 2222 NAME@HOST`` opens the partyhost client, nothing installed.

An asyncssh server in the host's process; each connection, counted and capped, may open one
session, whose terminal gets a client (:mod:`.doorclients`) relayed to the channel. The host
key is kept in the host's data folder, so returning players never see a changed key.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from pathlib import Path
from typing import TYPE_CHECKING

import asyncssh
from partyhost.net.address import with_port
from partyhost.net.addresslimits import ConnectionCounter, PasswordThrottle, QuietLog
from partyhost.net.credentials import write_private
from partyhost.net.door.doorclients import HANGUP_SECONDS, ClientLauncher, VisitorClient
from partyhost.net.door.visitorenv import DoorFolders, client_environment
from partyhost.net.names import clean_name
from partyhost.net.protocol import MAX_NAME_LENGTH

if TYPE_CHECKING:
    from partyhost.net.config import HostConfig

log = logging.getLogger(__name__)

HOST_KEY_FILE = "ssh_host_ed25519_key"
TERMINAL_RESET = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1004l\x1b[?2004l"
    b"\x1b[<u\x1b[0m\x1b[?7h\x1b[?25h\x1b[?1049l"
)
"""Mouse, focus and paste reporting off, keyboard protocol popped, line wrap back on,
cursor shown, main screen: what the client undoes on a normal exit."""


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
    write_private(path, key.export_private_key())
    path.with_name(path.name + ".pub").write_bytes(key.export_public_key())
    return key


class SSHDoor:
    """The SSH server of one host, whose visitors' clients connect to the game port at
    ``game_host``. ``await start()``, later ``await close()``."""

    def __init__(self, config: HostConfig, game_host: str, game_port: int) -> None:
        self.config = config
        self.game_address = with_port(game_host, game_port)
        self.connections: set[asyncssh.SSHServerConnection] = set()
        self.clients: set[VisitorClient] = set()
        self.counter = ConnectionCounter(config.ssh_max_connections, config.ssh_max_per_address)
        self.quiet = QuietLog(log)
        self.passwords = PasswordThrottle(config, "SSH door password")
        self.folders = DoorFolders(config.data_dir)
        self.launcher: ClientLauncher | None = None
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._sessions: set[asyncio.Task[None]] = set()
        self._closing = False

    @property
    def port(self) -> int:
        return (
            self._acceptor.get_port() if self._acceptor is not None else self.config.ssh_port or 0
        )

    async def start(self) -> None:
        """Load (or make) the host key, sweep old folders, start a spare client, listen."""
        config = self.config
        key = await asyncio.to_thread(load_host_key, config.data_dir)
        root = await asyncio.to_thread(self.folders.open)
        self.launcher = ClientLauncher(self.game_address, root)
        try:
            await self.launcher.replenish()
            self._acceptor = await asyncssh.listen(
                config.host or None,
                config.ssh_port or 0,
                server_factory=lambda: DoorConnection(self),
                server_host_keys=[key],
                encoding=None,
                line_editor=False,
                agent_forwarding=False,
                x11_forwarding=False,
                allow_scp=False,
                login_timeout=config.ssh_login_timeout,
                keepalive_interval=15,
                keepalive_count_max=4,
            )
        except BaseException:
            await self._close_launcher()
            raise
        log.info("SSH door on port %d, host key %s", self.port, key.get_fingerprint())

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
        await self._close_launcher()

    async def _close_launcher(self) -> None:
        """End the spare client, then remove the door's folders."""
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
            if process.term_type is None:  # the command that works, at the address used
                sockname = process.get_extra_info("sockname")
                host = sockname[0] if isinstance(sockname, tuple) and sockname else "HOST"
                hint = f"ssh -t -p {self.port} NAME@{host}"
                _say(process, f"partyhost needs a terminal: connect with {hint}")
            elif self._closing:
                _say(process, "The host is closing; no new games here.")
            elif len(self._sessions) >= self.config.ssh_max_sessions:
                limit = self.config.ssh_max_sessions
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

    async def _run_client(self, process: asyncssh.SSHServerProcess[bytes]) -> int:
        """Run a client on a new pty until it exits or the visitor goes; the exit status."""
        assert self.launcher is not None
        username = str(process.get_extra_info("username") or "")
        name = clean_name(username, MAX_NAME_LENGTH)
        folder = self.folders.visitor()
        try:
            env = client_environment(process.term_type, process.env, folder)
            client = await self.launcher.launch(name, env, folder, *process.term_size[:2])
            log.info("SSH: %r plays as %r (pid %d)", username, name, client.pid)
            self.clients.add(client)
            try:
                code = await client.relay(process)
            finally:
                await client.end()
                self.clients.discard(client)
        finally:
            self.folders.discard(folder)
        if code is None or code >= 0:
            return code or 0  # the visitor left: nobody reads the status
        # Killed (e.g. the host is closing): it could not restore the terminal itself.
        process.stdout.write(TERMINAL_RESET)
        _say(process, "partyhost: the game client ended; goodbye.")
        return 0 if self._closing else 128 - code


class DoorConnection(asyncssh.SSHServer):
    """One SSH connection: counted in or refused, password checked, one session at most."""

    def __init__(self, door: SSHDoor) -> None:
        self._door = door
        self._connection: asyncssh.SSHServerConnection  # set first, by connection_made
        self._address = "unknown"
        self._admitted = False
        self._session_used = False
        self._idle_timer: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._connection = conn
        peer = conn.get_extra_info("peername")
        if isinstance(peer, tuple) and peer:
            self._address = str(peer[0])
        refusal = self._door.counter.admit(self._address)
        if refusal is not None:
            self._door.quiet.warning(
                "refused", self._address, f"SSH door: refused {self._address}: {refusal}"
            )
            conn.abort()
            return
        self._admitted = True
        self._door.connections.add(conn)
        self._arm_idle_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_idle_timer()
        if self._admitted:
            self._admitted = False
            self._door.counter.release(self._address)
            self._door.connections.discard(self._connection)

    def _arm_idle_timer(self) -> None:
        self._cancel_idle_timer()
        loop = asyncio.get_running_loop()
        self._idle_timer = loop.call_later(self._door.config.ssh_login_timeout, self._close_idle)

    def _cancel_idle_timer(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None

    def _close_idle(self) -> None:
        """No session opened in time (or none open any more): free the connection's slot. The
        timer runs only while the connection is admitted and has no session open."""
        self._idle_timer = None
        seconds = self._door.config.ssh_login_timeout
        self._door.quiet.warning(
            "idle",
            self._address,
            f"SSH door: closed an idle connection from {self._address}"
            f" (no session open for {seconds:g} s)",
        )
        self._connection.close()

    def begin_auth(self, username: str) -> bool:
        return self._door.config.ssh_password is not None

    def password_auth_supported(self) -> bool:
        return self._door.config.ssh_password is not None

    async def validate_password(self, username: str, password: str) -> bool:
        expected = (self._door.config.ssh_password or "").encode()
        await asyncio.sleep(self._door.passwords.wait_before_try(self._address))
        right = hmac.compare_digest(password.encode(), expected)
        if not right:
            self._door.passwords.failed(self._address)
        return right

    def session_requested(self) -> asyncssh.SSHServerProcess[bytes] | bool:
        if self._session_used:
            self._door.quiet.warning(
                "sessions",
                self._address,
                f"SSH door: refused a second session on one connection from {self._address}",
            )
            return False
        self._session_used = True
        self._cancel_idle_timer()
        return asyncssh.SSHServerProcess(self._run_session, None, 0, False)

    async def _run_session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        try:
            await self._door.session(process)
        finally:
            if self._admitted:
                self._arm_idle_timer()


def _say(process: asyncssh.SSHServerProcess[bytes], line: str) -> None:
    process.stderr.write(line.encode() + b"\r\n")
