"""SSH door benchmark: many real OpenSSH sessions against `partyhost serve --ssh`.

Each visitor's client is a fresh ``python -I`` process running ``partyhost
join``, started one visitor ahead (a spare waits, the client loaded). For each
session count (10 and 30 unless told), on a fresh `partyhost serve --ssh` on
loopback: one warm-up session (not counted), then SESSIONS ``ssh -tt``
clients, each on its own pty and started one after another from eight loopback
source addresses (so the door's default per-address cap holds), timed from
starting ``ssh`` to the lobby's text on its screen (the "ssh floor" is ``ssh
-T`` to the door's one-line hint: the same connection without a client). Then
PSS: the sum over every process under ``serve`` (the visitors' clients and the
spare; the host process itself is not counted), divided by SESSIONS, from
/proc/PID/smaps_rollup.
Then all sessions type at once for SECONDS: each opens the join-code dialog
(``j``, a screen change), types a room code, clears it (Ctrl+U), types it
again and closes the dialog, at a person's pace (a key every 0.4-1.2 s);
every key is timed from its write into ssh's terminal to its echo in the
screen output (about one key in twenty is a screen change). The output is
read as it arrives (escape sequences removed), so a figure includes ssh, the
door, the client's redraw and the way back.

Usage: python bench/ssh_door.py [--sessions 10,30] [--seconds 20]
[--smoke] (two sessions typing the dialog once, to check that it still runs).
Prints a table, then, as the last line, one JSON object with
``pss_per_session_mib``, ``lobby_ms_p50`` and ``key_to_screen_p99_ms`` (and a
few more) for each session count, suffixed ``_at_N``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import json
import math
import os
import platform
import pty
import random
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from sshdoorhelpers import LOOPBACK, descendants, plain, serve_door, ssh_options
from tmuxdriver import clean_env

COLUMNS, ROWS = 100, 30
LOBBY = b"Pick a room"
DIALOG = b"Join a room"
PLACEHOLDER = b"letters, e.g. KQZD"
"""The empty code field's hint: shows again once Ctrl+U has cleared what was typed."""
CODE = "QZXWVKRTPM"
"""Typed into the join-code dialog; every prefix of two or more letters is unique on screen."""
WAIT = 30.0
PACE = (0.4, 1.2)
"""Seconds between one player's keys: a person playing, quicker than most."""


@dataclass
class Figures:
    sessions: int
    lobby_ms: list[float] = field(default_factory=list)
    typing_ms: list[float] = field(default_factory=list)
    """Keys that change a line: a letter into the code field, Ctrl+U clearing it."""
    screen_ms: list[float] = field(default_factory=list)
    """Keys that change the screen: ``j`` opening the join dialog over the lobby."""

    @property
    def key_ms(self) -> list[float]:
        return self.typing_ms + self.screen_ms

    floor_ms: list[float] = field(default_factory=list)
    """``ssh -T`` to the door's one-line hint: the SSH part of reaching the lobby, no client."""
    pss_kib: int = 0
    processes: int = 0
    cpu_seconds: dict[str, float] = field(default_factory=dict)
    """CPU time used while typing: the host process, the door's helpers, ssh, this bench."""

    @property
    def pss_per_session_mib(self) -> float:
        return self.pss_kib / 1024 / max(1, self.sessions)


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of one process so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_by_group(groups: dict[str, list[int]]) -> dict[str, float]:
    return {name: sum(cpu_seconds(pid) for pid in pids) for name, pids in groups.items()}


def pss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text(encoding="utf-8").splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class Session:
    """One ``ssh -tt`` on a pty of ours: keys in, screen output watched for markers."""

    def __init__(self, index: int, port: int) -> None:
        self.index = index
        master, terminal = pty.openpty()
        fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        source = f"127.0.0.{10 + index % 8}"
        self.process = subprocess.Popen(
            ["ssh", "-tt", "-b", source, *ssh_options(port), f"guest{index}@{LOOPBACK}"],
            stdin=terminal,
            stdout=terminal,
            stderr=terminal,
            start_new_session=True,
            env=clean_env(),
        )
        os.close(terminal)
        os.set_blocking(master, False)
        self.master = master
        self.output = bytearray()
        self._marker = b""
        self._seen: asyncio.Future[float] | None = None
        asyncio.get_running_loop().add_reader(master, self._on_output)

    def _on_output(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        waiter = self._seen
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            if waiter is not None and not waiter.done():
                waiter.set_exception(EOFError(f"session {self.index} ended"))
            return
        self.output += data
        if waiter is not None and not waiter.done() and self._marker in plain(self.output):
            waiter.set_result(time.perf_counter())

    def send(self, keys: bytes, marker: bytes) -> tuple[float, asyncio.Future[float]]:
        """Write ``keys``; a future for the moment ``marker`` shows in the output after them."""
        self.output.clear()
        self._marker = marker
        self._seen = asyncio.get_running_loop().create_future()
        sent = time.perf_counter()
        os.write(self.master, keys)
        return sent, self._seen

    async def expect(self, marker: bytes, since: float) -> float:
        """Milliseconds from ``since`` until ``marker`` shows (counting output already read)."""
        self._marker = marker
        self._seen = asyncio.get_running_loop().create_future()
        if marker in plain(self.output):
            self._seen.set_result(time.perf_counter())
        seen = await asyncio.wait_for(self._seen, WAIT)
        return (seen - since) * 1000

    async def key(self, keys: bytes, marker: bytes) -> float:
        sent, seen = self.send(keys, marker)
        return (await asyncio.wait_for(seen, WAIT) - sent) * 1000

    def close(self) -> None:
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(self.master)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        with contextlib.suppress(OSError):
            os.close(self.master)


def ssh_floor_ms(port: int) -> float:
    """From starting ``ssh -T`` to its exit after the door's hint: connect, key exchange, auth."""
    started = time.perf_counter()
    subprocess.run(
        ["ssh", "-T", *ssh_options(port), f"floor@{LOOPBACK}"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=clean_env(),
        check=False,
        timeout=WAIT,
    )
    return (time.perf_counter() - started) * 1000


async def open_session(index: int, port: int) -> tuple[Session, float]:
    started = time.perf_counter()
    session = Session(index, port)
    return session, await session.expect(LOBBY, started)


async def typist(session: Session, until: float, figures: Figures) -> None:
    """Open the join dialog, type the code, clear it, type it again, close; until ``until``."""
    pace = random.Random(session.index)
    await asyncio.sleep(pace.uniform(0, PACE[1] * 4))  # players do not start in step
    while time.perf_counter() < until:
        figures.screen_ms.append(await session.key(b"j", DIALOG))
        for _ in range(2):
            await asyncio.sleep(pace.uniform(*PACE))
            figures.typing_ms.append(await session.key(CODE[:2].encode(), CODE[:2].encode()))
            for typed in range(3, len(CODE) + 1):
                await asyncio.sleep(pace.uniform(*PACE))
                echo = CODE[:typed].encode()
                figures.typing_ms.append(await session.key(CODE[typed - 1].encode(), echo))
            await asyncio.sleep(pace.uniform(*PACE))
            figures.typing_ms.append(await session.key(b"\x15", PLACEHOLDER))  # Ctrl+U
        await asyncio.sleep(pace.uniform(*PACE))
        sent, _ = session.send(b"\x1b", LOBBY)
        await session.expect(LOBBY, sent)
        await asyncio.sleep(pace.uniform(*PACE))


async def measure(sessions: int, seconds: float, folder: Path, serve_flags: list[str]) -> Figures:
    figures = Figures(sessions)
    with serve_door(folder, *serve_flags, name="bench host") as door:
        warmup, _ = await open_session(sessions, door.ssh_port)
        warmup.close()
        figures.floor_ms = [ssh_floor_ms(door.ssh_port) for _ in range(5)]
        await asyncio.sleep(1.0)
        opened: list[Session] = []
        try:
            for index in range(sessions):
                session, lobby_ms = await open_session(index, door.ssh_port)
                opened.append(session)
                figures.lobby_ms.append(lobby_ms)
            await asyncio.sleep(1.0)
            helpers = descendants(door.process.pid)
            figures.processes = len(helpers)
            figures.pss_kib = sum(pss_kib(pid) for pid in helpers)
            groups = {
                "host": [door.process.pid],
                "door": sorted(helpers),
                "ssh": [s.process.pid for s in opened],
                "bench": [os.getpid()],
            }
            before = cpu_by_group(groups)
            until = time.perf_counter() + seconds
            await asyncio.gather(*(typist(s, until, figures) for s in opened))
            after = cpu_by_group(groups)
            figures.cpu_seconds = {name: after[name] - before[name] for name in groups}
        finally:
            for session in opened:
                session.close()
    return figures


def machine() -> str:
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        for line in subprocess.run(
            ["lscpu"], capture_output=True, text=True, check=True, encoding="utf-8"
        ).stdout.splitlines():
            if line.startswith("Model name:"):
                return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} CPUs"
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs"


def table(results: list[Figures]) -> str:
    head = (
        f"{'sessions':>8} {'procs':>5} {'PSS/session':>12} {'ssh floor':>10} "
        f"{'lobby p50':>10} {'p90':>7} {'max':>7} {'keys':>6} {'key p50':>8} {'p99':>7} {'max':>7}"
    )
    rows = [head, "-" * len(head)]
    for f in results:
        rows.append(
            f"{f.sessions:>8} {f.processes:>5} {f.pss_per_session_mib:>8.1f} MiB "
            f"{percentile(f.floor_ms, 0.5):>7.0f} ms "
            f"{percentile(f.lobby_ms, 0.5):>7.0f} ms {percentile(f.lobby_ms, 0.9):>7.0f} "
            f"{max(f.lobby_ms):>7.0f} {len(f.key_ms):>6} {percentile(f.key_ms, 0.5):>5.0f} ms "
            f"{percentile(f.key_ms, 0.99):>7.0f} {max(f.key_ms):>7.0f}"
        )
    return "\n".join(rows)


def summary(figures: Figures) -> dict[str, float | int]:
    suffix = f"_at_{figures.sessions}"
    return {
        f"pss_per_session_mib{suffix}": round(figures.pss_per_session_mib, 2),
        f"lobby_ms_p50{suffix}": round(percentile(figures.lobby_ms, 0.5), 1),
        f"lobby_ms_p90{suffix}": round(percentile(figures.lobby_ms, 0.9), 1),
        f"ssh_floor_ms_p50{suffix}": round(percentile(figures.floor_ms, 0.5), 1),
        f"key_to_screen_p99_ms{suffix}": round(percentile(figures.key_ms, 0.99), 1),
        f"key_to_screen_p50_ms{suffix}": round(percentile(figures.key_ms, 0.5), 1),
        f"keys_timed{suffix}": len(figures.key_ms),
        f"typing_key_p99_ms{suffix}": round(percentile(figures.typing_ms, 0.99), 1),
        f"screen_key_p99_ms{suffix}": round(percentile(figures.screen_ms, 0.99), 1),
    }


async def run(counts: list[int], seconds: float, serve_flags: list[str]) -> int:
    results = []
    with tempfile.TemporaryDirectory(prefix="partyhost-bench-ssh-") as folder:
        for sessions in counts:
            print(f"{sessions} sessions ...", file=sys.stderr, flush=True)
            folder_of_run = Path(folder) / str(sessions)
            results.append(await measure(sessions, seconds, folder_of_run, serve_flags))
    print(f"SSH door, OpenSSH sessions at {COLUMNS}x{ROWS}; {machine()}")
    print(f"Python {platform.python_version()}; typing for {seconds:.0f} s per run")
    print(table(results))
    for figures in results:
        print(
            f"{figures.sessions} sessions: typing keys"
            f" p50 {percentile(figures.typing_ms, 0.5):.0f} ms,"
            f" p99 {percentile(figures.typing_ms, 0.99):.0f} ms ({len(figures.typing_ms)});"
            f" dialog opening p50 {percentile(figures.screen_ms, 0.5):.0f} ms,"
            f" p99 {percentile(figures.screen_ms, 0.99):.0f} ms ({len(figures.screen_ms)})"
        )
        used = ", ".join(f"{name} {cpu:.1f} s" for name, cpu in figures.cpu_seconds.items())
        print(f"CPU while typing ({figures.sessions} sessions): {used}")
    report: dict[str, object] = {"sessions": counts, "machine": machine()}
    for figures in results:
        report.update(summary(figures))
    print(json.dumps(report))
    return 0


def main() -> int:
    global PACE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", default="10,30", help="session counts, one run each")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--serve-flag",
        action="append",
        default=[],
        metavar="FLAG",
        help="extra `partyhost serve` flag for every run, e.g. --serve-flag=--ssh-max-sessions=40",
    )
    parser.add_argument(
        "--smoke", action="store_true", help="2 sessions typing quickly, once: does it run?"
    )
    args = parser.parse_args()
    if args.smoke:  # every step once, in seconds: a short typing time, keys without a pause
        args.sessions, args.seconds, PACE = "2", 1.0, (0.01, 0.02)
    if shutil.which("ssh") is None:
        print("ssh_door: the OpenSSH client (ssh) is needed", file=sys.stderr)
        return 2
    counts = [int(count) for count in args.sessions.split(",") if count]
    return asyncio.run(run(counts, args.seconds, args.serve_flag))


if __name__ == "__main__":
    sys.exit(main())
