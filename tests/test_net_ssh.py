"""The SSH door: the real OpenSSH client plays through it; passwords, caps and keys hold.

The end-to-end test runs ``partyhost serve --ssh`` as a subprocess on loopback
and ``ssh -tt`` inside tmux (tests/tmuxdriver.py), so the keys
and the screen are a person's. The rest start a host in this process and use
asyncssh's client, or OpenSSH without a terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from partyhost.cli import SSH_PASSWORD_ENV, build_parser, main, serve_config
from partyhost.net.address import DEFAULT_SSH_PORT
from partyhost.net.config import HostConfig
from partyhost.net.host import Host
from partyhost.net.sshdoor import HOST_KEY_FILE, client_command
from test_e2e_tmux import ROUND, create_room, play_rounds
from tmuxdriver import WAIT_SECONDS, Terminal, clean_env, free_port, partyhost_command, stop

LOOPBACK = "127.0.0.1"
NO_SSH = shutil.which("ssh") is None
needs_ssh = pytest.mark.skipif(NO_SSH, reason="the OpenSSH client (ssh) is not installed")
needs_tmux = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed: it is the player's terminal"
)


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


def door_clients(game_port: int) -> list[int]:
    """Pids of the partyhost clients the door started for the host on ``game_port``."""
    marker = f"join {LOOPBACK}:{game_port} ".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if marker in command and b"partyhost.cli" in command:
            found.append(int(entry.name))
    return found


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def wait_until(check: Any, what: str, seconds: float = WAIT_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"waited {seconds:.0f} s for {what}"
        time.sleep(0.1)


@dataclass
class DoorHost:
    """A running `partyhost serve --ssh`."""

    port: int
    ssh_port: int
    process: subprocess.Popen[bytes]
    data: Path


def listening(port: int) -> bool:
    try:
        with socket.create_connection((LOOPBACK, port), timeout=0.5):
            return True
    except OSError:
        return False


@pytest.fixture
def door_host(tmp_path: Path) -> Iterator[DoorHost]:
    """`partyhost serve --ssh` on loopback (no LAN advertisement), stopped afterwards."""
    data = tmp_path / "host-data"
    with (tmp_path / "serve.log").open("wb") as log:
        for _ in range(3):
            port, ssh_port = free_port(), free_port()
            command = [
                *partyhost_command(),
                "serve",
                *("--host", LOOPBACK, "--port", str(port), "--ssh", str(ssh_port)),
                *("--data", str(data), "--name", "e2e host", "--no-discovery"),
            ]
            process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
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
            raise AssertionError("`partyhost serve --ssh` never listened")
        try:
            yield DoorHost(port, ssh_port, process, data)
        finally:
            stop(process)


@needs_ssh
@needs_tmux
@pytest.mark.e2e
def test_a_player_plays_a_round_over_ssh_and_leaves_nothing_behind(
    door_host: DoorHost, terminal: Terminal
) -> None:
    terminal.start(["ssh", "-tt", *ssh_options(door_host.ssh_port), f"tess@{LOOPBACK}"])
    terminal.wait_for("Welcome to e2e host")
    create_room(terminal)
    terminal.keys("b", "b", "b")
    seated = terminal.wait_for(lambda s: "4 seated" in s and "Bot 3" in s)
    assert "tess" in seated, "the SSH user name is the player's name"
    terminal.keys("s")
    narrow = terminal.wait_for(lambda s: ROUND.search(s))
    assert "say something" not in narrow  # 100 columns: no room for the chat column

    terminal.tmux("resize-window", "-t", terminal.target, "-x", "120", "-y", "40")

    def wide(screen: str) -> bool:
        """the 120x40 layout: the chat column, and the footer on row 40"""
        rows = screen.splitlines()
        return "say something" in screen and len(rows) >= 40 and "Help" in rows[39]

    terminal.wait_for(wide)
    play_rounds(terminal, {"submit"})

    [client] = door_clients(door_host.port)
    assert parent_of(client) == door_host.process.pid, "the client runs inside the host process"
    terminal.close()  # the player closes the terminal: ssh dies with it
    wait_until(lambda: not door_clients(door_host.port), "the door's client to end")
    assert door_host.process.poll() is None
    assert (door_host.data / HOST_KEY_FILE).exists()


@needs_ssh
def test_a_session_without_a_terminal_gets_a_one_line_hint(door_host: DoorHost) -> None:
    done = subprocess.run(
        ["ssh", "-T", *ssh_options(door_host.ssh_port), f"tess@{LOOPBACK}"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=WAIT_SECONDS,
        env=clean_env(),
        check=False,
    )
    command = f"ssh -t -p {door_host.ssh_port} NAME@{LOOPBACK}"
    hint = f"partyhost needs a terminal: connect with {command}"
    assert done.returncode == 1
    assert done.stderr.decode().splitlines() == [hint]
    assert door_clients(door_host.port) == []
    assert f"  {command}" in (door_host.data.parent / "serve.log").read_text()  # serve said so


# --- in-process host, asyncssh client ---------------------------------------------------


@contextlib.asynccontextmanager
async def running_door(tmp_path: Path, **overrides: Any) -> AsyncIterator[Host]:
    config = HostConfig(
        host=LOOPBACK,
        port=0,
        data_dir=tmp_path / "data",
        host_name="door host",
        ssh_port=0,
        shutdown_timeout=2.0,
        **overrides,
    )
    host = Host(config)
    await host.start()
    try:
        yield host
    finally:
        await host.close()


def ssh_port_of(host: Host) -> int:
    assert host.lan is not None and host.lan.ssh_port is not None
    return host.lan.ssh_port


async def ssh_connect(host: Host, username: str = "tess", **options: Any) -> Any:
    return await asyncssh.connect(
        LOOPBACK,
        ssh_port_of(host),
        username=username,
        known_hosts=None,
        client_keys=None,
        agent_path=None,
        config=None,
        **options,
    )


ESCAPES = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07")


async def read_until(stream: Any, marker: bytes, seconds: float = WAIT_SECONDS) -> bytes:
    """Read a terminal stream until ``marker`` shows in its text (escape sequences removed)."""
    seen = b""
    async with asyncio.timeout(seconds):
        while marker not in ESCAPES.sub(b"", seen):
            chunk = await stream.read(4096)
            assert chunk, f"the stream ended before {marker!r}: {seen[-500:]!r}"
            seen += chunk
    return seen


async def gone(host: Host, seconds: float = WAIT_SECONDS) -> None:
    """Wait until the door has no client process left."""
    assert host.lan is not None and host.lan.door is not None
    door = host.lan.door
    async with asyncio.timeout(seconds):
        while door.children or door_clients(host.port):
            await asyncio.sleep(0.05)


async def test_the_party_password_keeps_out_a_wrong_one_and_lets_in_the_right_one(
    tmp_path: Path,
) -> None:
    async with running_door(tmp_path, ssh_password="kazoo") as host:
        with pytest.raises(asyncssh.PermissionDenied):
            await ssh_connect(host, password="trumpet")
        with pytest.raises(asyncssh.PermissionDenied):
            await ssh_connect(host)
        connection = await ssh_connect(host, "  Tess   Two ", password="kazoo")
        async with connection:
            process = await connection.create_process(
                term_type="xterm-256color", term_size=(80, 24), encoding=None
            )
            await read_until(process.stdout, b"Welcome to door host")
            [client] = door_clients(host.port)
            command = Path(f"/proc/{client}/cmdline").read_bytes().split(b"\0")
            assert b"--name=Tess Two" in command, "the SSH user name arrives cleaned"
        await gone(host)


async def test_past_the_session_cap_a_visitor_is_told_the_door_is_full(tmp_path: Path) -> None:
    async with running_door(tmp_path, ssh_max_sessions=1) as host:
        async with await ssh_connect(host, "ann") as first:
            playing = await first.create_process(
                term_type="xterm", term_size=(80, 24), encoding=None
            )
            await read_until(playing.stdout, b"Welcome to door host")
            async with await ssh_connect(host, "bob") as second:
                turned_away = await second.create_process(
                    term_type="xterm", term_size=(80, 24), encoding=None
                )
                result = await asyncio.wait_for(turned_away.wait(), WAIT_SECONDS)
                assert result.exit_status == 1
                assert b"The SSH door is full (at most 1 at once)" in (result.stderr or b"")
        await gone(host)


async def test_the_host_key_is_made_once_and_kept_across_restarts(tmp_path: Path) -> None:
    fingerprints = []
    for _ in range(2):
        async with running_door(tmp_path) as host, await ssh_connect(host) as connection:
            key = connection.get_server_host_key()
            assert key is not None
            fingerprints.append(key.get_fingerprint())
    assert fingerprints[0] == fingerprints[1]
    assert (tmp_path / "data" / HOST_KEY_FILE).stat().st_mode & 0o777 == 0o600


async def test_closing_the_host_ends_every_ssh_visitor(tmp_path: Path) -> None:
    async with running_door(tmp_path) as host:
        connection = await ssh_connect(host)
        process = await connection.create_process(
            term_type="xterm", term_size=(80, 24), encoding=None
        )
        await read_until(process.stdout, b"Welcome to door host")
        assert len(door_clients(host.port)) == 1
        port = host.port
    try:
        result = await asyncio.wait_for(process.wait(), WAIT_SECONDS)
        assert b"goodbye" in (result.stderr or b"")
        assert result.exit_status == 0
        assert door_clients(port) == []
    finally:
        connection.close()


def test_the_client_command_runs_this_python_without_a_shell() -> None:
    assert client_command("::1", 7777, "Ann") == [
        sys.executable,
        "-m",
        "partyhost.cli",
        "join",
        "[::1]:7777",
        "--name=Ann",
        "--no-discovery",
        "--no-remember",  # visitors share this machine's folders: no one keeps a seat token
    ]


def test_serve_takes_the_ssh_and_discovery_flags() -> None:
    parse = build_parser().parse_args
    assert parse(["serve"]).ssh is None
    assert parse(["serve", "--ssh"]).ssh == DEFAULT_SSH_PORT
    served = parse(["serve", "--ssh", "2300", "--ssh-password", "kazoo", "--no-discovery"])
    assert (served.ssh, served.ssh_password, served.no_discovery) == (2300, "kazoo", True)
    with pytest.raises(SystemExit):
        parse(["serve", "--ssh", "ssh"])
    assert main(["serve", "--ssh-password", "kazoo"]) == 2  # a password needs a door


def test_the_ssh_password_can_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """A flag is visible to every user in ``ps``; the environment is not."""
    parse = build_parser().parse_args
    monkeypatch.setenv(SSH_PASSWORD_ENV, "kazoo")
    assert serve_config(parse(["serve", "--ssh"])).ssh_password == "kazoo"
    assert serve_config(parse(["serve", "--ssh", "--ssh-password", "flag"])).ssh_password == "flag"
    assert serve_config(parse(["serve"])).ssh_password is None  # no door, no password
    monkeypatch.setenv(SSH_PASSWORD_ENV, "")
    assert serve_config(parse(["serve", "--ssh"])).ssh_password is None
