"""The door's clients are the installed partyhost, with nothing of the host's but the game.

The attack: start ``serve`` in a folder that holds a planted ``partyhost``
package (and ``textual``, ``msgpack``) whose import writes down the
environment it sees, door password included. The door's folders must not
outlive a SIGKILL either.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from partyhost.net.door.visitorenv import (
    DOOR_FOLDER,
    PREFIX,
    DoorFolders,
    client_environment,
    sweep,
)
from partyhost.playcommands import SSH_PASSWORD_ENV
from sshdoorhelpers import (
    alive,
    descendants,
    door_clients,
    door_of,
    door_processes,
    environment_of,
    no_visitors,
    open_terminal,
    plain,
    read_until,
    running_door,
    serve_door,
    ssh_connect,
    ssh_port_of,
    wait_until,
)
from tmuxdriver import WAIT_SECONDS, clean_env

PASSWORD = "kazoo-7f3e"
PLANTED = """\
import os, pathlib
pathlib.Path({marker!r}).write_text(repr(dict(os.environ)))
"""


def plant(folder: Path, marker: Path) -> None:
    """Packages that shadow the real ones for anything that imports from ``folder``."""
    for package in ("partyhost", "textual", "msgpack"):
        (folder / package).mkdir(parents=True)
        (folder / package / "__init__.py").write_text(
            PLANTED.format(marker=str(marker)), encoding="utf-8"
        )
    (folder / "partyhost" / "cli.py").write_text(
        PLANTED.format(marker=str(marker)) + "def main(argv=None):\n    return 0\n",
        encoding="utf-8",
    )


async def test_serve_in_a_folder_with_a_planted_partyhost_gives_visitors_the_real_client(
    tmp_path: Path,
) -> None:
    planted, marker = tmp_path / "planted", tmp_path / "planted-code-ran"
    plant(planted, marker)
    env = clean_env(**{SSH_PASSWORD_ENV: PASSWORD})
    with serve_door(tmp_path, cwd=planted, env=env) as door:
        connection = await ssh_connect(door.ssh_port, password=PASSWORD)
        async with connection:
            process = await open_terminal(connection)
            await read_until(process.stdout, b"Welcome to e2e host")
            clients = descendants(door.process.pid)
            assert clients == set(door_processes(door.port)), "the visitor's client, and a spare"
            assert len(door_clients(door.port)) == 1 and len(clients) == 2
            for pid in clients:
                environment = environment_of(pid)
                assert SSH_PASSWORD_ENV not in environment
                assert PASSWORD not in repr(environment)
                folder = Path(os.readlink(f"/proc/{pid}/cwd"))
                assert folder.is_relative_to(door.data / DOOR_FOLDER), folder
    assert not marker.exists(), "planted code ran: " + marker.read_text(encoding="utf-8")


def test_a_visitors_environment_is_built_from_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(SSH_PASSWORD_ENV, PASSWORD)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    sent = {"LANG": "de_DE.UTF-8", "LD_PRELOAD": "/tmp/evil.so", "COLORTERM": "$(reboot)"}
    env = client_environment("xterm-kitty", sent, tmp_path)
    assert env["LANG"] == "de_DE.UTF-8" and env["TERM"] == "xterm-kitty"
    assert "COLORTERM" not in env and "LD_PRELOAD" not in env and "PYTHONPATH" not in env
    assert PASSWORD not in repr(env)
    assert all(
        value == os.defpath or str(tmp_path) in value
        for name, value in env.items()
        if name not in ("LANG", "TERM")
    )
    assert client_environment("xterm; rm -rf /", {}, tmp_path)["TERM"] == "xterm-256color"


@contextlib.contextmanager
def ignored(signum: signal.Signals, ignore: bool) -> Iterator[None]:
    """``signum`` ignored (if ``ignore``) by what this process starts meanwhile."""
    before = signal.signal(signum, signal.SIG_IGN) if ignore else None
    try:
        yield
    finally:
        if before is not None:
            signal.signal(signum, before)


@pytest.mark.parametrize("host_ignores_hangup", [False, True])
async def test_neither_the_door_folder_nor_a_client_outlives_a_sigkill(
    tmp_path: Path, host_ignores_hangup: bool
) -> None:
    """Killed, the host leaves its visitors' clients hung up: they end, even when the host was
    started with the hangup ignored (``nohup``), which its clients would inherit."""
    data = tmp_path / "host-data"
    with contextlib.ExitStack() as stack:
        with ignored(signal.SIGHUP, host_ignores_hangup):
            door = stack.enter_context(serve_door(tmp_path, data=data))
        door_root = data / DOOR_FOLDER
        [left_behind] = list(door_root.iterdir())
        assert left_behind.name.startswith(f"{PREFIX}{door.process.pid}-")
        assert left_behind.stat().st_mode & 0o777 == 0o700
        connection = await ssh_connect(door.ssh_port)
        async with connection:
            process = await open_terminal(connection)
            await read_until(process.stdout, b"Welcome to e2e host")
            clients = door_processes(door.port)  # the visitor's, and the spare for the next
            assert len(clients) == 2 and set(clients) == descendants(door.process.pid)
            door.process.send_signal(signal.SIGKILL)
            door.process.wait()
            try:
                wait_until(lambda: not any(alive(pid) for pid in clients), "the clients to end")
            finally:
                for pid in clients:  # one that failed to end must not spin beside the suite
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
        assert left_behind.exists()  # nobody was left to clean up
    with serve_door(tmp_path, data=data) as door:
        [current] = list(door_root.iterdir())
        assert current != left_behind and not left_behind.exists(), "swept at start"
    left = sorted(str(path.relative_to(door_root)) for path in door_root.rglob("*"))
    assert not door_root.exists(), f"a normal stop leaves nothing, yet left: {left}"


def test_without_a_data_folder_only_folders_of_dead_doors_are_swept(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
        encoding="utf-8",
    )
    dead = tmp_path / f"{PREFIX}{int(ended.stdout)}-old"
    living = tmp_path / f"{PREFIX}{os.getppid()}-other"
    unrelated = tmp_path / "partyhost-ssh-notes"
    for folder in (dead, living, unrelated):
        (folder / "visitor-1").mkdir(parents=True)
    folders = DoorFolders(None)
    root = folders.open()
    assert root.parent == tmp_path and not dead.exists()
    assert living.exists() and unrelated.exists()
    visitor = folders.visitor()
    assert visitor.parent == root and visitor.stat().st_mode & 0o777 == 0o700
    folders.close()
    assert not root.exists()
    assert sweep(tmp_path, only_dead_owners=True) == []


def test_door_folders_ignore_what_is_not_theirs(tmp_path: Path) -> None:
    target = tmp_path / "precious"
    target.mkdir()
    (tmp_path / f"{PREFIX}1-link").symlink_to(target)
    (tmp_path / f"{PREFIX}1-file").write_text("not a folder", encoding="utf-8")
    assert sweep(tmp_path, only_dead_owners=False) == []
    assert target.exists()


def _pty_output(master: int) -> bytes:
    """What a client wrote to its terminal and nobody read yet."""
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except (BlockingIOError, OSError):  # EIO: the client's end is closed and drained
            return seen
        if not chunk:
            return seen
        seen += chunk


async def _ended_reading(process: asyncio.subprocess.Process, master: int) -> bytes:
    """Everything a client writes to its terminal until it ends, read as it comes (a long
    traceback must not fill the terminal and block it). One that does not end fails with
    what the kernel says of it."""
    seen = b""
    try:
        async with asyncio.timeout(WAIT_SECONDS):
            while process.returncode is None:
                seen += _pty_output(master)
                await asyncio.sleep(0.05)
    except TimeoutError:
        raise AssertionError(
            f"the client did not end: {_process_state(process.pid)}; it wrote {seen[-2000:]!r}"
        ) from None
    return seen + _pty_output(master)


def _process_state(pid: int) -> str:
    """Its state, signal masks and where it sleeps, from Linux's /proc (else nothing)."""
    wanted = ("State", "Threads", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt")
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines()
        wchan = Path(f"/proc/{pid}/wchan").read_text(encoding="ascii")
    except OSError as exc:
        return f"no /proc entry ({exc})"
    lines = [line for line in status if line.split(":")[0] in wanted]
    return "; ".join([*lines, f"wchan: {wchan}"])


async def _waiting(pid: int) -> None:
    """Once the process has slept with its CPU time unchanged for half a second: it has
    loaded the client and waits for its visitor (Linux's /proc; elsewhere, a few seconds)."""
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():
        await asyncio.sleep(3.0)
        return
    clock = asyncio.get_running_loop().time
    last, still_since = -1, clock()
    async with asyncio.timeout(WAIT_SECONDS):
        while True:
            fields = stat.read_text(encoding="ascii").rsplit(")", 1)[1].split()
            state, cpu = fields[0], int(fields[11]) + int(fields[12])  # utime + stime
            if state != "S" or cpu != last:
                last, still_since = cpu, clock()
            elif clock() - still_since >= 0.5:
                return
            await asyncio.sleep(0.1)


@pytest.mark.parametrize("host_ignores_ctrl_c", [False, True])
async def test_a_door_client_that_crashes_writes_to_its_own_terminal_never_the_hosts(
    tmp_path: Path,
    capfd: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    host_ignores_ctrl_c: bool,
) -> None:
    """Each door client has its own output: one that dies with a traceback (the spare,
    interrupted while it waits for its visitor) wrote it to its own terminal only; the host's
    stdout, stderr and log stay clean, and the next visitor gets a fresh client. A host
    started in the background by a script ignores Ctrl+C; its clients still take it."""
    async with contextlib.AsyncExitStack() as stack:
        with ignored(signal.SIGINT, host_ignores_ctrl_c):
            host = await stack.enter_async_context(running_door(tmp_path))
        door = door_of(host)
        spare, _ = door.launcher._spare
        await _waiting(spare.pid)
        os.kill(spare.pid, signal.SIGINT)
        output = await _ended_reading(spare.process, spare.master)
        assert b"KeyboardInterrupt" in output  # its own terminal got it
        async with await ssh_connect(ssh_port_of(host), "ann") as connection:
            process = await open_terminal(connection)
            screen = await read_until(process.stdout, b"Welcome to door host")
            assert b"Traceback" not in plain(screen)
            [client] = door.clients
            assert client.pid != spare.pid
        await no_visitors(host)
    out, err = capfd.readouterr()
    for text in (out, err, caplog.text):
        assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
