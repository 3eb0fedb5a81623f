"""Load benchmark: one host process, this process as N rooms x M bot clients over TCP.

Each mode runs against the partyhost host *and* against a bare asyncio msgpack
relay (bench/relay.py: same framing, same fan-out of a view to every seat) in
the same invocation, so the figures carry their own floor:

- paced: every room sends 2 commands/s, room start times spread evenly over
  the first period; latency is from sending a command to the moment the last
  seat of that room has the updated view. Host CPU and RSS are read from /proc.
- saturation: every room sends its next command as soon as all its seats have
  the view for the previous one; throughput in commands/s.

partyhost rooms play real T-Shirt games (bots choose from their own views via
the game's bot policy); a finished game is replaced by a new room.

Both targets cost this process the same per command: the relay replays the
per-seat frames (view plus events) of a real recorded T-Shirt game, so every
client decodes frames of the same shape and size, and its bots choose their
command from those views with the same bot policy. The relay also pings every
client every 5 s like the host (each client at its own phase), so this
process answers as many pings for both. Only the host side differs.

The machine may be shared: wall-clock latencies then carry other processes'
noise, while "host CPU/cmd" (the host's CPU seconds per command, from /proc)
stays comparable between runs. Repeat runs and compare medians.

Usage: python bench/host_load.py [--rooms 250] [--seats 4] [--paced 20] [--saturation 10]
Prints a table, then one JSON line with every figure.

Set ``HOST_LOAD_PROFILE=FILE`` to run the partyhost host under cProfile
(CPU time, not wall time: the machine may be shared); the stats are written
to FILE when the host stops (read them with ``python -m pstats FILE``).
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
from partyhost.deckfiles import load_deck_file
from partyhost.engine.core import apply, apply_tick
from partyhost.engine.registry import get_game
from partyhost.engine.rng import Rng

HEADER = struct.Struct(">I")
ROOT = Path(__file__).resolve().parent.parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
GAME = get_game("tshirt")
OPTIONS = {"target": 20000}
TRACE_STEPS = 120
"""Commands of the recorded game the relay replays (several whole rounds)."""
PROFILED_HOST = """
import cProfile, sys, time
from partyhost.cli import main
profile = cProfile.Profile(time.process_time)
profile.enable()
try:
    main(sys.argv[2:])
finally:
    profile.disable()
    profile.dump_stats(sys.argv[1])
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def process_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def process_rss_bytes(pid: int) -> int:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_SIZE


def record_trace(seats: int, steps: int = TRACE_STEPS) -> list[list[dict[str, Any]]]:
    """Per-seat ``{view, events}`` of a real T-Shirt game, one entry per command.

    Entry 0 is the table after the opening deal; each later entry is what every
    seat got after one bot command, exactly as the host would send it.
    """
    deck = load_deck_file(ROOT / "decks" / "the-t-shirt-game.yaml", "shipped").deck
    rules = GAME.rules_for(OPTIONS)
    seat_numbers = list(range(seats))
    rng = Rng(12345)
    state = GAME.setup(deck, seat_numbers, rules, 777)
    state, events = apply_tick(GAME, state, 0.0)
    trace: list[list[dict[str, Any]]] = []
    while len(trace) < steps and not GAME.is_over(state):
        frames = []
        for seat in seat_numbers:
            shown = [event.for_seat(seat) for event in events]
            frames.append(
                {
                    "view": GAME.view(state, seat),
                    "events": [event for event in shown if event is not None],
                }
            )
        trace.append(frames)
        for seat in rng.shuffled(seat_numbers):
            command = GAME.bot_command(frames[seat]["view"], rng, 0.0)
            if command is not None:
                state, events = apply(GAME, state, seat, command, 0.0)
                break
        else:
            raise RuntimeError("recorded game stalled")
    return trace


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
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def send(self, message: dict[str, Any]) -> None:
        body = msgpack.packb(message, use_bin_type=True)
        assert self.transport is not None
        self.transport.write(HEADER.pack(len(body)) + body)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        buffer = self.buffer
        start = 0
        while len(buffer) - start >= HEADER.size:
            (length,) = HEADER.unpack_from(buffer, start)
            end = start + HEADER.size + length
            if len(buffer) < end:
                break
            message = msgpack.unpackb(
                memoryview(buffer)[start + HEADER.size : end], raw=False, strict_map_key=False
            )
            start = end
            kind = message.get("t")
            if kind == "view":
                self.version = int(message["version"])
                self.view = message.get("view")
                self.room.view_arrived(self)
            elif kind == "ping":
                self.send({"t": "pong", "n": message.get("n", 0)})
            elif kind == "error" and self.room.refused(message):
                pass
            else:
                self.inbox.put_nowait(message)
        del buffer[:start]

    async def expect(self, kind: str, timeout: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = await asyncio.wait_for(self.inbox.get(), deadline - time.monotonic())
            if message.get("t") == kind:
                return message
            if message.get("t") == "error":
                raise RuntimeError(f"host error while waiting for {kind}: {message}")

    def drain_inbox(self) -> None:
        while not self.inbox.empty():
            self.inbox.get_nowait()


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    commands: int = 0
    refused: int = 0
    timeouts: int = 0
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
        self.pending_ref = 0
        self.sent_at = 0.0
        self.arrived = 0
        self.settled = asyncio.Event()
        self.changed = asyncio.Event()
        self.rng = Rng(index + 1)

    def view_arrived(self, client: Client) -> None:
        self.changed.set()
        if self.pending_version is None or client.version <= self.pending_version:
            return
        self.arrived += 1
        if self.arrived == len(self.clients):
            self.stats.latencies.append(time.perf_counter() - self.sent_at)
            self.stats.commands += 1
            self.pending_version = None
            self.settled.set()

    def refused(self, message: dict[str, Any]) -> bool:
        """An error answering the pending ``play``: count it and stop waiting."""
        if self.pending_version is None or message.get("ref") != self.pending_ref:
            return False
        self.stats.refused += 1
        self.pending_version = None
        self.settled.set()
        return True

    async def wait_until_playing(self, timeout: float = 30.0) -> None:
        """Until every seat has a view of a dealt round (past ``starting``)."""
        deadline = time.monotonic() + timeout
        while any(
            client.view is None or client.view.get("phase") in (None, "lobby", "starting")
            for client in self.clients
        ):
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), deadline - time.monotonic())
            except TimeoutError:
                raise RuntimeError(f"room {self.index} did not start") from None

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
            await self.wait_until_playing()
            return
        for number, client in enumerate(self.clients):
            client.send({"t": "hello", "protocol": 1, "name": f"bot{self.index}-{number}"})
            await client.expect("welcome")
        await self.start_game()

    async def start_game(self) -> None:
        """Create a room, seat everyone, and start once the owner sees all seats ready."""
        owner = self.clients[0]
        owner.send({"t": "create_room", "game": "tshirt", "options": OPTIONS})
        code = (await owner.expect("joined"))["code"]
        for client in self.clients[1:]:
            client.send({"t": "join_room", "code": code})
            await client.expect("joined")
            client.send({"t": "set_ready", "ready": True})
        while True:
            room = await owner.expect("room")
            seats = room["seats"]
            if len(seats) == self.seat_count and all(seat["ready"] for seat in seats[1:]):
                break
        owner.send({"t": "start_game"})
        await self.wait_until_playing()
        for client in self.clients:
            client.drain_inbox()

    async def restart_game(self) -> None:
        for client in self.clients:
            client.send({"t": "leave_room"})
        for client in self.clients:
            await client.expect("left")
            client.view = None
        self.stats.games_finished += 1
        await self.start_game()

    def next_command(self) -> tuple[Client, dict[str, Any]] | None:
        for client in self.rng.shuffled(self.clients):
            view = client.view
            if view is None or not view.get("legal"):
                continue
            command = GAME.bot_command(view, self.rng, time.time())
            if command is not None:
                self.pending_ref += 1
                return client, {"t": "play", "cmd": command, "ref": self.pending_ref}
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
            self.stats.timeouts += 1
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


def start_server(
    kind: str, port: int, data_dir: Path, rooms: int, seats: int
) -> subprocess.Popen[str]:
    if kind == "relay":
        trace_file = data_dir / "trace.msgpack"
        trace_file.write_bytes(msgpack.packb(record_trace(seats), use_bin_type=True))
        command = [sys.executable, str(ROOT / "bench" / "relay.py"), str(port), str(trace_file)]
    else:
        profile = os.environ.get("HOST_LOAD_PROFILE")
        runner = ["-c", PROFILED_HOST, profile] if profile else ["-m", "partyhost.cli"]
        command = [
            sys.executable,
            *runner,
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data",
            str(data_dir),
            # Room for every client and room of the run (the defaults are LAN-party sized).
            "--max-clients",
            str(rooms * seats + 64),
            "--max-rooms",
            str(rooms + 16),
        ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            if process.poll() is not None:
                break
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
        server = start_server(kind, port, Path(data), rooms, seats)
        try:
            await asyncio.sleep(0.2)  # let the server finish starting before the idle reading
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
            paced_cpu = process_cpu_seconds(server.pid) - cpu_before
            cpu = paced_cpu / (time.perf_counter() - wall_before)
            rss_after = process_rss_bytes(server.pid)
            sat_stats = Stats()
            for table in tables:
                table.stats = sat_stats
            sat_cpu_before = process_cpu_seconds(server.pid)
            sat_start = time.perf_counter()
            await asyncio.gather(*(table.saturate(sat_start + sat_s) for table in tables))
            sat_elapsed = time.perf_counter() - sat_start
            sat_cpu = process_cpu_seconds(server.pid) - sat_cpu_before
            rss_after = max(rss_after, process_rss_bytes(server.pid))
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
                "paced_cpu_us_per_command": paced_cpu / max(1, paced_stats.commands) * 1e6,
                "saturation_cpu_us_per_command": sat_cpu / max(1, sat_stats.commands) * 1e6,
                "host_rss_mib": rss_after / 2**20,
                "rss_per_client_kib": (max(loaded_rss, rss_after) - idle_rss) / clients / 1024,
                "saturation_commands_per_s": sat_stats.commands / sat_elapsed,
                "saturation_p50_ms": percentile(sat_stats.latencies, 0.50) * 1000,
                "refused": paced_stats.refused + sat_stats.refused,
                "timeouts": paced_stats.timeouts + sat_stats.timeouts,
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
    parser.add_argument(
        "--only", choices=("relay", "partyhost"), default=None, help="run one target only"
    )
    args = parser.parse_args()

    kinds = ("relay", "partyhost") if args.only is None else (args.only,)
    results = {
        kind: asyncio.run(run_target(kind, args.rooms, args.seats, args.paced, args.saturation))
        for kind in kinds
    }
    if args.only is not None:
        print(json.dumps(results))
        return
    relay, host = results["relay"], results["partyhost"]
    rows = [
        ("clients", "clients", "{:.0f}"),
        ("paced commands", "paced_commands", "{:.0f}"),
        ("paced p50 (ms)", "paced_p50_ms", "{:.2f}"),
        ("paced p99 (ms)", "paced_p99_ms", "{:.2f}"),
        ("host CPU (%)", "host_cpu_percent", "{:.0f}"),
        ("host CPU/cmd paced (us)", "paced_cpu_us_per_command", "{:.0f}"),
        ("host CPU/cmd sat. (us)", "saturation_cpu_us_per_command", "{:.0f}"),
        ("host RSS (MiB)", "host_rss_mib", "{:.1f}"),
        ("RSS per client (KiB)", "rss_per_client_kib", "{:.1f}"),
        ("saturation (cmd/s)", "saturation_commands_per_s", "{:.0f}"),
        ("saturation p50 (ms)", "saturation_p50_ms", "{:.2f}"),
        ("refused + timeouts", "failures", "{:.0f}"),
    ]
    for result in (relay, host):
        result["failures"] = result["refused"] + result["timeouts"]
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
