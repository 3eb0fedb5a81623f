"""One SSH connection at the door: counted in or refused, password checked, one session.

Refusals, idle connections and wrong passwords are logged through the door's
:class:`~partyhost.net.addresslimits.QuietLog`, once per address and interval; wrong
passwords through its :class:`~partyhost.net.addresslimits.PasswordThrottle`.
"""

from __future__ import annotations

import asyncio
import hmac
from typing import TYPE_CHECKING, Protocol

import asyncssh
from partyhost.net.addresslimits import ConnectionCounter, PasswordThrottle, QuietLog

if TYPE_CHECKING:
    from partyhost.net.config import HostConfig


class Door(Protocol):
    """What a connection needs of its door (:class:`~partyhost.net.door.sshdoor.SSHDoor`)."""

    config: HostConfig
    """The host's settings: the door's password and login timeout are its ``ssh_*``."""
    connections: set[asyncssh.SSHServerConnection]
    counter: ConnectionCounter
    quiet: QuietLog
    passwords: PasswordThrottle

    async def session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        """Serve one SSH session (a client on a pty, or a hint)."""


class DoorConnection(asyncssh.SSHServer):
    """One SSH connection: counted in or refused, password checked, one session at most."""

    def __init__(self, door: Door) -> None:
        self._door = door
        self._connection: asyncssh.SSHServerConnection | None = None
        self._address = "unknown"
        self._admitted = False
        self._session_used = False
        self._sessions_open = 0
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
        if self._admitted and self._connection is not None:
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
        """No session opened in time (or none open any more): free the connection's slot."""
        self._idle_timer = None
        if self._sessions_open == 0 and self._connection is not None and self._admitted:
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
        self._sessions_open += 1
        self._cancel_idle_timer()
        return asyncssh.SSHServerProcess(self._run_session, None, 0, False)

    async def _run_session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        try:
            await self._door.session(process)
        finally:
            self._sessions_open -= 1
            if self._admitted:
                self._arm_idle_timer()
