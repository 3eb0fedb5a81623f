"""What a long game's replay costs the host: build time and memory, checkpoints against every step.

A six-seat Scramble game of 18,000 moves (one player placing a card and
taking it back, over and over, until the others leave) is the longest game a
host keeps (``max_game_commands`` is 20,000). Its replay is built as the host
builds one (:func:`build_replay`: every command played once, a checkpoint
kept every ``CHECKPOINT_EVERY`` steps), then served page by page; beside it,
the same replay held as every step at once, which is how replays were kept
before checkpoints (each step's whole table, with every hand shown).

Prints a table, then as its last line one JSON object with the figures.
``--smoke`` plays a few hundred moves, only to show the script still runs.

    .venv/bin/python bench/replay_memory.py [--moves N] [--smoke]
"""

from __future__ import annotations

import argparse
import gc
import json
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from partyhost.decks.files import build_from_text
from partyhost.engine.core import SYSTEM_SEAT
from partyhost.engine.registry import get_game
from partyhost.net.store.pastgames import PAGE_BYTES, PAGE_STEPS, page
from partyhost.net.store.records import OVER, ArchivedGame, CommandRecord, GameEntry, Player
from partyhost.net.store.replaybuilder import CHECKPOINT_EVERY, Replay, build_replay

DECK = Path(__file__).resolve().parent.parent / "decks" / "game-set-match.yaml"
SEATS = 6
MiB = 2**20


def long_game(moves: int) -> ArchivedGame:
    """A finished Scramble game: seat 0 places and takes back ``moves`` times, the rest leave."""
    _, data, _ = build_from_text(DECK.read_text(encoding="utf-8"), str(DECK))
    game = get_game("scramble")
    deck = game.build_deck(data)
    seats = list(range(SEATS))
    state = game.start(deck, seats, {}, 7)
    card = state.hands[0][0]
    commands: list[CommandRecord] = []
    for move in range(moves):
        if move % 2 == 0:
            command: dict[str, Any] = {"type": "place", "card": card, "x": 0, "y": 0}
        else:
            command = {"type": "take_back", "card": card}
        commands.append(CommandRecord(0, command, 1000.0 + move))
    for seat in seats[1:]:
        commands.append(CommandRecord(SYSTEM_SEAT, {"type": "seat_left", "seat": seat}, 99999.0))
    players = [Player(seat, f"Player {seat}", False) for seat in seats]
    entry = GameEntry(
        1, "ABCD", "scramble", "Game, Set, Match!", OVER, 1000.0, 99999.0, None, players
    )
    return ArchivedGame(entry, data, {}, seats, 7, commands)


def timed(work: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    result = work()
    return result, time.perf_counter() - started


def memory(work: Callable[[], Any]) -> tuple[Any, int, int]:
    """``work``'s result, the bytes it left allocated, and its peak."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    result = work()
    gc.collect()
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return result, held - before, peak - before


def measure(moves: int) -> dict[str, Any]:
    archived = long_game(moves)
    replay, build_seconds = timed(lambda: build_replay(archived))
    assert isinstance(replay, Replay)
    _, page_seconds = timed(lambda: page(replay, replay.total - PAGE_STEPS, PAGE_STEPS, PAGE_BYTES))
    _, whole_seconds = timed(replay.all_steps)
    del replay
    replay, held, peak = memory(lambda: build_replay(archived))
    assert isinstance(replay, Replay)
    _, whole_held, whole_peak = memory(replay.all_steps)
    return {
        "moves": moves,
        "steps": replay.total,
        "checkpoint_every": CHECKPOINT_EVERY,
        "checkpoints": len(replay.checkpoints),
        "build_seconds": round(build_seconds, 3),
        "last_page_seconds": round(page_seconds, 4),
        "kept_mib": round(held / MiB, 2),
        "build_peak_mib": round(peak / MiB, 2),
        "cache_estimate_mib": round(replay.size / MiB, 2),
        "every_step_seconds": round(build_seconds + whole_seconds, 3),
        "every_step_mib": round(whole_held / MiB, 2),
        "every_step_peak_mib": round(whole_peak / MiB, 2),
    }


def report(figures: dict[str, Any]) -> None:
    print(
        f"Replay of a {SEATS}-seat Scramble game: {figures['moves']:,} moves, "
        f"{figures['steps']:,} steps, a checkpoint every {figures['checkpoint_every']} steps"
    )
    print()
    print(f"| {'kept as':<28} | {'build s':>8} | {'held MiB':>9} | {'peak MiB':>9} |")
    print(f"|{'-' * 30}|{'-' * 10}|{'-' * 11}|{'-' * 11}|")
    print(
        f"| {'checkpoints (the host now)':<28} | {figures['build_seconds']:>8.3f}"
        f" | {figures['kept_mib']:>9.2f} | {figures['build_peak_mib']:>9.2f} |"
    )
    print(
        f"| {'every step (as before)':<28} | {figures['every_step_seconds']:>8.3f}"
        f" | {figures['every_step_mib']:>9.2f} | {figures['every_step_peak_mib']:>9.2f} |"
    )
    print()
    print(
        f"Last page of {PAGE_STEPS} steps served from its checkpoint in "
        f"{figures['last_page_seconds'] * 1000:.1f} ms; the cache counts this replay as "
        f"{figures['cache_estimate_mib']:.2f} MiB."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=18_000)
    parser.add_argument("--smoke", action="store_true", help="a few hundred moves: does it run")
    args = parser.parse_args()
    figures = measure(400 if args.smoke else args.moves)
    report(figures)
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
