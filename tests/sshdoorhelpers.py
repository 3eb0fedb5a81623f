"""Helpers for the SSH door tests: a real `serve --ssh`, an in-process door, SSH clients.

The tests import this module directly (pytest puts ``tests/`` on the path);
``bench/ssh_door.py`` adds ``tests/`` to ``sys.path`` to import it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh
from partyhost.net.config import HostConfig
from partyhost.net.hosting.host import Host
from tmuxdriver import WAIT_SECONDS, clean_env, free_port, partyhost_command, stop

LOOPBACK = "127.0.0.1"
ESCAPES = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-B]|\x1b[=>]")


def ssh_options(port: int) -> list[str]:
    """OpenSSH talking to a throwaway host key, ignoring the user's own ssh config."""
    return [
        "-F",
        "/dev/null",
        "-p",
        str(port),
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "LogLevel=ERROR",
        "-o",
        "BatchMode=yes",
    ]


def wait_until(check: Callable[[], object], what: str, seconds: float = WAIT_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"waited {seconds:.0f} s for {what}"
        time.sleep(0.1)


# --- processes -------------------------------------------------------------------------------


def _stat_fields(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()


def parent_of(pid: int) -> int:
    return int(_stat_fields(pid)[1])


def alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped counts as gone)."""
    try:
        return _stat_fields(pid)[0] != "Z"
    except (OSError, IndexError):
        return False


def descendants(root: int) -> set[int]:
    """Every live process below ``root``."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                children.setdefault(parent_of(int(entry.name)), []).append(int(entry.name))
    found: set[int] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found and alive(child):
                found.add(child)
                todo.append(child)
    return found


def _command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def door_clients(game_port: int) -> list[int]:
    """Door visitors' clients (``partyhost.cli join``, in a visitor's folder) for ``game_port``.

    The spare the door keeps for its next visitor runs in the door's own folder.
    """
    return sorted(
        pid for pid in door_processes(game_port) if working_folder(pid).startswith("visitor-")
    )


def door_processes(game_port: int) -> list[int]:
    """Every client process of the door for ``game_port``: visitors' and the spare."""
    marker = f"\0join\0{LOOPBACK}:{game_port}\0".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and alive(int(entry.name)):
            command = _command_line(int(entry.name))
            if marker in command and b"partyhost.cli" in command:
                found.append(int(entry.name))
    return sorted(found)


def working_folder(pid: int) -> str:
    """The name of the folder ``pid`` works in ("" if it cannot be read)."""
    try:
        return Path(os.readlink(f"/proc/{pid}/cwd")).name
    except OSError:
        return ""


def environment_of(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    pairs = (item.partition(b"=") for item in raw.split(b"\0") if item)
    return {key.decode(errors="replace"): value.decode(errors="replace") for key, _, value in pairs}


# --- a real `partyhost serve --ssh` ---------------------------------------------------------


@dataclass
class DoorHost:
    """A running `partyhost serve --ssh`."""

    port: int
    ssh_port: int
    process: subprocess.Popen[bytes]
    data: Path
    log: Path


def listening(port: int) -> bool:
    try:
        with socket.create_connection((LOOPBACK, port), timeout=0.5):
            return True
    except OSError:
        return False


@contextlib.contextmanager
def serve_door(
    folder: Path,
    *extra: str,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    data: Path | None = None,
    name: str = "e2e host",
) -> Iterator[DoorHost]:
    """`partyhost serve --ssh` on loopback (no LAN advertisement), stopped afterwards."""
    data = data or folder / "host-data"
    folder.mkdir(parents=True, exist_ok=True)
    log_path = folder / "serve.log"
    with log_path.open("ab") as log:
        for _ in range(3):
            port, ssh_port = free_port(), free_port()
            command = [
                *partyhost_command(),
                "serve",
                *("--host", LOOPBACK, "--port", str(port), "--ssh", str(ssh_port)),
                *("--data", str(data), "--name", name, "--no-discovery"),
                *extra,
            ]
            process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=cwd,
                env=env or clean_env(),
            )
            deadline = time.monotonic() + WAIT_SECONDS
            while process.poll() is None and time.monotonic() < deadline:
                if listening(port) and listening(ssh_port):
                    break
                time.sleep(0.1)
            if process.poll() is None and listening(ssh_port):
                break
            stop(process)
        else:
            raise AssertionError(
                f"`partyhost serve --ssh` never listened:\n{log_path.read_text(encoding='utf-8')}"
            )
        try:
            yield DoorHost(port, ssh_port, process, data, log_path)
        finally:
            stop(process, grace=WAIT_SECONDS)  # a busy machine may take a while to clean up


# --- an in-process host and asyncssh clients --------------------------------------------------


@contextlib.asynccontextmanager
async def running_door(tmp_path: Path, **overrides: Any) -> AsyncIterator[Host]:
    """A host on loopback with its SSH door on a free port (``overrides`` may open another
    door instead: ``ssh_port=None, web_port=0``)."""
    settings: dict[str, Any] = {
        "host": LOOPBACK,
        "port": 0,
        "data_dir": tmp_path / "data",
        "host_name": "door host",
        "ssh_port": 0,
        "shutdown_timeout": 2.0,
    }
    config = HostConfig(**{**settings, **overrides})
    host = Host(config)
    await host.start()
    try:
        yield host
    finally:
        await host.close()


def ssh_port_of(host: Host) -> int:
    assert host.lan is not None and host.lan.ssh_port is not None
    return host.lan.ssh_port


def door_of(host: Host) -> Any:
    assert host.lan is not None and host.lan.door is not None
    return host.lan.door


async def ssh_connect(
    port: int, username: str = "tess", source: str = LOOPBACK, **options: Any
) -> Any:
    return await asyncssh.connect(
        LOOPBACK,
        port,
        username=username,
        local_addr=(source, 0),
        known_hosts=None,
        client_keys=None,
        agent_path=None,
        config=None,
        **options,
    )


async def open_terminal(connection: Any, columns: int = 100, rows: int = 30) -> Any:
    return await connection.create_process(
        term_type="xterm-256color", term_size=(columns, rows), encoding=None
    )


def plain(data: bytes | bytearray) -> bytes:
    """Terminal output with escape sequences removed."""
    return ESCAPES.sub(b"", bytes(data))


async def read_until(stream: Any, marker: bytes, seconds: float = WAIT_SECONDS) -> bytes:
    """Read a terminal stream until ``marker`` shows in its text (escape sequences removed)."""
    seen = b""
    async with asyncio.timeout(seconds):
        while marker not in plain(seen):
            chunk = await stream.read(4096)
            assert chunk, f"the stream ended before {marker!r}: {seen[-500:]!r}"
            seen += chunk
    return seen


async def no_visitors(host: Host, seconds: float = WAIT_SECONDS) -> None:
    """Wait until the door has no client left, and no client process is running."""
    door = door_of(host)
    async with asyncio.timeout(seconds):
        while door.clients or door_clients(host.port):
            await asyncio.sleep(0.05)
