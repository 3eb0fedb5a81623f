"""The host measured from inside (bench/watched_host.py): command latency, slow loop turns."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
import time
from pathlib import Path
from types import SimpleNamespace

from nethelpers import quiet
from servehelpers import Serve, serve
from test_net_room_doors import hand, place, scramble_table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from watched_host import LatencyObserver, LoopMonitor, callback_name, histogram

BENCH = Path(__file__).resolve().parent.parent / "bench"


def watched_host(data: Path, stats: Path) -> contextlib.AbstractAsyncContextManager[Serve]:
    """``partyhost serve`` on loopback, run by bench/watched_host.py writing to ``stats``."""
    return serve(data, runner=(str(BENCH / "watched_host.py"), "--stats-file", str(stats)))


def test_histogram_bins_and_percentiles() -> None:
    figures = histogram([0.0001] * 98 + [0.004, 0.2])
    assert figures["count"] == 100
    assert figures["bins"]["0.25"] == 98 and figures["bins"]["5"] == 1
    assert figures["bins"]["inf"] == 1
    assert figures["p50"] == 0.1 and figures["p99"] == 200.0 and figures["max"] == 200.0
    assert histogram([])["p99"] is None


async def test_a_slow_callback_makes_a_slow_turn_named_after_it() -> None:
    monitor = LoopMonitor()
    loop = asyncio.get_running_loop()

    def hold_the_loop() -> None:
        time.sleep(0.012)

    monitor.install(loop)
    try:
        for _ in range(3):
            await asyncio.sleep(0.01)  # quick turns
        loop.call_soon(hold_the_loop)
        await asyncio.sleep(0.02)
        await asyncio.sleep(0)
    finally:
        monitor.uninstall()
    figures = monitor.snapshot()
    assert figures["turns"] >= 4
    assert figures["slow_turns"] >= 1 and figures["max_turn_ms"] >= 12.0
    assert any("hold_the_loop" in name for name in figures["slow_turn_causes_ms"])
    assert "select" not in vars(loop._selector)  # type: ignore[attr-defined]


def test_only_plays_are_timed() -> None:
    observer = LatencyObserver()
    for kind in ("play", "chat"):
        request = SimpleNamespace(message={"t": kind}, arrived=time.perf_counter() - 0.010)
        observer.handled(request)  # type: ignore[arg-type]
    assert len(observer.latencies) == 1 and observer.latencies[0] >= 0.010


async def test_the_watched_host_writes_its_figures_on_sigusr1_and_at_exit(tmp_path: Path) -> None:
    stats = tmp_path / "stats.jsonl"
    async with watched_host(tmp_path / "data", stats) as host:
        ann, bob, _ = await scramble_table(host.port)
        card = hand(ann)[0]
        for move in range(6):  # one card back and forth: six views for both seats
            version = ann.version
            await ann.send(place(card, move % 2, move))
            await ann.until(lambda version=version: ann.version > version)
        await quiet([ann, bob])
        host.process.send_signal(signal.SIGUSR1)
        async with asyncio.timeout(10):
            while not stats.exists() or not stats.read_text(encoding="utf-8").strip():
                await asyncio.sleep(0.05)
        first = json.loads(stats.read_text(encoding="utf-8").splitlines()[0])
        assert first["label"] == "signal"
        assert first["command_ms"]["count"] == 6
        assert 0 < first["command_ms"]["p50"] <= first["command_ms"]["max"]
        assert first["turns"] > 0
        for seat in (ann, bob):
            await seat.close()
        assert await host.stop() == 0
    last = json.loads(stats.read_text(encoding="utf-8").splitlines()[-1])
    assert last["label"] == "stop" and last["command_ms"]["count"] == 0


async def test_a_room_step_is_named_with_what_the_room_handled() -> None:
    async def run() -> None:
        item = SimpleNamespace(message={"t": "start_game"})
        await asyncio.sleep(10)
        del item

    task = asyncio.get_running_loop().create_task(run(), name="room KQZD")
    await asyncio.sleep(0)  # suspended with its item in hand
    try:
        handle = SimpleNamespace(_callback=SimpleNamespace(__self__=task))
        assert callback_name(handle) == (  # type: ignore[arg-type]
            "task 'room KQZD' (test_a_room_step_is_named_with_what_the_room_handled.<locals>.run"
            ": start_game)"
        )
    finally:
        task.cancel()
