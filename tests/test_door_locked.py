"""Door visitors stay with the host they came in for: no way to make it connect elsewhere.

The attack: Escape (Disconnect) at the door, type another HOST:PORT, Enter; or
ask the SSH server to forward a connection (``ssh -L``). A listening "trap"
socket on loopback shows whether the host ever tried.
"""

from __future__ import annotations

import shutil
import socket
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import pytest
from partyhost.cli import main
from partyhost.tui.app import PartyApp
from sshdoorhelpers import (
    LOOPBACK,
    DoorHost,
    no_visitors,
    open_terminal,
    read_until,
    running_door,
    serve_door,
    ssh_connect,
    ssh_options,
    ssh_port_of,
)
from textual.widgets import Input, Static
from tmuxdriver import Terminal
from tuikit.fakehost import FakeHost

needs_ssh_and_tmux = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("tmux") is None,
    reason="needs the OpenSSH client and tmux",
)


@pytest.fixture
def trap() -> Iterator[socket.socket]:
    """A loopback listener nobody should ever connect to."""
    listener = socket.create_server((LOOPBACK, 0))
    listener.setblocking(False)
    try:
        yield listener
    finally:
        listener.close()


def assert_untouched(listener: socket.socket) -> None:
    with pytest.raises(BlockingIOError):
        connection, peer = listener.accept()
        connection.close()
        raise AssertionError(f"the host connected to the trap from {peer}")


@pytest.fixture
def door_host(tmp_path: Path) -> Iterator[DoorHost]:
    with serve_door(tmp_path) as host:
        yield host


@needs_ssh_and_tmux
@pytest.mark.e2e
def test_after_disconnect_a_door_visitor_can_only_reconnect_to_this_host(
    door_host: DoorHost, terminal: Terminal, trap: socket.socket
) -> None:
    trap_address = f"{LOOPBACK}:{trap.getsockname()[1]}"
    terminal.start(["ssh", "-tt", *ssh_options(door_host.ssh_port), f"tess@{LOOPBACK}"])
    terminal.wait_for("Welcome to e2e host")
    terminal.keys("Escape")
    connect = terminal.wait_for("Join a party")
    game_address = f"{LOOPBACK}:{door_host.port}"
    assert game_address in connect, "the connect screen shows the only host on offer"
    for tabs in range(2):  # whichever field takes the keys, none of them is the address
        terminal.keys(*["Tab"] * tabs)
        terminal.type(trap_address)
        terminal.keys("Enter")
        terminal.wait_for("Welcome to e2e host")
        assert_untouched(trap)
        terminal.keys("Escape")
        terminal.wait_for("Join a party")
    terminal.keys("Escape")  # Quit
    assert terminal.wait_exit() == 0
    assert_untouched(trap)


async def test_the_door_forwards_no_connections(tmp_path: Path, trap: socket.socket) -> None:
    """``ssh -L`` / ``-D`` ask for direct-tcpip channels: refused."""
    async with running_door(tmp_path) as host:
        async with await ssh_connect(ssh_port_of(host)) as connection:
            with pytest.raises(asyncssh.ChannelOpenError):
                await connection.open_connection(LOOPBACK, trap.getsockname()[1])
            with pytest.raises(asyncssh.ChannelListenError):  # nor listens for anyone (-R)
                await connection.forward_remote_port(LOOPBACK, 0, LOOPBACK, 1)
            process = await open_terminal(connection)
            await read_until(process.stdout, b"Welcome to door host")
        await no_visitors(host)
    assert_untouched(trap)


async def test_a_locked_client_connects_only_to_its_address_whatever_is_typed() -> None:
    fake = FakeHost()
    app = PartyApp(fake, address="partyhost.lan:7777", name="Tess", remember=False, locked=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert fake.calls == [("partyhost.lan", 7777, "Tess")]
        await pilot.press("escape")  # lobby: Disconnect
        await pilot.pause()
        address = app.screen.query_one("#address", Input)
        assert address.disabled and address.value == "partyhost.lan:7777"
        address.value = "10.0.0.9:22"  # even a value put there by other means is ignored
        await pilot.press("enter")
        await pilot.pause()
        assert fake.calls[-1] == ("partyhost.lan", 7777, "Tess")
        assert len(fake.calls) == 2


async def test_a_locked_client_that_cannot_connect_says_why_and_offers_reconnecting() -> None:
    fake = FakeHost(refuse=ConnectionRefusedError())
    app = PartyApp(fake, address="partyhost.lan:7777", name="Tess", remember=False, locked=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.wanted_screen() == "connect"
        status = str(app.screen.query_one("#connect-status", Static).render())
        assert "Nobody is hosting at partyhost.lan:7777" in status
        fake.refuse = None  # the host is back
        await pilot.press("enter")
        await pilot.pause()
        assert app.wanted_screen() == "lobby"
        assert fake.calls == [("partyhost.lan", 7777, "Tess")] * 2


def test_join_locked_needs_an_address(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["join", "--locked"]) == 2
    assert "--locked needs the host's address" in capsys.readouterr().err
