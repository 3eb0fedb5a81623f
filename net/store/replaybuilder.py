"""A finished game played again from the history, step by step, with nothing hidden.

A replay sets the game up from its seed, deck and rules and applies every
kept command exactly as the host applied it (the same way a restart rebuilds
a room). Each step is the state after one command, timer tick or system
change (step 0: the game as dealt), shown through the game's
``replay_view`` with every hand revealed, with the events it caused.

Only games that are over are replayed: asking for a running game raises
:class:`ReplayRefused` (``game_running``), because its replay would show
hands that still matter.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import SYSTEM_SEAT, Event, Game, apply, apply_tick
from partyhost.engine.registry import get_game
from partyhost.net.protocol import Refused
from partyhost.net.store.deckrows import playable_deck
from partyhost.net.store.records import ABANDONED, DROPPED, PLAYING, ArchivedGame, GameEntry

log = logging.getLogger(__name__)

Step = dict[str, Any]

SETUP = "setup"
MOVE = "move"
SYSTEM = "system"
TIMER = "timer"


class ReplayRefused(Refused):
    """A replay that cannot be shown."""


def check_replayable(entry: GameEntry, game_name: str | None = None) -> None:
    """Refuse a game that is still being played or never finished."""
    name = game_name or entry.game
    if entry.status == PLAYING:
        raise ReplayRefused(
            "game_running",
            f"Game {entry.id} ({name} in room {entry.room}) is still being played."
            " Its replay opens when it is over: until then it would show hands that still matter.",
        )
    if entry.status in (ABANDONED, DROPPED):
        raise ReplayRefused(
            "game_unfinished",
            f"Game {entry.id} ({name} in room {entry.room}) never finished: its room closed"
            " mid-game. Only finished games can be replayed.",
        )


@dataclass
class Replay:
    """Every step of one finished game, and where each round begins."""

    entry: GameEntry
    game_name: str
    steps: list[Step]
    rounds: list[int]
    """Index of the first step of each round, in order."""

    def info(self) -> dict[str, Any]:
        """What a viewer needs before the steps: the game, its players, results and rounds."""
        return {
            **self.entry.describe(),
            "game_name": self.game_name,
            "steps": len(self.steps),
            "rounds": list(self.rounds),
        }


def _step(
    game: Game,
    index: int,
    state: Any,
    kind: str,
    seat: int | None,
    command: dict[str, Any] | None,
    at: float,
    events: Sequence[Event],
) -> Step:
    """One step: the table with nothing hidden and the events as the log tells them (public
    fields), with what single seats were told besides (``event`` indexes ``events``)."""
    view = game.replay_view(state)
    return {
        "step": index,
        "version": int(state.version),
        "round": view.get("round"),
        "kind": kind,
        "seat": seat,
        "command": command,
        "at": at,
        "events": [{"kind": event.kind, **event.data} for event in events],
        "private": [
            {"event": index, "seat": seat, "fields": dict(fields)}
            for index, event in enumerate(events)
            for seat, fields in sorted(event.private.items())
        ],
        "view": view,
    }


def _rounds(steps: Sequence[Step]) -> list[int]:
    starts: list[int] = []
    previous: object = object()
    for step in steps:
        if step["round"] != previous:
            starts.append(step["step"])
            previous = step["round"]
    return starts


def build_replay(archived: ArchivedGame) -> Replay:
    """Play the game again on a fresh engine; raises :class:`ReplayRefused` if it cannot be."""
    entry = archived.entry
    try:
        game = get_game(entry.game)
    except KeyError:
        check_replayable(entry)
        raise ReplayRefused(
            "replay_failed", f"Game {entry.id} is {entry.game!r}, which this partyhost cannot run."
        ) from None
    check_replayable(entry, game.name)
    try:
        steps = _play_again(game, archived)
    except Exception as failure:
        log.warning("game %s could not be replayed", entry.id, exc_info=True)
        raise ReplayRefused(
            "replay_failed",
            f"Game {entry.id} could not be played again ({type(failure).__name__}):"
            " it was kept by a partyhost whose rules differ from this one's.",
        ) from None
    return Replay(entry, game.name, steps, _rounds(steps))


def _play_again(game: Game, archived: ArchivedGame) -> list[Step]:
    deck = playable_deck(game, archived.deck_data)
    state = game.start(deck, archived.start_seats, archived.rules, archived.seed)
    steps = [_step(game, 0, state, SETUP, None, None, archived.entry.started, ())]
    for index, record in enumerate(archived.commands, 1):
        if record.command is None:
            state, events = apply_tick(game, state, record.now)
            kind, seat = TIMER, None
        else:
            seat = SYSTEM_SEAT if record.seat is None else record.seat
            state, events = apply(game, state, seat, record.command, record.now)
            kind = SYSTEM if seat == SYSTEM_SEAT else MOVE
        steps.append(_step(game, index, state, kind, seat, record.command, record.now, events))
    if not game.is_over(state):
        raise ValueError("the kept commands do not reach the end of the game")
    return steps
