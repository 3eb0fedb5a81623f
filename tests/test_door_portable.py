"""The SSH door on a host shaped like macOS: no ``SOCK_SEQPACKET``, no ``os.pidfd_open``, no fork.

Linux has all three, macOS has none of them (and forking a process that has
loaded OpenSSL or Textual is unsafe there), so the door may use none of them.
Here `partyhost serve --ssh` runs with a ``sitecustomize`` that takes them
away, and a real OpenSSH client in tmux must still reach the lobby.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sshdoorhelpers import LOOPBACK, serve_door, ssh_options
from tmuxdriver import Terminal, clean_env

MACOS_SHAPED = """\
import os, socket

_socket = socket.socket


class _NoSeqpacket(_socket):
    def __init__(self, family=-1, type=-1, proto=-1, fileno=None):
        if family == socket.AF_UNIX and type != -1 and type & 0xF == socket.SOCK_SEQPACKET:
            raise OSError(94, "Socket type not supported (macOS has no SOCK_SEQPACKET)")
        super().__init__(family, type, proto, fileno)


def _no_fork():
    raise OSError(45, "no fork after OpenSSL and Textual are loaded (unsafe on macOS)")


socket.socket = _NoSeqpacket
del os.pidfd_open
os.fork = _no_fork
"""
PROBE = """\
import os, socket
try:
    socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
except OSError:
    pass
else:
    raise SystemExit("SOCK_SEQPACKET still works")
assert not hasattr(os, "pidfd_open"), "os.pidfd_open is still there"
try:
    os.fork()
except OSError:
    print("macOS-shaped")
"""


def macos_shaped_env(folder: Path) -> dict[str, str]:
    """An environment whose Pythons (unless isolated with ``-I``) start macOS-shaped."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitecustomize.py").write_text(MACOS_SHAPED, encoding="utf-8")
    return clean_env(PYTHONPATH=str(folder))


@pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("tmux") is None or not hasattr(os, "pidfd_open"),
    reason="needs the OpenSSH client, tmux, and a Linux host to take pidfd_open away from",
)
@pytest.mark.e2e
def test_a_macos_shaped_host_lets_an_ssh_visitor_reach_the_lobby(
    tmp_path: Path, terminal: Terminal
) -> None:
    env = macos_shaped_env(tmp_path / "macos")
    probe = subprocess.run(
        [sys.executable, "-c", PROBE],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        encoding="utf-8",
    )
    assert probe.stdout.strip() == "macOS-shaped", probe.stderr  # the shaping took hold
    with serve_door(tmp_path / "host", env=env) as door:
        terminal.start(["ssh", "-tt", *ssh_options(door.ssh_port), f"tess@{LOOPBACK}"])
        screen = terminal.wait_for(lambda s: "Welcome to e2e host" in s or "sorry" in s)
        assert "Welcome to e2e host" in screen, screen
        terminal.keys("c")  # the client answers keys: a room is being created
        terminal.wait_for("Create a room")
        assert door.process.poll() is None
