"""Load benchmark: one host process, this process as N rooms x M bot clients over TCP.

Each mode runs against the partyhost host *and* against a bare asyncio msgpack
relay (bench/relay.py: same framing, same fan-out of a view to every seat) in
the same invocation, so the figures carry their own floor:

- paced: every room sends 2 commands/s, room start times spread evenly over
  the first period; latency is from sending a command to the moment the last
  seat of that room has the updated view. Host CPU and RSS are read from /proc.
- saturation: every room sends its next command as soon as all its seats have
  the view for the previous one; throughput in commands/s.

Rooms play real games: ``--games mix`` (the default) cycles the rooms through
every game and variant (The T-Shirt Game, the four Game, Set, Match! games,
What Do You Meme?), ``--games tshirt`` plays T-Shirt only (comparable with
T-Shirt-only figures of earlier runs); see bench/load_mix.py. Each room takes
the game's seat count nearest ``--seats`` (Four Corners: 2). Bots choose from
their own views with the game's bot policy; a finished game is replaced by a
new room. Figures come per game and in total.

One command is in flight per room at a time, also in the real-time games:
simultaneous claims would tie nearly every Stealing Home round, which people
do not do, and one command at a time keeps latency attributable. Races still
happen against the host's timers (a Stealing Home claim settled by the tie
window, a stall clock): a command the rules refuse (stale, the card already
taken, the game over) counts as refused, by its error code; a room where no
bot can act waits for the next view. A view raised by a timer while a command
is in flight answers that command too (its latency is then short); a refusal
arriving after that counts as "late" (both are rare and reported).

Both targets cost this process the same per command: the relay replays the
per-seat frames (view plus events) of real recorded games, one trace per game
of the run, each room the game's trace, so every client decodes frames of the
same shapes and sizes, and its bots choose their command from those views
with the same bot policy. The relay also pings every client every 5 s like
the host (each client at its own phase), so this process answers as many
pings for both. Only the host side differs (the host also sends the views
its timers cause).

The machine may be shared: wall-clock latencies then carry other processes'
noise, while "host CPU/cmd" (the host's CPU seconds per command, from /proc)
stays comparable between runs. Repeat runs and compare medians.

Usage: python bench/host_load.py [--games mix] [--rooms 250] [--seats 4] [--paced 20]
[--saturation 10] [--smoke] (one room per game and a second per mode, to check
that it still runs). Prints the tables (totals, per game), then one JSON line with
every figure and the machine.

The partyhost host measures itself too (bench/watched_host.py): each
command from the moment its bytes are read to the moment its last frame is
written, and every event-loop turn, per phase; every turn over 2 ms goes to
the host's log with the callbacks and garbage collections that took it (wall
and CPU time). The report prints those figures, their causes, and how often
this process's own loop stalled. ``HOST_LOAD_KEEP_LOG=PREFIX`` keeps each
server's log as ``PREFIX.relay`` and ``PREFIX.partyhost``.

Set ``HOST_LOAD_PROFILE=FILE`` to run the partyhost host under cProfile
(CPU time, not wall time: the machine may be shared); the stats are written
to FILE when the host stops (read them with ``python -m pstats FILE``).
``HOST_LOAD_GC=calm`` or ``schedule`` tries other garbage-collector settings
on the host (see bench/watched_host.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import shutil
import socket
import struct
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

import msgpack
from load_mix import machine, options_for, parse_games, seats_for
from load_report import Stats, figures, merged, report
from load_servers import (
    free_port,
    host_snapshot,
    process_cpu_seconds,
    process_rss_bytes,
    read_snapshot,
    server_command,
    start_server,
    stats_file,
    stop_server,
)
from partyhost.engine.registry import get_game
from partyhost.engine.rng import Rng
from watched_host import LoopMonitor

HEADER = struct.Struct(">I")
COMMAND_TIMEOUT = 10.0
"""Seconds a command may go unanswered before it counts as a timeout."""
IDLE_WAIT = 0.5
"""Longest wait for a new view when no bot of a room can act (a timer will move it)."""


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
            elif kind == "error" and self.room.play_refused(message):
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


class Room:
    """A table of clients playing one game, plus the pacing and latency bookkeeping."""

    def __init__(self, index: int, game_id: str, seats: int, stats: Stats, relay: bool) -> None:
        self.index = index
        self.game_id = game_id
        self.game = get_game(game_id)
        self.seat_count = seats
        self.stats = stats
        self.relay = relay
        self.clients: list[Client] = []
        self.pending_version: int | None = None
        self.pending_ref = 0
        self.sent_at = 0.0
        self.settled = asyncio.Event()
        self.changed = asyncio.Event()
        self.rng = Rng(index + 1)

    def view_arrived(self, client: Client) -> None:
        self.changed.set()
        pending = self.pending_version
        if pending is None or client.version <= pending:
            return
        if all(other.version > pending for other in self.clients):
            self.stats.latencies.append(time.perf_counter() - self.sent_at)
            self.stats.commands += 1
            self.pending_version = None
            self.settled.set()

    def play_refused(self, message: dict[str, Any]) -> bool:
        """An error answering a ``play`` (it carries our ``ref``): count it, stop waiting."""
        if message.get("ref") is None:
            return False
        if self.pending_version is not None and message["ref"] == self.pending_ref:
            self.stats.refused += 1
            self.stats.refusal_codes[str(message.get("code"))] += 1
            self.pending_version = None
            self.settled.set()
        else:
            self.stats.late_refusals += 1
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
            _, client = await loop.create_connection(partial(Client, self, seat), "127.0.0.1", port)
            self.clients.append(client)
        if self.relay:
            for client in self.clients:
                client.send({"t": "hello", "room": str(self.index), "game": self.game_id})
            await self.wait_until_playing()
            return
        for number, client in enumerate(self.clients):
            client.send({"t": "hello", "protocol": 1, "name": f"bot{self.index}-{number}"})
            await client.expect("welcome")
        await self.start_game()

    async def start_game(self) -> None:
        """Create a room, seat everyone, and start once the owner sees all seats ready."""
        owner = self.clients[0]
        owner.send({"t": "create_room", "game": self.game_id, "options": options_for(self.game_id)})
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
        """A bot command of a random seat that has one (the relay: any command)."""
        for client in self.rng.shuffled(self.clients):
            view = client.view
            if view is None or not view.get("legal"):
                continue
            command = self.game.bot_command(view, self.rng, time.time())
            if command is not None:
                self.pending_ref += 1
                return client, {"t": "play", "cmd": command, "ref": self.pending_ref}
        if self.relay:
            # A replayed view whose bots all wait: the relay answers any frame alike.
            self.pending_ref += 1
            return self.clients[0], {"t": "play", "cmd": {"type": "wait"}, "ref": self.pending_ref}
        return None

    async def send_one(self) -> None:
        """Send one command and wait until every seat has a newer view (or a refusal)."""
        if not self.relay and any(
            client.view is not None and client.view.get("phase") == "over"
            for client in self.clients
        ):
            await self.restart_game()
        choice = self.next_command()
        if choice is None:
            # Nobody can act until a timer runs on the host: wait for its view.
            self.stats.waits += 1
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), IDLE_WAIT)
            return
        client, message = choice
        self.pending_version = max(c.version for c in self.clients)
        self.settled.clear()
        self.sent_at = time.perf_counter()
        client.send(message)
        try:
            await asyncio.wait_for(self.settled.wait(), COMMAND_TIMEOUT)
        except TimeoutError:
            self.stats.timeouts += 1
            self.pending_version = None

    async def paced(self, start_delay: float, period: float, until: float) -> None:
        await asyncio.sleep(start_delay)
        next_at = time.perf_counter()
        while time.perf_counter() < until:
            await self.send_one()
            next_at += period
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))

    async def saturate(self, until: float) -> None:
        while time.perf_counter() < until:
            await self.send_one()

    def close(self) -> None:
        for client in self.clients:
            if client.transport is not None:
                client.transport.close()


async def run_target(
    kind: str, games: list[str], rooms: int, seats: int, paced_s: float, sat_s: float
) -> dict[str, Any]:
    port = free_port()
    paced_stats = {game: Stats() for game in games}
    sat_stats = {game: Stats() for game in games}
    tables = []
    for index in range(rooms):
        game = games[index % len(games)]
        tables.append(Room(index, game, seats_for(game, seats), paced_stats[game], kind == "relay"))
    clients = sum(table.seat_count for table in tables)
    seats_of = {table.game_id: table.seat_count for table in tables}
    inside: dict[str, dict[str, Any]] = {}
    """The host's own figures per phase (partyhost only): see bench/watched_host.py."""
    bench_loop = LoopMonitor(log_turns=False)
    with tempfile.TemporaryDirectory() as data:
        command = server_command(kind, port, Path(data), seats_of, clients, rooms)
        server = start_server(command, port, Path(data) / "server.log")
        stats = stats_file(Path(data)) if kind == "partyhost" else None
        try:
            await asyncio.sleep(0.2)  # let the server finish starting before the idle reading
            idle_rss = process_rss_bytes(server.pid)
            for start in range(0, rooms, 25):
                await asyncio.gather(*(table.connect(port) for table in tables[start : start + 25]))
            loaded_rss = process_rss_bytes(server.pid)
            if stats is not None:
                host_snapshot(server, stats, 1)  # the connecting phase, not reported
            # This process's own collections would stall every room it measures (it keeps a
            # decoded view per client): none while measuring; nothing here lives long.
            gc.collect()
            gc.freeze()
            gc.disable()
            bench_loop.install(asyncio.get_running_loop())
            period = 0.5
            cpu_before, wall_before = process_cpu_seconds(server.pid), time.perf_counter()
            until = time.perf_counter() + paced_s
            await asyncio.gather(
                *(table.paced(period * i / rooms, period, until) for i, table in enumerate(tables))
            )
            paced_cpu = process_cpu_seconds(server.pid) - cpu_before
            cpu = paced_cpu / (time.perf_counter() - wall_before)
            bench_paced = bench_loop.snapshot()
            if stats is not None:
                inside["paced"] = host_snapshot(server, stats, 2)
            rss_after = process_rss_bytes(server.pid)
            for table in tables:
                table.stats = sat_stats[table.game_id]
            sat_cpu_before = process_cpu_seconds(server.pid)
            sat_start = time.perf_counter()
            await asyncio.gather(*(table.saturate(sat_start + sat_s) for table in tables))
            sat_elapsed = time.perf_counter() - sat_start
            sat_cpu = process_cpu_seconds(server.pid) - sat_cpu_before
            rss_after = max(rss_after, process_rss_bytes(server.pid))
            for table in tables:
                table.close()
        finally:
            bench_loop.uninstall()
            gc.enable()
            gc.unfreeze()
            stop_server(server)
            if stats is not None and "paced" in inside:
                inside["saturation"] = read_snapshot(stats, 3)
            if os.environ.get("HOST_LOAD_KEEP_LOG"):
                shutil.copy(Path(data) / "server.log", f"{os.environ['HOST_LOAD_KEEP_LOG']}.{kind}")
    paced_all = merged(paced_stats.values())
    sat_all = merged(sat_stats.values())
    per_game = {}
    for game in games:
        mine = [table for table in tables if table.game_id == game]
        per_game[game] = {
            "rooms": len(mine),
            "clients": sum(table.seat_count for table in mine),
            **figures(paced_stats[game], sat_stats[game], sat_elapsed),
        }
    return {
        "target": kind,
        "clients": clients,
        **figures(paced_all, sat_all, sat_elapsed),
        "host_cpu_percent": cpu * 100,
        "paced_cpu_us_per_command": paced_cpu / max(1, paced_all.commands) * 1e6,
        "saturation_cpu_us_per_command": sat_cpu / max(1, sat_all.commands) * 1e6,
        "host_rss_mib": rss_after / 2**20,
        "rss_per_client_kib": (max(loaded_rss, rss_after) - idle_rss) / clients / 1024,
        "per_game": per_game,
        "bench_slow_turns": bench_paced["slow_turns"],
        "bench_max_turn_ms": bench_paced["max_turn_ms"],
        "bench_ready_wait_ms": bench_paced["loop_thread_ready_wait_ms"],
        "bench_slow_turn_causes_ms": bench_paced["slow_turn_causes_ms"],
        "bench_gc_ms": bench_paced["gc_ms"],
        "bench_gc_cpu_ms": bench_paced["gc_cpu_ms"],
        "bench_gc_objects": bench_paced["gc_tracked_objects"],
        **inside_figures(inside),
    }


def inside_figures(inside: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The host's own figures (command arrival to last frame written; loop turns), if any."""
    if not inside:
        return {}
    paced, saturated = inside["paced"], inside["saturation"]
    return {
        "host_commands": paced["command_ms"]["count"],
        "host_p50_ms": paced["command_ms"]["p50"],
        "host_p99_ms": paced["command_ms"]["p99"],
        "host_max_ms": paced["command_ms"]["max"],
        "host_turns": paced["turns"],
        "host_slow_turns": paced["slow_turns"],
        "host_max_turn_ms": paced["max_turn_ms"],
        "host_max_turn_cpu_ms": paced["max_turn_cpu_ms"],
        "host_ready_wait_ms": paced["loop_thread_ready_wait_ms"],
        "host_preempted": paced["loop_thread_preempted"],
        "host_slow_turn_cpu_ms": paced["slow_turn_cpu_ms"],
        "host_slow_turn_ms": paced["slow_turn_ms"],
        "host_slow_turn_causes_ms": paced["slow_turn_causes_ms"],
        "host_slow_turn_causes_cpu_ms": paced["slow_turn_causes_cpu_ms"],
        "host_slow_turn_log": paced["slow_turn_log"],
        "host_gc_ms": paced["gc_ms"],
        "host_gc_cpu_ms": paced["gc_cpu_ms"],
        "host_gc_objects": paced["gc_tracked_objects"],
        "host_saturation_p99_ms": saturated["command_ms"]["p99"],
        "host_saturation_max_turn_ms": saturated["max_turn_ms"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--games",
        default="mix",
        help="mix (every game and variant, the default), gsm, or a comma list of game ids",
    )
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--seats", type=int, default=4, help="seats per room, within each game's")
    parser.add_argument("--paced", type=float, default=20.0, help="seconds of paced load")
    parser.add_argument("--saturation", type=float, default=10.0, help="seconds of saturation")
    parser.add_argument(
        "--only", choices=("relay", "partyhost"), default=None, help="run one target only"
    )
    parser.add_argument(
        "--smoke", action="store_true", help="one room per game, 1 s per mode: does it run?"
    )
    args = parser.parse_args()
    try:
        games = parse_games(args.games)
    except (KeyError, ValueError) as problem:
        parser.error(str(problem))
    if args.smoke:
        args.rooms, args.paced, args.saturation = len(games), 1.0, 1.0
    if args.rooms < len(games):
        parser.error(f"--rooms must be at least {len(games)}, one per game")

    before = machine()
    kinds = ("relay", "partyhost") if args.only is None else (args.only,)
    results = {
        kind: asyncio.run(
            run_target(kind, games, args.rooms, args.seats, args.paced, args.saturation)
        )
        for kind in kinds
    }
    if args.only is not None:
        print(json.dumps(results["partyhost"] if args.only == "partyhost" else results))
        return
    host_machine = {**before, "load_average_after": machine()["load_average"]}
    report(games, host_machine, results["relay"], results["partyhost"])


if __name__ == "__main__":
    main()
