"""The two servers ``host_load.py`` loads, started as subprocesses, and their /proc figures.

``partyhost`` is the real host (``partyhost serve`` run by bench/watched_host.py,
which measures it from inside; under cProfile with ``HOST_LOAD_PROFILE=FILE``;
with other garbage-collector settings with ``HOST_LOAD_GC=calm|schedule``);
``relay`` is bench/relay.py replaying one recorded trace per game of the run
(bench/load_mix.py records them here).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgpack
from load_mix import record_trace

ROOT = Path(__file__).resolve().parent.parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
START_TIMEOUT = 20.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def process_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def process_rss_bytes(pid: int) -> int:
    return int(Path(f"/proc/{pid}/statm").read_text(encoding="utf-8").split()[1]) * PAGE_SIZE


def server_command(
    kind: str, port: int, data_dir: Path, seats: Mapping[str, int], clients: int, rooms: int
) -> list[str]:
    """The command line of one target; for the relay, records its traces first.

    ``seats``: the seat count of each game of the run (a trace per game).
    """
    if kind == "relay":
        traces = {game: record_trace(game, count) for game, count in seats.items()}
        trace_file = data_dir / "traces.msgpack"
        trace_file.write_bytes(msgpack.packb(traces, use_bin_type=True))
        return [sys.executable, str(ROOT / "bench" / "relay.py"), str(port), str(trace_file)]
    profile = os.environ.get("HOST_LOAD_PROFILE")
    return [
        sys.executable,
        str(ROOT / "bench" / "watched_host.py"),
        "--stats-file",
        str(stats_file(data_dir)),
        "--gc",
        os.environ.get("HOST_LOAD_GC", "default"),
        *(["--profile", profile] if profile else []),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--data",
        str(data_dir),
        # Room for every client and room of the run (the defaults are LAN-party sized).
        "--max-clients",
        str(clients + 64),
        "--max-per-address",  # every client of the run comes from 127.0.0.1
        str(clients + 64),
        "--max-rooms",
        str(rooms + 16),
        "--max-rooms-per-address",  # every room of the run is made from this address
        str(rooms + 16),
    ]


def stats_file(data_dir: Path) -> Path:
    """Where the partyhost host of a run writes its own figures (bench/watched_host.py)."""
    return data_dir / "hoststats.jsonl"


def host_snapshot(process: subprocess.Popen[bytes], path: Path, count: int) -> dict[str, Any]:
    """Ask the host for a snapshot of its figures (SIGUSR1) and return it (the ``count``-th)."""
    process.send_signal(signal.SIGUSR1)
    return read_snapshot(path, count)


def read_snapshot(path: Path, count: int, timeout: float = 10.0) -> dict[str, Any]:
    """The ``count``-th snapshot line of ``path`` (1-based), once the host has written it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        if len(lines) >= count:
            found: dict[str, Any] = json.loads(lines[count - 1])
            return found
        time.sleep(0.02)
    raise RuntimeError(f"the host wrote no snapshot {count} to {path}")


def start_server(command: list[str], port: int, log: Path) -> subprocess.Popen[bytes]:
    """Start ``command`` and return once ``port`` takes connections (or raise).

    Its output goes to ``log``, not a pipe nobody reads (a full pipe would stall it).
    """
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.05)
    process.kill()
    process.wait(10)
    raise RuntimeError(
        f"{command[1:3]} did not start: {log.read_text(encoding='utf-8', errors='replace')}"
    )


def stop_server(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
