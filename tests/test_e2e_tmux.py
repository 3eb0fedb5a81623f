"""End to end in a real terminal: `partyhost serve`, `partyhost join` inside tmux, real keys.

Each test starts the host as a subprocess on a free loopback port, runs the
client in a detached tmux session of a fixed size (own tmux socket, so nothing
touches the user's tmux), types with ``tmux send-keys`` and reads the screen
with ``tmux capture-pane``. Keys are sent one at a time with a short gap, as a
person types: in one burst such as ``Tab Tab 9`` the 9 is routed to the widget
that had the focus before the Tabs were handled, and is lost.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest
from partyhost.net.protocol import ROOM_CODE_LENGTH, ROOM_CODE_LETTERS

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        shutil.which("tmux") is None,
        reason="tmux is not installed: the real-terminal tests drive the client through it",
    ),
]

WIDTH, HEIGHT = 100, 32
WAIT_SECONDS = 20.0
POLL_SECONDS = 0.1
KEY_GAP_SECONDS = 0.08
TMUX_CONF = """\
set -g status off
set -g remain-on-exit on
set -g default-terminal xterm-256color
set -sg escape-time 0
"""
"""No status line (the app gets all rows); a dead pane stays to report its exit status."""
ROOM_CODE = re.compile(rf"\broom ([{ROOM_CODE_LETTERS}]{{{ROOM_CODE_LENGTH}}})\b")
ROUND = re.compile(r"\bRound (\d+)  judge ")
SUBMIT_TURN = "Your move: pick the slogan"
JUDGE_TURN = "You are the judge: pick"
FACE_DOWN = re.compile(r"[░.]+")


def partyhost_command() -> list[str]:
    """The installed console script next to this Python, else ``python -m partyhost.cli``."""
    script = Path(sys.executable).with_name("partyhost")
    return [str(script)] if script.exists() else [sys.executable, "-m", "partyhost.cli"]


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment (with conftest's private folders), outside any tmux."""
    env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "TMUX_PANE")}
    env["TERM"] = "xterm-256color"
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stop(process: subprocess.Popen[bytes]) -> None:
    """Terminate a subprocess we started (SIGTERM, then SIGKILL) and reap it."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


@dataclass
class Served:
    """A running `partyhost serve`."""

    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-2000:]


def start_host(tmp_path: Path, log: IO[bytes]) -> tuple[int, subprocess.Popen[bytes]]:
    """Start the host on a free port; retry with another port if it could not listen."""
    for _ in range(3):
        port = free_port()
        process = subprocess.Popen(
            [
                *partyhost_command(),
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--data",
                str(tmp_path / "host-data"),
                "--name",
                "e2e host",
            ],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=clean_env(),
        )
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline and process.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    return port, process
            except OSError:
                time.sleep(POLL_SECONDS)
        stop(process)
    raise AssertionError("`partyhost serve` never listened")


@pytest.fixture
def host(tmp_path: Path) -> Iterator[Served]:
    """`partyhost serve` on 127.0.0.1 with a private data folder; stopped afterwards."""
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        port, process = start_host(tmp_path, log)
        try:
            yield Served(port, process, log_path)
        finally:
            stop(process)


class Terminal:
    """One detached tmux session on a private socket, driven like a person at a keyboard."""

    def __init__(self, tmp_path: Path) -> None:
        self.socket = f"partyhost-e2e-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.conf = tmp_path / "tmux.conf"
        self.conf.write_text(TMUX_CONF)
        self.target = "e2e"
        self.last = ""
        self.ascii_only = False
        """When set, every screen read must be plain ASCII (``--ascii``)."""
        self.pid: int | None = None
        self.socket_path: Path | None = None

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", str(self.conf), *args],
            capture_output=True,
            text=True,
            timeout=10,
            env=clean_env(),
            check=False,
        )
        if done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout

    def start(self, command: list[str], **env: str) -> None:
        """Run ``command`` in a new WIDTH x HEIGHT session with TERM=xterm-256color."""
        options = [f"-e{name}={value}" for name, value in {"TERM": "xterm-256color", **env}.items()]
        size = ["-x", str(WIDTH), "-y", str(HEIGHT)]
        self.tmux("new-session", "-d", "-s", self.target, *size, *options, shlex.join(command))
        pid, _, socket_path = (
            self.tmux("display-message", "-p", "-t", self.target, "#{pane_pid} #{socket_path}")
            .strip()
            .partition(" ")
        )
        self.pid, self.socket_path = int(pid), Path(socket_path)

    def keys(self, *keys: str) -> None:
        """Press each key (tmux key names: Enter, Tab, Escape, C-s, F1...) with a short gap."""
        for key in keys:
            self.tmux("send-keys", "-t", self.target, key)
            time.sleep(KEY_GAP_SECONDS)

    def type(self, text: str) -> None:
        """Type literal text, one character at a time."""
        for char in text:
            self.tmux("send-keys", "-t", self.target, "-l", char)
            time.sleep(KEY_GAP_SECONDS)

    def screen(self) -> str:
        self.last = self.tmux("capture-pane", "-p", "-t", self.target)
        assert not self.ascii_only or self.last.isascii(), f"not ASCII:\n{self.last}"
        return self.last

    def wait_for(self, what: str | Callable[[str], object], seconds: float = WAIT_SECONDS) -> str:
        """Poll the screen every POLL_SECONDS until it shows ``what``; fail with the screen."""
        check = (lambda screen: what in screen) if isinstance(what, str) else what
        deadline = time.monotonic() + seconds
        while True:
            screen = self.screen()
            if check(screen):
                return screen
            if time.monotonic() > deadline:
                label = what if isinstance(what, str) else what.__doc__ or repr(what)
                raise AssertionError(
                    f"waited {seconds:.0f} s for {label!r}; the screen was:\n{screen}"
                )
            time.sleep(POLL_SECONDS)

    def settle(self, seconds: float = 0.3) -> None:
        """Wait until the screen, colours and all, stays the same for ``seconds``."""
        capture = ("capture-pane", "-p", "-e", "-t", self.target)
        before = self.tmux(*capture)
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(seconds)
            now = self.tmux(*capture)
            if now == before:
                return
            before = now
        raise AssertionError(f"the screen never settled:\n{self.screen()}")

    def exit_status(self) -> int | None:
        """The client's exit status once it has ended (the pane stays, dead), else None."""
        dead, _, status = (
            self.tmux(
                "display-message", "-p", "-t", self.target, "#{pane_dead} #{pane_dead_status}"
            )
            .strip()
            .partition(" ")
        )
        return int(status or 0) if dead == "1" else None

    def close(self) -> None:
        subprocess.run(
            ["tmux", "-L", self.socket, "kill-server"],
            capture_output=True,
            timeout=10,
            env=clean_env(),
            check=False,
        )
        if self.socket_path is not None:
            self.socket_path.unlink(missing_ok=True)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    term = Terminal(tmp_path)
    try:
        yield term
    finally:
        term.close()


def join(terminal: Terminal, host: Served, tmp_path: Path, *flags: str) -> None:
    """`partyhost join` as Tess; returns when the host's lobby is on screen."""
    terminal.start(
        [*partyhost_command(), "join", host.address, "--name", "Tess", *flags],
        PARTYHOST_CONFIG_DIR=str(tmp_path / "client-config"),
        PARTYHOST_DATA_DIR=str(tmp_path / "client-data"),
    )
    terminal.wait_for("Welcome to e2e host")


def create_room(terminal: Terminal) -> str:
    """Create a T-Shirt Game room with the dialog's defaults; returns the room code."""
    terminal.keys("c")
    terminal.wait_for(lambda s: "Create a room" in s and "Points to win" in s)
    terminal.keys("C-s")
    return room_code(terminal.wait_for(lambda s: "You own this room" in s and ROOM_CODE.search(s)))


def room_code(screen: str) -> str:
    found = ROOM_CODE.search(screen)
    assert found, screen
    return found.group(1)


def round_number(screen: str) -> int:
    found = ROUND.search(screen)
    assert found, f"no round number in the title:\n{screen}"
    return int(found.group(1))


def first_card(screen: str, title: str) -> str | None:
    """The face-up text of card 1 in the rack under ``title`` (its first line), if shown."""
    lines = screen.splitlines()
    for row, line in enumerate(lines):
        column = line.find(title)
        if column < 0:
            continue
        for below in lines[row + 1 : row + 4]:
            found = re.match(r"\S?\s*>?1 (\S.*?)\s*$", below[max(0, column - 1) :])
            if found and not FACE_DOWN.fullmatch(found.group(1)):
                return found.group(1)
    return None


def outcome_of(number: int) -> Callable[[str], bool]:
    def shown(screen: str) -> bool:
        """the outcome of the round (its winning slogan)"""
        return f'Round {number}: "' in screen

    return shown


def play_rounds(terminal: Terminal, roles: set[str]) -> None:
    """Play as Tess until she has submitted and/or judged in rounds that ended.

    A round ends when its outcome (the winning slogan) is on screen; a slogan
    the judge picks must be the winner. A Booyah card, if Tess draws one, is kept.
    """

    def my_turn(screen: str) -> bool:
        """Tess's turn to submit, judge or choose Booyah"""
        if "k Keep:" in screen or "press b to choose" in screen:
            return True
        if SUBMIT_TURN in screen and not first_card(screen, "Your slogans"):
            return False  # the status line can be drawn a frame before the cards
        return (SUBMIT_TURN in screen or JUDGE_TURN in screen) and round_number(screen) > done_to

    done: set[str] = set()
    done_to = 0
    while not roles <= done:
        screen = terminal.wait_for(my_turn)
        if "k Keep:" in screen:
            terminal.keys("k")
            terminal.wait_for(lambda s: "k Keep:" not in s)
            continue
        if "press b to choose" in screen:
            terminal.keys("b")
            terminal.wait_for("k Keep:")
            continue
        number = round_number(screen)
        if JUDGE_TURN in screen:
            terminal.keys("1")  # also ends the reveal animation
            shown = terminal.wait_for(lambda s: first_card(s, "Pick the winner"))
            chosen = str(first_card(shown, "Pick the winner"))
            terminal.keys("Enter")
            shown = terminal.wait_for(outcome_of(number))
            assert f'Round {number}: "{chosen[:12]}' in shown, (chosen, shown)
            done.add("judge")
        else:
            chosen = str(first_card(screen, "Your slogans"))  # my_turn waited for the cards
            terminal.keys("1", "Enter")
            terminal.wait_for(f'You played "{chosen[:12]}')
            terminal.wait_for(outcome_of(number))
            done.add("submit")
        done_to = number


def quit_client(terminal: Terminal) -> None:
    """Ctrl+Q quits from any screen; the process must really end, with status 0."""
    terminal.keys("C-q")
    deadline = time.monotonic() + WAIT_SECONDS
    while (status := terminal.exit_status()) is None:
        assert time.monotonic() < deadline, f"the client did not quit:\n{terminal.screen()}"
        time.sleep(POLL_SECONDS)
    assert status == 0
    assert terminal.pid is not None and _ended(terminal.pid), "the client process is still there"


def _ended(pid: int) -> bool:
    """Gone, or a zombie that tmux has not reaped yet."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_create_a_room_seat_network_bots_and_play_as_submitter_and_judge(
    host: Served, terminal: Terminal, tmp_path: Path
) -> None:
    join(terminal, host, tmp_path)
    code = create_room(terminal)
    seat_bots = ["bot", host.address, "--room", code, "--count", "3", "--delay", "0.2"]
    bots = subprocess.Popen(
        [*partyhost_command(), *seat_bots],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=clean_env(),
    )
    try:
        terminal.wait_for(lambda s: "4 seated" in s and s.count("✔ ready") == 3)
        for n in (1, 2, 3):
            assert f"Netbot {n}" in terminal.last
        terminal.keys("s")
        terminal.wait_for(lambda s: ROUND.search(s))
        play_rounds(terminal, {"submit", "judge"})
        quit_client(terminal)
    finally:
        stop(bots)
    assert host.process.poll() is None, host.log_tail()


def test_in_host_bots_options_help_and_ascii_in_a_real_terminal(
    host: Served, terminal: Terminal, tmp_path: Path
) -> None:
    terminal.ascii_only = True
    join(terminal, host, tmp_path, "--ascii")
    terminal.keys("c")
    terminal.wait_for(lambda s: "Create a room" in s and "First judge" in s)
    terminal.settle()  # the dialog has its focus before the Tabs come
    for _ in range(7):  # the scroll area, game, deck, hand size, target, two timers
        terminal.keys("Tab")
    terminal.type("0")
    terminal.wait_for(lambda s: re.search(r"First judge\s+0\b", s))
    terminal.keys("C-s")
    terminal.wait_for("First judge (seat): 0")
    terminal.keys("b", "b", "b")
    terminal.wait_for(lambda s: "4 seated" in s and "Bot 3" in s)

    terminal.keys("F1")
    terminal.wait_for("How to play The T-Shirt Game")
    terminal.keys("Escape")
    terminal.wait_for(lambda s: "How to play" not in s and "You own this room" in s)

    terminal.keys("s")
    terminal.wait_for("Round 1  judge Tess")  # the room's first-judge option took effect
    play_rounds(terminal, {"judge", "submit"})
    quit_client(terminal)
