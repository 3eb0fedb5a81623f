"""The chaos bench's host: a real ``python -m partyhost.net`` it can SIGKILL and restart.

Every incarnation keeps the same port and data folder, so reconnecting clients
find it again and it rebuilds its rooms from the journal. Output goes to files,
never to pipes (a pipe nobody reads fills up and stalls the host on a long run).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

LOOPBACK = "127.0.0.1"
TRACED_HOST = Path(__file__).with_name("traced_host.py")
LISTENING = re.compile(r"listening on [\d.]+:(\d+)")
GRACE_SECONDS = 4.0
"""How long an absent player's seat waits before an in-host bot plays it."""
RECLAIM_ANSWER_SECONDS = 1.5
"""How long the table has to confirm a stranger's claim to a seat (no answer is no)."""


@dataclass
class HostStats:
    starts: int = 0
    kills: int = 0
    unexpected_exits: list[str] = field(default_factory=list)
    """Incarnations that died without being killed by the harness (with their stderr)."""


class ChaosHost:
    """Starts, kills and restarts one host process on a fixed port."""

    def __init__(
        self, data_dir: Path, log_dir: Path, web_door: bool = False, trace_dir: Path | None = None
    ) -> None:
        self.data_dir = data_dir
        self.trace_dir = trace_dir
        """Where each incarnation, run under tracemalloc (bench/traced_host.py), leaves its
        snapshots (None: a plain host)."""
        self.log_dir = log_dir
        self.port = 0
        self.web_port = _free_port() if web_door else None
        """The browser door's port, the same for every incarnation (None: no door)."""
        self.process: subprocess.Popen[bytes] | None = None
        self.pids: list[int] = []
        self._killed: list[subprocess.Popen[bytes]] = []
        self.stats = HostStats()
        self.started_at = 0.0
        """When the running incarnation started (monotonic)."""
        self._logs: list[Path] = []

    async def start(self, timeout: float = 20.0) -> None:
        """Start an incarnation and wait until it listens (on the same port as before)."""
        number = self.stats.starts + 1
        out = self.log_dir / f"host-{number}.out"
        err = self.log_dir / f"host-{number}.err"
        self._logs.append(err)
        with out.open("wb") as stdout, err.open("wb") as stderr:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    *(
                        ["-m", "partyhost.net"]
                        if self.trace_dir is None
                        else [str(TRACED_HOST), str(self.trace_dir)]
                    ),
                    "--host",
                    LOOPBACK,
                    "--port",
                    str(self.port),
                    "--data",
                    str(self.data_dir),
                    "--heartbeat",
                    "1",
                    # Hostile clients may take free seats and walk away; a short grace lets
                    # in-host bots stand in for them soon, even with restarts every few
                    # seconds (each restart gives every absent player a fresh grace), and
                    # puts the stand-in path under the same faults.
                    "--grace",
                    str(GRACE_SECONDS),
                    "--bot-delay",
                    "0.05",
                    "0.2",
                    # Every bot and hostile client of the bench comes from 127.0.0.1.
                    "--max-per-address",
                    "1024",
                    "--max-rooms-per-address",
                    "1024",
                    "--reclaim-answer-seconds",
                    str(RECLAIM_ANSWER_SECONDS),
                    *([] if self.web_port is None else ["--web-port", str(self.web_port)]),
                ],
                stdout=stdout,
                stderr=stderr,
                stdin=subprocess.DEVNULL,
            )
        self.pids.append(self.process.pid)
        self.stats.starts += 1
        self.started_at = time.monotonic()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = LISTENING.search(out.read_text(errors="replace", encoding="utf-8"))
            if found:
                self.port = int(found.group(1))
                return
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"host exited at start: {err.read_text(errors='replace', encoding='utf-8')}"
                )
            await asyncio.sleep(0.02)
        raise RuntimeError(f"host did not listen within {timeout:g}s")

    def check_alive(self) -> None:
        """Record an incarnation that died by itself (a crash the clients caused)."""
        if self.process is not None and self.process.poll() is not None:
            self.stats.unexpected_exits.append(
                self._logs[-1].read_text(errors="replace", encoding="utf-8")[-4000:]
            )
            self.process = None

    async def kill_and_restart(self, down_for: float) -> None:
        """SIGKILL the host, stay down for ``down_for`` seconds, start it again."""
        self.check_alive()
        process, self.process = self.process, None
        if process is not None:
            self._killed.append(process)
            process.send_signal(signal.SIGKILL)
            self.stats.kills += 1
            await asyncio.to_thread(process.wait, 10)
        await asyncio.sleep(down_for)
        await self.start()

    async def stop(self) -> None:
        """SIGTERM (a graceful shutdown) and wait; SIGKILL if it will not go.

        Also reaps every incarnation killed earlier, so none is left a zombie.
        """
        self.check_alive()
        process, self.process = self.process, None
        if process is not None:
            process.terminate()
            try:
                await asyncio.to_thread(process.wait, 15)
            except subprocess.TimeoutExpired:
                process.kill()
                await asyncio.to_thread(process.wait, 10)
        for killed in self._killed:
            await asyncio.to_thread(killed.wait, 10)

    def tracebacks(self) -> list[str]:
        """Tracebacks any incarnation logged (the host should log none)."""
        found = []
        for path in self._logs:
            text = path.read_text(errors="replace", encoding="utf-8")
            if "Traceback" in text:
                found.append(f"{path.name}: {text[text.index('Traceback') :][:3000]}")
        return found

    def leftovers(self) -> list[int]:
        """Processes still alive that this harness started, that use its data folder, or
        that the web door started as its visitors' clients."""
        alive = [pid for pid in self.pids if _running(pid)]
        marker = str(self.data_dir).encode()
        web_client = f"join\0{LOOPBACK}:{self.port}\0".encode()  # a web visitor's client
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if (marker in cmdline or web_client in cmdline) and int(entry.name) not in alive:
                alive.append(int(entry.name))
        return alive


def _free_port() -> int:
    """A loopback port nothing listens on now (the door takes it at every start)."""
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


def _running(pid: int) -> bool:
    """True if ``pid`` is alive and not a zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"
