"""The SSH door: ``ssh -t -p 2222 NAME@HOST`` opens the partyhost client, nothing installed.

An asyncssh server runs in the host's process. Each SSH session that asks for
a terminal gets a fresh pseudo-terminal and, on it, the ordinary client
(``partyhost join 127.0.0.1:PORT --name NAME``) as a child process in its own
session; the SSH channel is wired to the pty's master end. Whichever ends
first, the child or the channel, ends the other (SIGHUP to the child's process
group, then SIGKILL). A session without a terminal gets a one-line hint.

The host key is made once and kept in the host's data folder, so returning
players never see a changed-key warning.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hmac
import logging
import os
import re
import shutil
import signal
import struct
import sys
import tempfile
import termios
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import asyncssh
from partyhost.net.names import clean_name
from partyhost.net.protocol import MAX_NAME_LENGTH

log = logging.getLogger(__name__)

HOST_KEY_FILE = "ssh_host_ed25519_key"
DRAIN_SECONDS = 0.2
"""After the client exits, how long its last screen output gets to reach the channel."""
HANGUP_SECONDS = 3.0
"""How long a client may take to end after SIGHUP before it is killed."""
CLIENT_ENV = ("LANG", "LC_ALL", "LC_CTYPE", "COLORTERM", "NO_COLOR")
"""Variables an SSH client may send (``SendEnv``) that reach the partyhost client."""
DROPPED_ENV = frozenset({"COLUMNS", "LINES", "TERM", "TMUX", "TMUX_PANE", *CLIENT_ENV})
TERMINAL_RESET = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1004l\x1b[?2004l"
    b"\x1b[<u\x1b[0m\x1b[?7h\x1b[?25h\x1b[?1049l"
)
"""Mouse, focus and paste reporting off, keyboard protocol popped, line wrap back on,
cursor shown, main screen: what the client undoes on a normal exit."""
SAFE_TERM = re.compile(r"[A-Za-z0-9._+-]{1,64}")
SAFE_VALUE = re.compile(r"[A-Za-z0-9._@=+-]{0,64}")


@dataclass(frozen=True)
class DoorSettings:
    """Where the door listens, where its clients connect, and who may come in."""

    listen_host: str
    port: int
    game_host: str
    game_port: int
    password: str | None = None
    max_sessions: int = 32
    data_dir: Path | None = None


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


def client_environment(
    term: str | None, sent: Mapping[str, str], config_dir: Path
) -> dict[str, str]:
    """The child's environment: ours without size hints, plus the SSH client's terminal."""
    env = {name: value for name, value in os.environ.items() if name not in DROPPED_ENV}
    env["TERM"] = term if term and SAFE_TERM.fullmatch(term) else "xterm-256color"
    for name in CLIENT_ENV:
        value = sent.get(name)
        if isinstance(value, str) and SAFE_VALUE.fullmatch(value):
            env[name] = value
    env["PARTYHOST_CONFIG_DIR"] = str(config_dir)
    return env


def client_command(game_host: str, game_port: int, name: str) -> list[str]:
    """The partyhost client for one SSH visitor (no shell involved)."""
    address = f"[{game_host}]:{game_port}" if ":" in game_host else f"{game_host}:{game_port}"
    return [
        sys.executable,
        "-m",
        "partyhost.cli",
        "join",
        address,
        f"--name={name}",
        "--no-discovery",
        "--no-remember",
    ]


class _DoorServer(asyncssh.SSHServer):
    """Authentication: open to anyone on the LAN, or one party password."""

    def __init__(self, door: SSHDoor) -> None:
        self._door = door
        self._connection: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._connection = conn
        self._door.connections.add(conn)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._connection is not None:
            self._door.connections.discard(self._connection)

    def begin_auth(self, username: str) -> bool:
        return self._door.settings.password is not None

    def password_auth_supported(self) -> bool:
        return self._door.settings.password is not None

    def validate_password(self, username: str, password: str) -> bool:
        expected = self._door.settings.password or ""
        return hmac.compare_digest(password.encode(), expected.encode())


class SSHDoor:
    """The SSH server of one host. ``await start()``, later ``await close()``."""

    def __init__(self, settings: DoorSettings) -> None:
        self.settings = settings
        self.connections: set[asyncssh.SSHServerConnection] = set()
        self.children: dict[int, asyncio.subprocess.Process] = {}
        self.key: asyncssh.SSHKey | None = None
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._sessions: set[asyncio.Task[None]] = set()
        self._config_dir: Path | None = None
        self._closing = False

    @property
    def port(self) -> int:
        return self._acceptor.get_port() if self._acceptor is not None else self.settings.port

    @property
    def fingerprint(self) -> str:
        return self.key.get_fingerprint() if self.key is not None else ""

    async def start(self) -> None:
        """Load (or make) the host key and listen."""
        settings = self.settings
        self.key = await asyncio.to_thread(load_host_key, settings.data_dir)
        self._config_dir = Path(tempfile.mkdtemp(prefix="partyhost-ssh-"))
        try:
            self._acceptor = await asyncssh.listen(
                settings.listen_host or None,
                settings.port,
                server_factory=lambda: _DoorServer(self),
                server_host_keys=[self.key],
                process_factory=self._session,
                encoding=None,
                line_editor=False,
                agent_forwarding=False,
                x11_forwarding=False,
                allow_scp=False,
                login_timeout=30,
                keepalive_interval=15,
                keepalive_count_max=4,
            )
        except BaseException:
            shutil.rmtree(self._config_dir, ignore_errors=True)
            raise
        log.info("SSH door on port %d, host key %s", self.port, self.fingerprint)

    async def close(self) -> None:
        """Stop listening, end every visitor's client, close their connections."""
        self._closing = True
        if self._acceptor is not None:
            self._acceptor.close()
        for child in list(self.children.values()):
            _signal_group(child, signal.SIGHUP)
        if self._sessions:
            await asyncio.wait(list(self._sessions), timeout=HANGUP_SECONDS + 3)
        for connection in list(self.connections):
            connection.close()
        if self._acceptor is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._acceptor.wait_closed(), HANGUP_SECONDS)
            self._acceptor = None
        if self._config_dir is not None:
            shutil.rmtree(self._config_dir, ignore_errors=True)

    async def _session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
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

    async def _run_client(self, process: asyncssh.SSHServerProcess[bytes]) -> int:
        """Run the client on a new pty until it exits or the channel closes."""
        assert self._config_dir is not None
        username = str(process.get_extra_info("username") or "")
        name = clean_name(username, MAX_NAME_LENGTH)
        settings = self.settings
        command = client_command(settings.game_host, settings.game_port, name)
        env = client_environment(process.term_type, process.env, self._config_dir)
        master, slave = os.openpty()
        try:
            set_window_size(master, *process.term_size)
            child = await asyncio.create_subprocess_exec(
                *command,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                start_new_session=True,
                env=env,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self.children[child.pid] = child
        log.info("SSH: %r plays as %r (pid %d)", username, name, child.pid)
        try:
            process.set_redirect_pid(child.pid)
            try:
                # send_eof=False: the channel stays writable after the pty closes (see below).
                await process.redirect(stdin=os.dup(master), stdout=master, send_eof=False)
            except BaseException:
                os.close(master)
                raise
            exited = asyncio.ensure_future(child.wait())
            closed = asyncio.ensure_future(process.channel.wait_closed())
            await asyncio.wait({exited, closed}, return_when=asyncio.FIRST_COMPLETED)
            closed.cancel()
            if not exited.done():
                exited.cancel()
                return 0
            await asyncio.sleep(DRAIN_SECONDS)
            code = child.returncode or 0
            if code >= 0:
                return code
            # Killed (e.g. the host is closing): it could not restore the terminal itself.
            process.stdout.write(TERMINAL_RESET)
            _say(process, "partyhost: the game client ended; goodbye.")
            return 0 if self._closing else 128 - code
        finally:
            await _end(child)
            self.children.pop(child.pid, None)


def _say(process: asyncssh.SSHServerProcess[bytes], line: str) -> None:
    process.stderr.write(line.encode() + b"\r\n")


def _signal_group(child: asyncio.subprocess.Process, signum: int) -> None:
    if child.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(child.pid, signum)


async def _end(child: asyncio.subprocess.Process) -> None:
    """SIGHUP the child's process group; SIGKILL it if it lingers; reap it."""
    for signum in (signal.SIGHUP, signal.SIGKILL):
        if child.returncode is not None:
            break
        _signal_group(child, signum)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(child.wait(), HANGUP_SECONDS)
    if child.returncode is None:
        log.warning("SSH client pid %d did not end", child.pid)
