"""The games ``host_load.py`` plays, and the recorded games ``relay.py`` replays.

A run names its games with ``--games``: ``mix`` (every game and variant:
The T-Shirt Game, the four Game, Set, Match! games and What Do You Meme?),
``gsm`` (the four Game, Set, Match! games), or a comma list of game ids
(``tshirt`` alone gives figures comparable with T-Shirt-only runs). Rooms
cycle through the list, so every game gets rooms.

For the relay baseline every game of the run is recorded once, engine only:
bots play it from their own views on a simulated clock (0.5 s between
commands, the paced rhythm) and the host's timers run when due, so real-time
games settle their races as the host would. The trace keeps the per-seat
frames at every moment some bot had a command, which is also what the relay's
bots choose from when it replays them.

Also here: the description of the machine the figures were taken on.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from partyhost.decks.files import load_deck_file
from partyhost.engine.core import Event, Game, IllegalMove, apply, apply_tick
from partyhost.engine.registry import get_game
from partyhost.engine.rng import Rng

ROOT = Path(__file__).resolve().parent.parent
MIX = ("tshirt", "stealing-home", "scramble", "gridiron", "four-corners", "meme")
"""Every game and variant, in the order rooms are given them."""
ALIASES: Mapping[str, tuple[str, ...]] = {
    "mix": MIX,
    "gsm": ("stealing-home", "scramble", "gridiron", "four-corners"),
}
OPTIONS: Mapping[str, Mapping[str, Any]] = {
    "tshirt": {"target": 20000},
    "stealing-home": {"tie_window_ms": 0},
}
"""Room options per game (else the defaults), chosen so the figures measure the host.

T-Shirt games play to a far target, as in the T-Shirt-only figures of earlier
runs (a game then lasts until a pile runs out, some 285 commands at 4 seats).
Stealing Home has no tie window: with
the default 150 ms, saturated bots claim within the window every round (people
rarely do), so every round would tie and the room would idle through the
window; with none, a claim that comes too late loses the race and is refused."""
TRACE_STEPS = 120
"""Entries recorded per game for the relay (several whole rounds or games)."""
TRACE_SEED = 777
BOT_SEED = 12345
PACE = 0.5
"""Simulated seconds between two recorded commands (the paced rhythm)."""
MAX_RECORD_LOOPS = 20_000
"""A bound on the recording loop, so a game that stops moving fails loudly."""


def parse_games(text: str) -> list[str]:
    """``mix``, ``gsm`` or a comma list of game ids, checked against the registry."""
    names: list[str] = []
    for part in (piece.strip() for piece in text.split(",")):
        if not part:
            continue
        for name in ALIASES.get(part, (part,)):
            get_game(name)  # KeyError with the known ids for a typo
            if name not in names:
                names.append(name)
    if not names:
        raise ValueError("no games named")
    return names


def seats_for(game_id: str, wanted: int) -> int:
    """``wanted`` seats, within what the game allows (Four Corners is for two)."""
    game = get_game(game_id)
    return max(game.min_players, min(game.max_players, wanted))


def options_for(game_id: str) -> dict[str, Any]:
    """The room options for ``game_id``: :data:`OPTIONS`, and no stop after a round (the
    bench's clients read nothing; a stop would idle the room, not load the host)."""
    game = get_game(game_id)
    pause = (
        {"round_results": "no pause"}
        if any(option.name == "round_results" for option in game.options)
        else {}
    )
    return {**pause, **OPTIONS.get(game_id, {})}


def _deck(game: Game) -> Any:
    return load_deck_file(ROOT / "decks" / f"{game.default_deck}.yaml", "shipped").deck


def _frames(game: Game, state: Any, seats: list[int], events: list[Event]) -> list[dict[str, Any]]:
    """What every seat gets: its view and the events it may see."""
    frames = []
    for seat in seats:
        shown = [event.for_seat(seat) for event in events]
        frames.append(
            {"view": game.view(state, seat), "events": [e for e in shown if e is not None]}
        )
    return frames


def record_trace(game_id: str, seats: int, steps: int = TRACE_STEPS) -> list[list[dict[str, Any]]]:
    """Per-seat ``{view, events}`` at ``steps`` moments where some bot had a command.

    Entry 0 is the table after the opening timers; each later entry is what
    every seat got after one bot command (plus the timers that ran since),
    exactly as the host would send it. A game that ends before ``steps`` is
    followed by a fresh one (next seed); a bot command the rules refuse, or a
    game that can no longer move, raises.
    """
    game = get_game(game_id)
    deck = _deck(game)
    rules = game.rules_for(options_for(game_id))
    seat_numbers = list(range(seats))
    rng = Rng(BOT_SEED)
    trace: list[list[dict[str, Any]]] = []
    seed = TRACE_SEED
    state: Any = None
    events: list[Event] = []
    now = 0.0
    for _ in range(MAX_RECORD_LOOPS):
        if len(trace) >= steps:
            return trace
        if state is None or game.is_over(state):
            state, now = game.start(deck, seat_numbers, rules, seed), 0.0
            seed += 1
            state, events = apply_tick(game, state, now)
        due = game.deadline(state)
        if due is not None and due <= now:
            state, more = apply_tick(game, state, now)
            events += more
            if more:
                continue
        frames = _frames(game, state, seat_numbers, events)
        for seat in rng.shuffled(seat_numbers):
            command = game.bot_command(frames[seat]["view"], rng, now)
            if command is not None:
                break
        else:
            if due is None:
                raise RuntimeError(f"recorded {game_id} game stalled")
            now = max(now, due)  # nobody can act: let the timer run
            continue
        trace.append(frames)
        try:
            state, events = apply(game, state, seat, command, now)
        except IllegalMove as refused:
            raise RuntimeError(f"{game_id} refused its own bot: {refused!r}") from None
        now += PACE
    raise RuntimeError(f"recording {game_id} did not reach {steps} steps")


def machine() -> dict[str, Any]:
    """CPU, cores, memory, Python and load: what a figure needs next to it."""
    model = ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    memory_gib = 0.0
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        for line in meminfo.read_text(encoding="utf-8").splitlines():
            if line.startswith("MemTotal:"):
                memory_gib = int(line.split()[1]) / 2**20
                break
    return {
        "cpu": model or platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "memory_gib": round(memory_gib, 1),
        "system": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "load_average": [round(value, 2) for value in os.getloadavg()],
    }
