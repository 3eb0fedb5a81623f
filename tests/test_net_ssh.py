"""The SSH door: the real OpenSSH client plays through it; passwords, caps and keys hold.

The end-to-end test runs ``partyhost serve --ssh`` as a subprocess on loopback
and ``ssh -tt`` inside tmux (tests/tmuxdriver.py), so the keys
and the screen are a person's. The rest start a host in this process and use
asyncssh's client, or OpenSSH without a terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import pytest
from partyhost.cli import build_parser, main
from partyhost.net.address import DEFAULT_SSH_PORT
from partyhost.net.door.doorclients import CLIENT_START, client_command
from partyhost.net.door.sshdoor import HOST_KEY_FILE
from partyhost.playcommands import SSH_PASSWORD_ENV, serve_config
from sshdoorhelpers import (
    LOOPBACK,
    DoorHost,
    alive,
    door_clients,
    door_of,
    door_processes,
    no_visitors,
    open_terminal,
    parent_of,
    read_until,
    running_door,
    serve_door,
    ssh_connect,
    ssh_options,
    ssh_port_of,
    wait_until,
)
from test_e2e_tmux import ROUND, create_room, play_rounds
from tmuxdriver import WAIT_SECONDS, Terminal, clean_env

NO_SSH = shutil.which("ssh") is None
needs_ssh = pytest.mark.skipif(NO_SSH, reason="the OpenSSH client (ssh) is not installed")
needs_tmux = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed: it is the player's terminal"
)


@pytest.fixture
def door_host(tmp_path: Path) -> Iterator[DoorHost]:
    with serve_door(tmp_path) as host:
        yield host


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
    terminal.wait_for(lambda s: ROUND.search(s))
    terminal.settle()  # the whole game screen, not a capture in the middle of drawing it
    narrow = terminal.screen()
    assert "say something" not in narrow  # 100 columns: no room for the chat column

    terminal.tmux("resize-window", "-t", terminal.target, "-x", "120", "-y", "40")

    def wide(screen: str) -> bool:
        """the 120x40 layout: the chat column, and the footer on row 40"""
        rows = screen.splitlines()
        return "say something" in screen and len(rows) >= 40 and "Help" in rows[39]

    terminal.wait_for(wide)
    terminal.reads_results = True  # at the table, each round's result is read and put away
    play_rounds(terminal, {"submit"})

    [client] = door_clients(door_host.port)
    assert parent_of(client) == door_host.process.pid
    terminal.close()  # the player closes the terminal: ssh dies with it
    wait_until(lambda: not door_clients(door_host.port), "the visitor's client to end")
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
    assert f"  {command}" in door_host.log.read_text(encoding="utf-8")  # serve said so


# --- in-process host, asyncssh client ---------------------------------------------------


async def test_the_party_password_keeps_out_a_wrong_one_and_lets_in_the_right_one(
    tmp_path: Path,
) -> None:
    async with running_door(tmp_path, ssh_password="kazoo", wrong_password_delay=0.05) as host:
        port = ssh_port_of(host)
        with pytest.raises(asyncssh.PermissionDenied):
            await ssh_connect(port, password="trumpet")
        with pytest.raises(asyncssh.PermissionDenied):
            await ssh_connect(port)
        connection = await ssh_connect(port, "  Tess   Two ", password="kazoo")
        async with connection:
            process = await open_terminal(connection)
            seen = await read_until(process.stdout, b"Welcome to door host")
            [client] = door_of(host).clients
            assert door_clients(host.port) == [client.pid]
            assert parent_of(client.pid) == os.getpid()
            process.stdin.write(b"c")  # create a room: the dialog shows the name in use
            await read_until(process.stdout, b"Create a room")
            assert seen
        await no_visitors(host)


async def test_a_visitor_claiming_a_giant_window_still_plays(tmp_path: Path) -> None:
    """3000x1000 at the start and 9999x9999 on resizes: the client draws at most the door's cap."""
    async with running_door(tmp_path) as host:
        async with await ssh_connect(ssh_port_of(host)) as connection:
            process = await open_terminal(connection, columns=3000, rows=1000)
            await read_until(process.stdout, b"Welcome to door host")
            for _ in range(5):
                process.change_terminal_size(9999, 9999)
            process.stdin.write(b"c")
            await read_until(process.stdout, b"Create a room")
            [client] = door_of(host).clients
            assert client.process.returncode is None, "the visitor's client is still running"
        await no_visitors(host)


async def test_past_the_session_cap_a_visitor_is_told_the_door_is_full(tmp_path: Path) -> None:
    async with running_door(tmp_path, ssh_max_sessions=1) as host:
        port = ssh_port_of(host)
        async with await ssh_connect(port, "ann") as first:
            playing = await open_terminal(first)
            await read_until(playing.stdout, b"Welcome to door host")
            async with await ssh_connect(port, "bob", source="127.0.0.2") as second:
                turned_away = await open_terminal(second)
                result = await asyncio.wait_for(turned_away.wait(), WAIT_SECONDS)
                assert result.exit_status == 1
                assert b"The SSH door is full (at most 1 at once)" in (result.stderr or b"")
        await no_visitors(host)


async def test_the_host_key_is_made_once_and_kept_across_restarts(tmp_path: Path) -> None:
    fingerprints = []
    for _ in range(2):
        async with running_door(tmp_path) as host:
            connection = await ssh_connect(ssh_port_of(host))
            async with connection:
                key = connection.get_server_host_key()
                assert key is not None
                fingerprints.append(key.get_fingerprint())
    assert fingerprints[0] == fingerprints[1]
    assert (tmp_path / "data" / HOST_KEY_FILE).stat().st_mode & 0o777 == 0o600


async def test_closing_the_host_ends_every_ssh_visitor(tmp_path: Path) -> None:
    async with running_door(tmp_path) as host:
        connection = await ssh_connect(ssh_port_of(host))
        process = await open_terminal(connection)
        await read_until(process.stdout, b"Welcome to door host")
        [client] = door_of(host).clients
        spare = door_of(host).launcher.spare_pid
    try:
        result = await asyncio.wait_for(process.wait(), WAIT_SECONDS)
        assert result.exit_status == 0
        assert client.process.returncode is not None
        assert door_processes(host.port) == [] and not alive(spare)
    finally:
        connection.close()


async def test_each_visitor_takes_the_client_started_ahead_and_the_next_one_starts(
    tmp_path: Path,
) -> None:
    async with running_door(tmp_path) as host:
        door = door_of(host)
        for name in ("Ann", "Bob"):
            spare = door.launcher.spare_pid
            async with asyncio.timeout(WAIT_SECONDS):  # a new process shows its command late
                while spare not in door_processes(host.port):
                    await asyncio.sleep(0.05)
            assert door_clients(host.port) == []
            async with await ssh_connect(ssh_port_of(host), name) as connection:
                process = await open_terminal(connection)
                await read_until(process.stdout, b"Welcome to door host")
                assert [client.pid for client in door.clients] == door_clients(host.port) == [spare]
                assert door.launcher.spare_pid not in (None, spare)
                assert [player.name for player in host.connections] == [name]
            await no_visitors(host)


async def test_a_spare_client_that_died_is_replaced_for_the_next_visitor(tmp_path: Path) -> None:
    async with running_door(tmp_path) as host:
        door = door_of(host)
        dead = door.launcher.spare_pid
        os.kill(dead, signal.SIGKILL)
        async with await ssh_connect(ssh_port_of(host)) as connection:
            process = await open_terminal(connection)
            await read_until(process.stdout, b"Welcome to door host")
            [client] = door.clients
            assert client.pid != dead
        await no_visitors(host)


async def test_a_spare_client_that_dies_while_taking_its_visitor_is_replaced(
    tmp_path: Path,
) -> None:
    """A spare killed a moment ago may still hold its end open: only its answer counts."""
    async with running_door(tmp_path) as host:
        door = door_of(host)
        dying = door.launcher.spare_pid
        assert dying is not None
        os.kill(dying, signal.SIGSTOP)  # alive, its end open, but it takes no order
        try:
            async with await ssh_connect(ssh_port_of(host)) as connection:
                process = await open_terminal(connection)
                await asyncio.sleep(0.5)  # the visitor is being handed to the stopped spare
                os.kill(dying, signal.SIGKILL)
                await read_until(process.stdout, b"Welcome to door host")
                [client] = door.clients
                assert client.pid != dying
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(dying, signal.SIGKILL)
        await no_visitors(host)


def test_the_client_runs_locked_to_this_host_without_a_shell() -> None:
    assert client_command(7, "[::1]:7777") == [
        sys.executable,
        "-I",  # isolated: nothing from the folder serve runs in, no PYTHON* variables
        "-c",
        CLIENT_START,
        "7",  # where the visitor's name, environment and folder will come from
        "join",
        "[::1]:7777",
        "--no-discovery",
        "--no-remember",  # visitors share this machine's folders: no one keeps a seat token
        "--locked",
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


def test_the_door_limits_are_serve_flags_with_sane_defaults() -> None:
    parse = build_parser().parse_args
    defaults = serve_config(parse(["serve", "--ssh"]))
    assert (defaults.ssh_max_sessions, defaults.ssh_max_connections) == (32, 64)
    assert (defaults.ssh_max_per_address, defaults.ssh_login_timeout) == (4, 20.0)
    chosen = serve_config(
        parse(
            [
                "serve",
                "--ssh",
                *("--ssh-max-sessions", "5", "--ssh-max-connections", "9"),
                *("--ssh-max-per-address", "2", "--ssh-login-timeout", "7.5"),
            ]
        )
    )
    assert (chosen.ssh_max_sessions, chosen.ssh_max_connections) == (5, 9)
    assert (chosen.ssh_max_per_address, chosen.ssh_login_timeout) == (2, 7.5)
    for bad in (["--ssh-max-per-address", "0"], ["--ssh-login-timeout", "-1"], ["--ssh-sessions"]):
        with pytest.raises(SystemExit):
            parse(["serve", "--ssh", *bad])


def test_the_ssh_password_can_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """A flag is visible to every user in ``ps``; the environment is not."""
    parse = build_parser().parse_args
    monkeypatch.setenv(SSH_PASSWORD_ENV, "kazoo")
    assert serve_config(parse(["serve", "--ssh"])).ssh_password == "kazoo"
    assert serve_config(parse(["serve", "--ssh", "--ssh-password", "flag"])).ssh_password == "flag"
    assert serve_config(parse(["serve"])).ssh_password is None  # no door, no password
    monkeypatch.setenv(SSH_PASSWORD_ENV, "")
    assert serve_config(parse(["serve", "--ssh"])).ssh_password is None
