"""Seeded games of the shipped games, played by their bots through the engine alone.

The wire tests walk these games to look at every view and every ``legal``
template a client could be sent, and at every command the bots sent that the
game accepted. The clock starts at a realistic host time so deadlines look as
they do on the wire.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from partyhost.decks.files import load_deck_file
from partyhost.engine.core import Command, Game, IllegalMove, apply, apply_tick
from partyhost.engine.registry import get_game
from partyhost.engine.rng import Rng

DECKS = Path(__file__).resolve().parent.parent / "decks"
START = 1_767_225_600.0
"""The clock at setup: 2026-01-01, seconds since the Unix epoch, as a float."""

SHIPPED = ("tshirt", "meme", "stealing-home", "scramble", "gridiron", "four-corners")


@functools.cache
def deck_for(game_id: str) -> Any:
    game = get_game(game_id)
    return load_deck_file(DECKS / f"{game.default_deck}.yaml").deck


@dataclass(frozen=True)
class Step:
    """One state of a game in play, and what was done to leave it."""

    state: Any
    now: float
    seat: int | None
    """Whose command left this state; ``None`` for a tick (or the end)."""
    command: Command | None


def play(
    game_id: str,
    players: int,
    rules: Mapping[str, Any] | None = None,
    seed: int = 1,
    max_steps: int = 4000,
) -> Iterator[Step]:
    """Every state of one game its bots play to the end (or ``max_steps``)."""
    game = get_game(game_id)
    seats = list(range(players))
    state = game.start(deck_for(game_id), seats, dict(rules or {}), seed)
    bots, now = Rng(seed ^ 0x77), START
    for _ in range(max_steps):
        if game.is_over(state):
            break
        now += 0.5
        due = game.deadline(state)
        if due is not None and due <= now:
            yield Step(state, now, None, None)
            state, _ = apply_tick(game, state, now)
            continue
        moved = _bot_move(game, state, seats, bots, now)
        if moved is None:
            if due is None:
                break
            now = max(now, due)
            yield Step(state, now, None, None)
            state, _ = apply_tick(game, state, now)
            continue
        seat, command = moved
        yield Step(state, now, seat, command)
        state, _ = apply(game, state, seat, command, now)
    yield Step(state, now, None, None)


def _bot_move(
    game: Game, state: Any, seats: list[int], bots: Rng, now: float
) -> tuple[int, Command] | None:
    """The first bot (in a rotating order) whose command the game accepts."""
    start = bots.below(len(seats))
    for seat in seats[start:] + seats[:start]:
        command = game.bot_command(game.view(state, seat), bots, now)
        if command is None:
            continue
        try:
            apply(game, state, seat, command, now)
        except IllegalMove:
            continue
        return seat, command
    return None


def reach(
    game_id: str,
    players: int,
    wanted: Callable[[Game, Step], bool],
    rules: Mapping[str, Any] | None = None,
    seed: int = 1,
) -> Step:
    """The first step of a seeded game where ``wanted`` holds."""
    game = get_game(game_id)
    for step in play(game_id, players, rules, seed):
        if wanted(game, step):
            return step
    raise AssertionError(f"{game_id}: the game never reached the wanted moment")


def templates(game: Game, state: Any, kind: str) -> list[tuple[int, Command]]:
    """Every seat's ``legal`` templates of type ``kind``, with the seat."""
    return [
        (seat, template)
        for seat in _seats(state)
        for template in game.legal(state, seat)
        if template["type"] == kind
    ]


def _seats(state: Any) -> list[int]:
    seats = getattr(state, "seats", None)
    if seats is None:
        seats = [player.seat for player in state.players]
    return list(seats)


def offered(kind: str) -> Callable[[Game, Step], bool]:
    """A ``reach`` condition: some seat has a template of type ``kind``."""
    return lambda game, step: bool(templates(game, step.state, kind))
