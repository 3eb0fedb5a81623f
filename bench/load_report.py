"""Counting and reporting for ``host_load.py``: per-game tallies, the tables, the JSON.

Figures are kept per game and merged for the totals, so a mixed run shows
both how the host copes with the mix and what each game costs within it.

Run as a script on the saved output of one or more runs, it prints the README
tables (figures of several runs as ``low-high``), so they are never copied by
hand: ``python bench/load_report.py run1.txt run2.txt``.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RSS_GOAL_KIB = 30
"""The host's memory per connected client, over its memory with nobody connected."""


@dataclass
class Stats:
    """What one mode (paced or saturation) saw for one game."""

    latencies: list[float] = field(default_factory=list)
    commands: int = 0
    refused: int = 0
    refusal_codes: Counter[str] = field(default_factory=Counter)
    late_refusals: int = 0
    """Refusals that came after the command counted as answered (a timer's view got there first)."""
    timeouts: int = 0
    waits: int = 0
    """Times no bot of a room could act, so it waited for a view (a timer's)."""
    games_finished: int = 0


def merged(parts: Iterable[Stats]) -> Stats:
    total = Stats()
    for part in parts:
        total.latencies += part.latencies
        total.commands += part.commands
        total.refused += part.refused
        total.refusal_codes.update(part.refusal_codes)
        total.late_refusals += part.late_refusals
        total.timeouts += part.timeouts
        total.waits += part.waits
        total.games_finished += part.games_finished
    return total


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def figures(paced: Stats, saturated: Stats, saturation_seconds: float) -> dict[str, Any]:
    """Latency, throughput and failure figures of one game (or of all games merged)."""
    return {
        "paced_commands": paced.commands,
        "paced_p50_ms": percentile(paced.latencies, 0.50) * 1000,
        "paced_p99_ms": percentile(paced.latencies, 0.99) * 1000,
        "paced_mean_ms": (
            statistics.fmean(paced.latencies) * 1000 if paced.latencies else float("nan")
        ),
        "saturation_commands": saturated.commands,
        "saturation_commands_per_s": saturated.commands / saturation_seconds,
        "saturation_p50_ms": percentile(saturated.latencies, 0.50) * 1000,
        "saturation_p99_ms": percentile(saturated.latencies, 0.99) * 1000,
        "refused": paced.refused + saturated.refused,
        "refusal_codes": dict(paced.refusal_codes + saturated.refusal_codes),
        "late_refusals": paced.late_refusals + saturated.late_refusals,
        "timeouts": paced.timeouts + saturated.timeouts,
        "waits": paced.waits + saturated.waits,
        "games_finished": paced.games_finished + saturated.games_finished,
    }


def ratio(top: float, bottom: float) -> float:
    return top / bottom if bottom else float("nan")


TOTAL_ROWS = (
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
)


def print_totals(relay: Mapping[str, Any], host: Mapping[str, Any]) -> None:
    print(f"{'figure':<24}{'relay':>12}{'partyhost':>12}{'ratio':>10}")
    for label, key, fmt in TOTAL_ROWS:
        share = ratio(host[key], relay[key])
        print(f"{label:<24}{fmt.format(relay[key]):>12}{fmt.format(host[key]):>12}{share:>10.2f}")


def pair(relay: Mapping[str, Any], host: Mapping[str, Any], key: str, fmt: str) -> str:
    """``relay/host`` for one figure."""
    return f"{fmt.format(relay[key])}/{fmt.format(host[key])}"


def print_games(relay: Mapping[str, Any], host: Mapping[str, Any]) -> None:
    """One row per game: relay / partyhost for latency and throughput, host failures."""
    print(
        f"{'per game (relay/host)':<22}{'rooms':>6}{'paced p50 ms':>14}{'paced p99 ms':>14}"
        f"{'sat. cmd/s':>13}{'sat. p99 ms':>14}{'refused':>9}{'timeouts':>9}{'games':>7}"
    )
    for game, mine in host["per_game"].items():
        base = relay["per_game"][game]
        print(
            f"{game:<22}{mine['rooms']:>6}{pair(base, mine, 'paced_p50_ms', '{:.2f}'):>14}"
            f"{pair(base, mine, 'paced_p99_ms', '{:.2f}'):>14}"
            f"{pair(base, mine, 'saturation_commands_per_s', '{:.0f}'):>13}"
            f"{pair(base, mine, 'saturation_p99_ms', '{:.1f}'):>14}"
            f"{mine['refused']:>9}{mine['timeouts']:>9}{mine['games_finished']:>7}"
        )
    codes = {game: figures["refusal_codes"] for game, figures in host["per_game"].items()}
    refused = {game: found for game, found in codes.items() if found}
    if refused:
        print(f"partyhost refusals by code: {json.dumps(refused, sort_keys=True)}")


def causes(found: Mapping[str, float]) -> str:
    return "; ".join(f"{name}: {spent:.1f} ms" for name, spent in list(found.items())[:5]) or "-"


def collections(found: Mapping[str, Mapping[str, Any]]) -> str:
    """Garbage collections by generation: how many, and the longest."""
    return ", ".join(
        f"gen {generation}: {figures['count']} (max {figures['max'] or 0:.1f} ms)"
        for generation, figures in found.items()
    )


def print_inside(relay: Mapping[str, Any], host: Mapping[str, Any]) -> None:
    """The host's own figures, paced phase, and how often the benchmark's own loop stalled."""
    if "host_p99_ms" in host:
        print("the host's loop turns over 2 ms in the paced phase, each with what took it:")
        for line in host["host_slow_turn_log"]:
            print(f"  {line}")
        turns = host["host_slow_turn_ms"]
        print(
            f"inside the host (paced): {host['host_commands']} commands, arrival to last frame "
            f"written p50 {host['host_p50_ms'] or 0:.2f} ms, p99 {host['host_p99_ms'] or 0:.2f} ms,"
            f" max {host['host_max_ms'] or 0:.2f} ms; loop turns {host['host_turns']}, over 2 ms "
            f"{host['host_slow_turns']} (max {host['host_max_turn_ms']:.1f} ms, bins "
            f"{json.dumps({edge: n for edge, n in turns['bins'].items() if n})})"
        )
        cpu = host["host_slow_turn_cpu_ms"]
        print(
            f"  the host's own CPU in those turns: p50 {cpu['p50'] or 0:.1f} ms, max "
            f"{host['host_max_turn_cpu_ms']:.1f} ms (the rest waited: GIL, a blocking call, "
            "or another process on the CPU)"
        )
        print(
            f"  the loop's thread waited {host['host_ready_wait_ms']:.0f} ms in all, ready to run,"
            f" for a CPU other processes had, and was preempted {host['host_preempted']} times"
        )
        print(f"  where the slow turns went: {causes(host['host_slow_turn_causes_ms'])}")
        print(f"  ... in CPU: {causes(host['host_slow_turn_causes_cpu_ms'])}")
        print(f"  garbage collections: {collections(host['host_gc_ms'])}")
        print(
            f"  saturation: p99 {host['host_saturation_p99_ms'] or 0:.2f} ms, "
            f"longest loop turn {host['host_saturation_max_turn_ms']:.1f} ms"
        )
    for label, side in (("relay", relay), ("partyhost", host)):
        print(
            f"this benchmark's own loop during the paced {label} run: "
            f"{side['bench_slow_turns']} turns over 2 ms (max {side['bench_max_turn_ms']:.1f} ms);"
            f" {causes(side['bench_slow_turn_causes_ms'])}; garbage collections:"
            f" {collections(side['bench_gc_ms'])}"
        )


def report(
    games: list[str], machine: Mapping[str, Any], relay: dict[str, Any], host: dict[str, Any]
) -> None:
    """The tables, the goals, then one JSON line with every figure."""
    for result in (relay, host):
        result["failures"] = result["refused"] + result["timeouts"]
    print(f"games: {', '.join(games)}; machine: {json.dumps(machine)}")
    print_totals(relay, host)
    print()
    print_games(relay, host)
    p99_ratio = ratio(host["paced_p99_ms"], relay["paced_p99_ms"])
    throughput_ratio = ratio(host["saturation_commands_per_s"], relay["saturation_commands_per_s"])
    print()
    print_inside(relay, host)
    print()
    print(
        f"goal p99 < 5 ms: {met(host['paced_p99_ms'] < 5)}; "
        f"p99 within 3x relay: {met(p99_ratio < 3)} ({p99_ratio:.2f}x); "
        f"host-internal p99 < 5 ms: {met(host.get('host_p99_ms', float('inf')) < 5)}; "
        f"no host loop turn over 5 ms: {met(host.get('host_max_turn_ms', float('inf')) <= 5)}; "
        f"throughput >= 1/3 relay: {met(throughput_ratio >= 1 / 3)} "
        f"({throughput_ratio:.2f}); RSS/client < {RSS_GOAL_KIB} KiB: "
        f"{met(host['rss_per_client_kib'] < RSS_GOAL_KIB)}"
    )
    per_game = {
        game: {
            "p99_ratio": ratio(mine["paced_p99_ms"], relay["per_game"][game]["paced_p99_ms"]),
            "throughput_ratio": ratio(
                mine["saturation_commands_per_s"],
                relay["per_game"][game]["saturation_commands_per_s"],
            ),
        }
        for game, mine in host["per_game"].items()
    }
    print(
        json.dumps(
            {
                "games": games,
                "machine": machine,
                "relay": relay,
                "partyhost": host,
                "p99_ratio": p99_ratio,
                "throughput_ratio": throughput_ratio,
                "per_game": per_game,
                "games_finished": host["games_finished"],
            }
        )
    )


def spread(values: list[float], fmt: str) -> str:
    """One run's figure, or ``low-high`` over several runs (as the README shows them)."""
    low, high = fmt.format(min(values)), fmt.format(max(values))
    return low if low == high else f"{low}-{high}"


def met(flag: bool) -> str:
    return "met" if flag else "missed"


def markdown(runs: list[dict[str, Any]]) -> str:
    """README tables (totals, then per game) from the JSON lines of one or more runs."""

    def side(target: str, key: str, fmt: str, scale: float = 1.0) -> str:
        return spread([run[target][key] * scale for run in runs], fmt)

    def ratios(key: str) -> str:
        return spread([run[key] for run in runs], "{:.2f}")

    host = [run["partyhost"] for run in runs]
    p99_met = all(r["p99_ratio"] < 3 for r in runs)
    lines = [
        f"| figure ({runs[0]['partyhost']['clients']:,} clients) | bare relay | partyhost | goal |",
        "|---|---|---|---|",
        "| paced (2 commands/s per room): p50, command to last seat's view | "
        f"{side('relay', 'paced_p50_ms', '{:.2f}')} ms | "
        f"{side('partyhost', 'paced_p50_ms', '{:.2f}')} ms | |",
        f"| paced: p99 | {side('relay', 'paced_p99_ms', '{:.2f}')} ms | "
        f"{side('partyhost', 'paced_p99_ms', '{:.2f}')} ms ({ratios('p99_ratio')}x) | "
        f"< 3x relay: {met(p99_met)} |",
    ]
    if all("host_p99_ms" in h for h in host):
        lines += [
            "| paced, inside the host: p99, command read to last frame written | | "
            f"{side('partyhost', 'host_p99_ms', '{:.2f}')} ms | "
            f"< 5 ms: {met(all(h['host_p99_ms'] < 5 for h in host))} |",
            "| paced: longest host loop turn (its CPU on the loop's thread) | | "
            f"{side('partyhost', 'host_max_turn_ms', '{:.1f}')} ms "
            f"({side('partyhost', 'host_max_turn_cpu_ms', '{:.1f}')} ms) | "
            f"<= 5 ms: {met(all(h['host_max_turn_ms'] <= 5 for h in host))} |",
        ]
    lines += [
        f"| host CPU per command, paced | {side('relay', 'paced_cpu_us_per_command', '{:.0f}')} us"
        f" | {side('partyhost', 'paced_cpu_us_per_command', '{:.0f}')} us | |",
        f"| saturation throughput | {side('relay', 'saturation_commands_per_s', '{:,.0f}')} cmd/s"
        f" | {side('partyhost', 'saturation_commands_per_s', '{:,.0f}')} cmd/s "
        f"({ratios('throughput_ratio')}) | >= 1/3 of relay: "
        f"{met(all(r['throughput_ratio'] >= 1 / 3 for r in runs))} |",
        f"| host RSS per connected client | {side('relay', 'rss_per_client_kib', '{:.1f}')} KiB | "
        f"{side('partyhost', 'rss_per_client_kib', '{:.1f}')} KiB | < {RSS_GOAL_KIB} KiB: "
        f"{met(all(h['rss_per_client_kib'] < RSS_GOAL_KIB for h in host))} |",
        "",
        "| game (rooms, clients) | paced p50, relay / partyhost | paced p99, relay / partyhost "
        "| saturation, relay / partyhost | refused + timeouts |",
        "|---|---|---|---|---|",
    ]
    for game, first in runs[0]["partyhost"]["per_game"].items():

        def both(key: str, fmt: str, game: str = game) -> str:
            relay = spread([run["relay"]["per_game"][game][key] for run in runs], fmt)
            mine = spread([run["partyhost"]["per_game"][game][key] for run in runs], fmt)
            return f"{relay} / {mine}"

        failures = sum(
            run["partyhost"]["per_game"][game]["refused"]
            + run["partyhost"]["per_game"][game]["timeouts"]
            for run in runs
        )
        lines.append(
            f"| {game} ({first['rooms']}, {first['clients']}) | {both('paced_p50_ms', '{:.2f}')} ms"
            f" | {both('paced_p99_ms', '{:.2f}')} ms"
            f" | {both('saturation_commands_per_s', '{:,.0f}')} cmd/s | {failures} |"
        )
    loads = ", ".join(f"{run['machine']['load_average'][0]:.1f}" for run in runs)
    system = runs[0]["machine"]
    lines += [
        "",
        f"Machine: {system['cpu']}, {system['cores']} cores, {system['memory_gib']} GiB, "
        f"{system['system']}, Python {system['python']}; load average at start: {loads}.",
    ]
    return "\n".join(lines)


def last_json_line(path: str) -> dict[str, Any]:
    lines = [
        line for line in Path(path).read_text(encoding="utf-8").splitlines() if line.startswith("{")
    ]
    if not lines:
        raise SystemExit(f"{path}: no JSON line (is it the output of host_load.py?)")
    found: dict[str, Any] = json.loads(lines[-1])
    return found


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit("usage: python bench/load_report.py RUN_OUTPUT [RUN_OUTPUT ...]")
    print(markdown([last_json_line(path) for path in sys.argv[1:]]))
