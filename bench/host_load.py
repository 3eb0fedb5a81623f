"""Load benchmark: one host process, this process as N rooms x M bot clients over TCP.

Each mode runs against the partyhost host *and* against a bare asyncio msgpack
relay (bench/relay.py: same framing, same fan-out of a ~1 KiB view to every
seat) in the same invocation, so the figures carry their own floor:

- paced: every room sends 2 commands/s, room start times spread evenly over
  the first period; latency is from sending a command to the moment the last
  seat of that room has the updated view. Host CPU and RSS are read from /proc.
- saturation: every room sends its next command as soon as all its seats have
  the view for the previous one; throughput in commands/s.

partyhost rooms play real T-Shirt games (bots choose from their own views via
the game's bot policy); a finished game is replaced by a new room.

Usage: python bench/host_load.py [--rooms 250] [--seats 4] [--paced 20] [--saturation 10]
Prints a table, then one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
from partyhost.engine.registry import get_game
from partyhost.engine.rng import Rng

HEADER = struct.Struct(">I")
ROOT = Path(__file__).resolve().parent.parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def process_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def process_rss_bytes(pid: int) -> int:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_SIZE


class Client(asyncio.Protocol):
    """One seat: decodes frames, remembers the newest view, reports arrivals."""

    def __init__(self, room: Room, seat_index: int) -> None:
        self.room = room
        self.seat_index = seat_index
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.view: dict[str, Any] | None = None
        self.version = -1

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def send(self, message: dict[str, Any]) -> None:
        body = msgpack.packb(message, use_bin_type=True)
        assert self.transport is not None
        self.transport.write(HEADER.pack(len(body)) + body)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while len(self.buffer) >= HEADER.size:
            (length,) = HEADER.unpack_from(self.buffer)
            if len(self.buffer) < HEADER.size + length:
                return
            body = bytes(self.buffer[HEADER.size : HEADER.size + length])
            del self.buffer[: HEADER.size + length]
            message = msgpack.unpackb(body, raw=False)
            kind = message.get("t")
            if kind == "view":
                self.version = int(message["version"])
                self.view = message.get("view")
                self.room.view_arrived(self)
            elif kind == "ping":
                self.send({"t": "pong", "n": message.get("n", 0)})
            else:
                self.inbox.put_nowait(message)

    async def expect(self, kind: str, timeout: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = await asyncio.wait_for(self.inbox.get(), deadline - time.monotonic())
            if message.get("t") == kind:
                return message
            if message.get("t") == "error":
                raise RuntimeError(f"host error while waiting for {kind}: {message}")


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    commands: int = 0
    games_finished: int = 0


class Room:
    """A table of clients plus the command pacing and latency bookkeeping."""

    def __init__(self, index: int, seats: int, stats: Stats, relay: bool) -> None:
        self.index = index
        self.seat_count = seats
        self.stats = stats
        self.relay = relay
        self.clients: list[Client] = []
        self.pending_version: int | None = None
        self.sent_at = 0.0
        self.arrived = 0
        self.settled = asyncio.Event()
        self.rng = Rng(index + 1)
        self.relay_version = 0

    def view_arrived(self, client: Client) -> None:
        if self.pending_version is None or client.version <= self.pending_version:
            return
        self.arrived += 1
        if self.arrived == len(self.clients):
            self.stats.latencies.append(time.perf_counter() - self.sent_at)
            self.stats.commands += 1
            self.pending_version = None
            self.settled.set()

    async def connect(self, port: int) -> None:
        loop = asyncio.get_running_loop()
        for seat in range(self.seat_count):
            _, client = await loop.create_connection(
                lambda seat=seat: Client(self, seat), "127.0.0.1", port
            )
            self.clients.append(client)
        if self.relay:
            for client in self.clients:
                client.send({"t": "hello", "room": str(self.index)})
            return
        await self.seat_players()

    async def seat_players(self) -> None:
        for number, client in enumerate(self.clients):
            client.send({"t": "hello", "protocol": 1, "name": f"bot{self.index}-{number}"})
            await client.expect("welcome")
        owner = self.clients[0]
        owner.send({"t": "create_room", "game": "tshirt", "options": {"target": 20000}})
        code = (await owner.expect("joined"))["code"]
        for client in self.clients[1:]:
            client.send({"t": "join_room", "code": code})
            await client.expect("joined")
            client.send({"t": "set_ready", "ready": True})
        await asyncio.sleep(0.05)
        owner.send({"t": "start_game"})
        deadline = time.monotonic() + 30
        while any(
            client.view is None or client.view.get("phase") in (None, "lobby")
            for client in self.clients
        ):
            if time.monotonic() > deadline:
                raise RuntimeError(f"room {self.index} did not start")
            await asyncio.sleep(0.01)

    async def restart_game(self) -> None:
        for client in self.clients:
            client.send({"t": "leave_room"})
            client.view = None
        await asyncio.sleep(0.05)
        self.stats.games_finished += 1
        owner = self.clients[0]
        owner.send({"t": "create_room", "game": "tshirt", "options": {"target": 20000}})
        code = (await owner.expect("joined"))["code"]
        for client in self.clients[1:]:
            client.send({"t": "join_room", "code": code})
            await client.expect("joined")
            client.send({"t": "set_ready", "ready": True})
        await asyncio.sleep(0.05)
        owner.send({"t": "start_game"})
        while any(client.view is None for client in self.clients):
            await asyncio.sleep(0.01)

    def next_command(self) -> tuple[Client, dict[str, Any]] | None:
        if self.relay:
            client = self.clients[self.rng.below(len(self.clients))]
            self.relay_version += 1
            return client, {"t": "play", "v": max(c.version for c in self.clients)}
        game = get_game("tshirt")
        order = self.rng.shuffled(self.clients)
        for client in order:
            view = client.view
            if view is None or not view.get("legal"):
                continue
            command = game.bot_command(view, self.rng, time.time())
            if command is not None:
                return client, {"t": "play", "cmd": command}
        return None

    async def send_one(self) -> bool:
        """Send one command and wait until every seat has the new view."""
        if not self.relay and any(
            client.view is not None and client.view.get("phase") == "over"
            for client in self.clients
        ):
            await self.restart_game()
        choice = self.next_command()
        if choice is None:
            return False
        client, message = choice
        self.pending_version = max(c.version for c in self.clients)
        self.arrived = 0
        self.settled.clear()
        self.sent_at = time.perf_counter()
        client.send(message)
        try:
            await asyncio.wait_for(self.settled.wait(), 10)
        except TimeoutError:
            self.pending_version = None
            return False
        return True

    async def paced(self, start_delay: float, period: float, until: float) -> None:
        await asyncio.sleep(start_delay)
        next_at = time.perf_counter()
        while time.perf_counter() < until:
            await self.send_one()
            next_at += period
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))

    async def saturate(self, until: float) -> None:
        while time.perf_counter() < until:
            if not await self.send_one():
                await asyncio.sleep(0.001)

    def close(self) -> None:
        for client in self.clients:
            if client.transport is not None:
                client.transport.close()


def start_server(kind: str, port: int, data_dir: Path) -> subprocess.Popen[str]:
    if kind == "relay":
        command = [sys.executable, str(ROOT / "bench" / "relay.py"), str(port)]
    else:
        command = [
            sys.executable,
            "-m",
            "partyhost.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data",
            str(data_dir),
        ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError(
        f"{kind} server did not start: {process.stdout.read() if process.stdout else ''}"
    )


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def run_target(
    kind: str, rooms: int, seats: int, paced_s: float, sat_s: float
) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        server = start_server(kind, port, Path(data))
        try:
            idle_rss = process_rss_bytes(server.pid)
            paced_stats = Stats()
            tables = [Room(i, seats, paced_stats, kind == "relay") for i in range(rooms)]
            for start in range(0, rooms, 25):
                await asyncio.gather(*(table.connect(port) for table in tables[start : start + 25]))
            loaded_rss = process_rss_bytes(server.pid)
            period = 0.5
            cpu_before, wall_before = process_cpu_seconds(server.pid), time.perf_counter()
            until = time.perf_counter() + paced_s
            await asyncio.gather(
                *(table.paced(period * i / rooms, period, until) for i, table in enumerate(tables))
            )
            cpu = (process_cpu_seconds(server.pid) - cpu_before) / (
                time.perf_counter() - wall_before
            )
            rss_after = process_rss_bytes(server.pid)
            sat_stats = Stats()
            for table in tables:
                table.stats = sat_stats
            sat_start = time.perf_counter()
            await asyncio.gather(*(table.saturate(sat_start + sat_s) for table in tables))
            sat_elapsed = time.perf_counter() - sat_start
            for table in tables:
                table.close()
            clients = rooms * seats
            return {
                "target": kind,
                "clients": clients,
                "paced_commands": paced_stats.commands,
                "paced_p50_ms": percentile(paced_stats.latencies, 0.50) * 1000,
                "paced_p99_ms": percentile(paced_stats.latencies, 0.99) * 1000,
                "paced_mean_ms": (
                    statistics.fmean(paced_stats.latencies) * 1000
                    if paced_stats.latencies
                    else float("nan")
                ),
                "host_cpu_percent": cpu * 100,
                "host_rss_mib": rss_after / 2**20,
                "rss_per_client_kib": (max(loaded_rss, rss_after) - idle_rss) / clients / 1024,
                "saturation_commands_per_s": sat_stats.commands / sat_elapsed,
                "games_finished": paced_stats.games_finished + sat_stats.games_finished,
            }
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--paced", type=float, default=20.0, help="seconds of paced load")
    parser.add_argument("--saturation", type=float, default=10.0, help="seconds of saturation")
    args = parser.parse_args()

    results = {
        kind: asyncio.run(run_target(kind, args.rooms, args.seats, args.paced, args.saturation))
        for kind in ("relay", "partyhost")
    }
    relay, host = results["relay"], results["partyhost"]
    rows = [
        ("clients", "clients", "{:.0f}"),
        ("paced commands", "paced_commands", "{:.0f}"),
        ("paced p50 (ms)", "paced_p50_ms", "{:.2f}"),
        ("paced p99 (ms)", "paced_p99_ms", "{:.2f}"),
        ("host CPU (%)", "host_cpu_percent", "{:.0f}"),
        ("host RSS (MiB)", "host_rss_mib", "{:.1f}"),
        ("RSS per client (KiB)", "rss_per_client_kib", "{:.1f}"),
        ("saturation (cmd/s)", "saturation_commands_per_s", "{:.0f}"),
    ]
    print(f"{'figure':<24}{'relay':>12}{'partyhost':>12}{'ratio':>10}")
    for label, key, fmt in rows:
        ratio = host[key] / relay[key] if relay[key] else float("nan")
        print(f"{label:<24}{fmt.format(relay[key]):>12}{fmt.format(host[key]):>12}{ratio:>10.2f}")
    p99_ratio = host["paced_p99_ms"] / relay["paced_p99_ms"]
    throughput_ratio = host["saturation_commands_per_s"] / relay["saturation_commands_per_s"]
    print()
    print(
        f"goal p99 < 5 ms: {'met' if host['paced_p99_ms'] < 5 else 'missed'}; "
        f"p99 within 4x relay: {'met' if p99_ratio < 4 else 'missed'} ({p99_ratio:.2f}x); "
        f"throughput >= 1/3 relay: {'met' if throughput_ratio >= 1 / 3 else 'missed'} "
        f"({throughput_ratio:.2f}); RSS/client < 100 KiB: "
        f"{'met' if host['rss_per_client_kib'] < 100 else 'missed'}"
    )
    print(
        json.dumps(
            {
                "relay": relay,
                "partyhost": host,
                "p99_ratio": p99_ratio,
                "throughput_ratio": throughput_ratio,
                "games_finished": host["games_finished"],
            }
        )
    )


if __name__ == "__main__":
    main()
