"""Seeded mid-game states of every game, for fuzzing commands against real tables.

Commands are checked against states a real game reaches: each game is set up
from its shipped deck and played to the end by its own bots (timers fire when
due); states are kept at evenly spread points and where each command type
first becomes legal for someone. The list is deterministic and ordered by
:data:`GAME_IDS`, so a fuzz input names the same state on every run; a new
game goes at the end of that tuple. Changing the games' rules or bots changes
the states, and so some kept ``command`` outcomes (fuzz/README.md).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from partyhost.decks.files import load_deck_file
from partyhost.engine.core import (
    SYSTEM_SEAT,
    Command,
    Game,
    IllegalMove,
    apply,
    apply_tick,
)
from partyhost.engine.registry import get_game
from partyhost.engine.rng import Rng

DECKS = Path(__file__).resolve().parent.parent / "decks"
GAME_IDS: tuple[str, ...] = (
    "tshirt",
    "stealing-home",
    "scramble",
    "gridiron",
    "four-corners",
    "meme",
)
SEEDS: tuple[int, ...] = (11, 16, 18)
"""One bot game per seed and game (seat count and options follow from the seed); 16 reaches
a T-Shirt Booyah card and 18 a Gridiron draw."""
SHARES: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Where in each bot game the prepared states are taken: fresh to played out."""
MAX_STEPS = 600
START = 0.0
SYSTEM_KINDS = ("seat_joined", "seat_left", "seat_away", "seat_back")


@dataclass(frozen=True)
class Prepared:
    """One state to fuzz, with what the checks need around it."""

    game: Game
    label: str
    state: Any
    twin: Any
    """A deep copy taken when prepared: ``state`` must still equal it after every command."""
    seats: tuple[int, ...]
    """Seats a command may come from: the players, the host, and one stranger."""
    bases: tuple[Command, ...]
    """Commands a fuzz input may start from and then change."""
    now: float
    cards: frozenset[Hashable] | None
    """Every card of the game, where the game lists card locations."""


def _deck(game: Game) -> Any:
    return load_deck_file(DECKS / f"{game.default_deck}.yaml").deck


def _rules(game: Game, seed: int) -> dict[str, Any]:
    """A few options that open more commands (custom scenarios, hints, no rotation)."""
    names = {option.name for option in game.options}
    rules: dict[str, Any] = {}
    if "custom_scenarios" in names:
        rules["custom_scenarios"] = seed % 2 == 0
    if "hints" in names:
        rules["hints"] = seed % 2 == 1
    if "rotate" in names:
        rules["rotate"] = seed % 4 != 2
    return rules


def _step(
    game: Game, state: Any, seats: range, now: float, rng: Rng, bots: Rng
) -> tuple[Any, float] | None:
    """One bot move or due timer; ``None`` when nobody can act and no timer runs."""
    due = game.deadline(state)
    if due is not None and due <= now:
        return apply_tick(game, state, now)[0], now
    ready = []
    for seat in seats:
        command = game.bot_command(game.view(state, seat), bots, now)
        if command is not None:
            ready.append((seat, command))
    if ready:
        seat, command = rng.choice(ready)
        try:
            return apply(game, state, seat, command, now)[0], now + 1.0
        except IllegalMove:
            return state, now + 1.0
    if due is not None:
        return apply_tick(game, state, max(now, due))[0], max(now, due) + 1.0
    return None


def _bases(game: Game, state: Any, seats: range, now: float) -> tuple[Command, ...]:
    """Commands to start from: each seat's bot pick, one of each legal type, the host's."""
    found: list[Command] = []
    types: set[str] = set()
    for seat in seats:
        view = game.view(state, seat)
        bot = game.bot_command(view, Rng(seat + 7), now)
        if bot is not None:
            found.append(bot)
        types.update(t["type"] for t in view.get("legal", []) if isinstance(t.get("type"), str))
    found.extend({"type": kind} for kind in sorted(types))
    found.extend({"type": kind, "seat": seat} for kind in SYSTEM_KINDS for seat in (0, 1))
    return tuple(found)


def _playthrough(game: Game, seed: int) -> tuple[int, list[tuple[Any, float]]]:
    """Seat count and every (state, time) of one seeded bot game, until it ends or sticks."""
    rng = Rng(seed)
    seat_count = game.min_players + rng.below(min(game.max_players, 5) - game.min_players + 1)
    rules = game.rules_for(_rules(game, seed))
    state = game.start(_deck(game), list(range(seat_count)), rules, seed)
    now, bots = START, Rng(seed ^ 0xB07)
    states = [(state, now)]
    for _ in range(MAX_STEPS):
        if game.is_over(state):
            break
        moved = _step(game, state, range(seat_count), now, rng, bots)
        if moved is None:
            break
        state, now = moved
        states.append(moved)
    return seat_count, states


def _picks(game: Game, seat_count: int, states: list[tuple[Any, float]]) -> list[tuple[str, int]]:
    """Which states of a bot game to keep: evenly spread, and where a command type first shows."""
    picks = [(f"{share:.0%}", round(share * (len(states) - 1))) for share in SHARES]
    seen: set[str] = set()
    for index, (state, _now) in enumerate(states):
        for seat in range(seat_count):
            for template in game.view(state, seat).get("legal", []):
                kind = template.get("type")
                if isinstance(kind, str) and kind not in seen:
                    seen.add(kind)
                    picks.append((f"first-{kind}", index))
    return picks


def _prepare(game: Game, seed: int, seat_count: int, state: Any, now: float, at: str) -> Prepared:
    locate = getattr(game, "card_locations", None)
    cards = frozenset(card for card, _ in locate(state)) if locate else None
    # The deck is shared, not copied: it is immutable and large, and equality then
    # short-cuts on identity.
    twin = copy.deepcopy(state, {id(state.deck): state.deck})
    return Prepared(
        game=game,
        label=f"{game.id}/seed{seed}/{at}",
        state=state,
        twin=twin,
        seats=(*range(seat_count), SYSTEM_SEAT, seat_count + 3),
        bases=_bases(game, state, range(seat_count), now),
        now=now + 0.5,
        cards=cards,
    )


@functools.cache
def prepared() -> tuple[Prepared, ...]:
    """Every prepared state, in a fixed order (built once per process)."""
    out: list[Prepared] = []
    for game_id in GAME_IDS:
        game = get_game(game_id)
        for seed in SEEDS:
            seat_count, states = _playthrough(game, seed)
            for at, index in _picks(game, seat_count, states):
                state, now = states[index]
                out.append(_prepare(game, seed, seat_count, state, now, at))
    return tuple(out)
