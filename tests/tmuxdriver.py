"""A real terminal for the end-to-end tests and the latency benchmark: tmux, driven by script.

Every session runs in a private tmux server (its own socket and config), so
nothing touches the user's tmux. Keys go in with ``tmux send-keys``, one at a
time with a short gap as a person types: in one burst such as ``Tab Tab 9``
the 9 is routed to the widget that had the focus before the Tabs were
handled, and is lost. The screen is read with ``tmux capture-pane``. Every
wait has a timeout and fails with the screen it last saw.

The tests import this module directly (pytest puts ``tests/`` on the path);
``bench/tui_latency.py`` adds ``tests/`` to ``sys.path`` to import it.
"""

from __future__ import annotations

import os
import shlex
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import IO

WIDTH, HEIGHT = 100, 32
WAIT_SECONDS = 20.0
POLL_SECONDS = 0.1
KEY_GAP_SECONDS = 0.08
GO_ON = "Tap, or press any key, to go on."
"""A round's result is up (see ``partyhost.tui.shared.moment``)."""
RESULT_SETTLE_SECONDS = 0.4
"""How long a screen must show no round result before it counts (:meth:`Terminal.wait_for`)."""
TMUX_CONF = """\
set -g status off
set -g remain-on-exit on
set -g default-terminal xterm-256color
set -sg escape-time 0
"""
"""No status line (the app gets all rows); a dead pane stays to report its exit status."""

Check = Callable[[str], object]


class DriverError(AssertionError):
    """tmux refused a command, or what was waited for did not come; says what was seen.

    An AssertionError, so that in a test it reads as the failed check it is.
    """


def partyhost_command() -> list[str]:
    """The installed console script next to this Python, else ``python -m partyhost.cli``."""
    script = Path(sys.executable).with_name("partyhost")
    return [str(script)] if script.exists() else [sys.executable, "-m", "partyhost.cli"]


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment (private config folders included), outside any tmux."""
    env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "TMUX_PANE")}
    env["TERM"] = "xterm-256color"
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stop(process: subprocess.Popen[bytes], grace: float = 5.0) -> None:
    """Terminate a subprocess we started (SIGTERM, then SIGKILL after ``grace`` s), reap it."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def serve(data: Path, name: str, log: IO[bytes]) -> tuple[int, subprocess.Popen[bytes]]:
    """`partyhost serve` on a free loopback port, once it listens; another port if it could not."""
    for _ in range(3):
        port = free_port()
        listen = ["--host", "127.0.0.1", "--port", str(port)]
        process = subprocess.Popen(
            [*partyhost_command(), "serve", *listen, "--data", str(data), "--name", name],
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
    raise DriverError("`partyhost serve` never listened")


class Tmux:
    """A private tmux server; each call is one `tmux` client process, as a script's would be."""

    def __init__(
        self,
        folder: Path,
        *,
        label: str = "partyhost",
        conf: str = TMUX_CONF,
        poll: float = POLL_SECONDS,
        key_gap: float = KEY_GAP_SECONDS,
        env: dict[str, str] | None = None,
    ) -> None:
        self.socket = f"{label}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.conf = folder / "tmux.conf"
        self.conf.write_text(conf, encoding="utf-8")
        self.poll = poll
        self.key_gap = key_gap
        self.env = {"TERM": "xterm-256color", **(env or {})}
        """Set in every session started here."""
        self.socket_path: Path | None = None

    def run(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", str(self.conf), *args],
            capture_output=True,
            text=True,
            timeout=10,
            env=clean_env(),
            check=False,
            encoding="utf-8",
        )
        if done.returncode != 0:
            raise DriverError(f"tmux {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout

    def start(
        self, name: str, command: list[str], *, size: tuple[int, int] = (WIDTH, HEIGHT), **env: str
    ) -> None:
        """Run ``command`` in a new detached session called ``name`` (WIDTH x HEIGHT unless
        ``size`` says otherwise)."""
        options = [f"-e{key}={value}" for key, value in {**self.env, **env}.items()]
        size_options = ["-x", str(size[0]), "-y", str(size[1])]
        self.run("new-session", "-d", "-s", name, *size_options, *options, shlex.join(command))
        if self.socket_path is None:
            self.socket_path = Path(self.run("display-message", "-p", "#{socket_path}").strip())

    def pane(self, name: str, what: str) -> str:
        """A tmux format (``#{pane_pid}``...) about the session's pane."""
        return self.run("display-message", "-p", "-t", name, what).strip()

    def keys(self, name: str, *keys: str) -> None:
        """Press each key (tmux key names: Enter, Tab, Escape, C-s, F1...) with a short gap."""
        for key in keys:
            self.run("send-keys", "-t", name, key)
            time.sleep(self.key_gap)

    def type(self, name: str, text: str) -> None:
        """Type literal text, one character at a time."""
        for char in text:
            self.run("send-keys", "-t", name, "-l", char)
            time.sleep(self.key_gap)

    def capture(self, name: str, escapes: bool = False) -> str:
        """The screen as text (with ``escapes``: its colours and styles too)."""
        return self.run("capture-pane", "-p", *(["-e"] if escapes else []), "-t", name)

    def wait(
        self,
        name: str,
        check: Check,
        *,
        seconds: float = WAIT_SECONDS,
        started: float | None = None,
        escapes: bool = False,
        label: str = "",
    ) -> tuple[float, str]:
        """Poll until ``check(screen)``; the seconds since ``started`` (default: now) and screen."""
        start = time.perf_counter() if started is None else started
        while True:
            screen = self.capture(name, escapes)
            elapsed = time.perf_counter() - start
            if check(screen):
                return elapsed, screen
            if elapsed > seconds:
                what = label or check.__doc__ or repr(check)
                raise DriverError(
                    f"{name}: waited {seconds:.0f} s for {what!r}; the screen was:\n{screen}"
                )
            time.sleep(self.poll)

    def settle(self, name: str, quiet: float) -> str:
        """Wait until the screen, colours and all, stays the same for ``quiet`` seconds."""
        before = self.capture(name, escapes=True)
        deadline = time.perf_counter() + WAIT_SECONDS
        while time.perf_counter() < deadline:
            time.sleep(quiet)
            now = self.capture(name, escapes=True)
            if now == before:
                return now
            before = now
        raise DriverError(f"{name}: the screen never settled:\n{self.capture(name)}")

    def exit_status(self, name: str) -> int | None:
        """The program's exit status once it has ended (the pane stays, dead), else None."""
        dead, _, status = self.pane(name, "#{pane_dead} #{pane_dead_status}").partition(" ")
        return int(status or 0) if dead == "1" else None

    def wait_exit(self, name: str, started: float | None = None) -> tuple[float, int]:
        """Poll until the program has ended: seconds since ``started`` and its exit status."""
        start = time.perf_counter() if started is None else started
        while (status := self.exit_status(name)) is None:
            if time.perf_counter() - start > WAIT_SECONDS:
                raise DriverError(f"{name}: the program did not end:\n{self.capture(name)}")
            time.sleep(self.poll)
        return time.perf_counter() - start, status

    def kill(self, name: str) -> None:
        self.run("kill-session", "-t", name)

    def close(self) -> None:
        """Stop the server and whatever still runs in it; remove its socket."""
        subprocess.run(
            ["tmux", "-L", self.socket, "kill-server"],
            capture_output=True,
            timeout=10,
            env=clean_env(),
            check=False,
        )
        if self.socket_path is not None:
            self.socket_path.unlink(missing_ok=True)


class Terminal:
    """One session in its own tmux server, used like a person at a keyboard (tests only)."""

    def __init__(self, tmp_path: Path) -> None:
        self.server = Tmux(tmp_path, label="partyhost-e2e")
        self.target = "e2e"
        self.last = ""
        self.ascii_only = False
        """When set, every screen read must be plain ASCII (``--ascii``)."""
        self.pid: int | None = None
        self.reads_results = False
        """When set, :meth:`wait_for` reads a round's result that comes up (Enter puts it
        away), as a player at the table does, and waits for a steady screen."""

    def tmux(self, *args: str) -> str:
        return self.server.run(*args)

    def start(
        self, command: list[str], *, size: tuple[int, int] = (WIDTH, HEIGHT), **env: str
    ) -> None:
        """Run ``command`` in a ``size`` session with TERM=xterm-256color."""
        self.server.start(self.target, command, size=size, **env)
        self.pid = int(self.server.pane(self.target, "#{pane_pid}"))

    def keys(self, *keys: str) -> None:
        self.server.keys(self.target, *keys)

    def type(self, text: str) -> None:
        self.server.type(self.target, text)

    def _seen(self, screen: str) -> str:
        self.last = screen
        assert not self.ascii_only or screen.isascii(), f"not ASCII:\n{screen}"
        return screen

    def screen(self) -> str:
        return self._seen(self.server.capture(self.target))

    def wait_for(self, what: str | Check, seconds: float = WAIT_SECONDS) -> str:
        """Poll the screen every POLL_SECONDS until it shows ``what``; fail with the screen."""
        check = (lambda screen: what in screen) if isinstance(what, str) else what
        label = what if isinstance(what, str) else what.__doc__ or repr(what)
        if self.reads_results:
            return self._wait_reading_results(check, seconds, label)
        seen = self.server.wait(
            self.target, lambda s: check(self._seen(s)), seconds=seconds, label=label
        )
        return seen[1]

    def _wait_reading_results(self, check: Check, seconds: float, label: str) -> str:
        """:meth:`wait_for` at a table that stops after each round for its result.

        The host sends the next round's view a moment before the room message that
        opens the result, so a screen that shows ``what`` counts only if no result
        has come over it a moment later (a key sent then would go to the result).
        """
        started = time.perf_counter()

        def ready(screen: str) -> bool:
            if GO_ON in self._seen(screen):
                self.keys("Enter")
                self.server.wait(self.target, lambda s: GO_ON not in s, started=started)
                return False
            return bool(check(screen))

        while True:
            self.server.wait(self.target, ready, seconds=seconds, started=started, label=label)
            time.sleep(RESULT_SETTLE_SECONDS)
            screen = self.screen()
            if GO_ON not in screen and check(screen):
                return screen

    def settle(self, seconds: float = 0.3) -> None:
        """Wait until the screen, colours and all, stays the same for ``seconds``."""
        self.server.settle(self.target, seconds)

    def exit_status(self) -> int | None:
        return self.server.exit_status(self.target)

    def wait_exit(self) -> int:
        """The client's exit status, once it has ended."""
        return self.server.wait_exit(self.target)[1]

    def close(self) -> None:
        self.server.close()
