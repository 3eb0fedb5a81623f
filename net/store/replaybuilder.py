"""A finished game played again from the history, step by step, with nothing hidden.

Only a checkpoint every so often is kept, so a long game never sits whole in
memory; running games are refused, as their hands still matter.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import SYSTEM_SEAT, Event, Game, apply, apply_tick
from partyhost.engine.registry import get_game
from partyhost.net.protocol import Refused
from partyhost.net.store.footprint import footprint
from partyhost.net.store.records import (
    ABANDONED,
    DROPPED,
    PLAYING,
    ArchivedGame,
    CommandRecord,
    GameEntry,
    pack,
    playable_deck,
    unpack,
)

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


CHECKPOINT_EVERY = 200
"""Steps between two kept states: a page is played again from the nearest one before it,
so at most this many commands are applied to serve any page."""


@dataclass
class Replay:
    """A finished game kept as a few checkpoints (a long game must not cost a table per
    step), its commands and where each round begins."""

    entry: GameEntry
    game_name: str
    game: Game
    started: float
    commands: list[bytes]
    """Each kept command packed (seat, command, time): a few dozen bytes, not a dict's few
    hundred."""
    checkpoints: list[Any]
    """The state after step ``k * CHECKPOINT_EVERY`` for each k."""
    rounds: list[int]
    """Index of the first step of each round, in order."""
    size: int = 0
    """The bytes this replay holds in memory (:func:`~.footprint.footprint`), the game's
    shared rules object left out."""

    @property
    def total(self) -> int:
        """Steps in the whole replay (the game as dealt, then one per command)."""
        return len(self.commands) + 1

    def info(self) -> dict[str, Any]:
        """What a viewer needs before the steps: the game, its players, results and rounds."""
        return {
            **self.entry.describe(),
            "game_name": self.game_name,
            "steps": self.total,
            "rounds": list(self.rounds),
        }

    def all_steps(self) -> list[Step]:
        """Every step at once: for tools reading one game, never for the host's cache."""
        return list(self.steps(0, self.total))

    def steps(self, first: int, count: int) -> Iterator[Step]:
        """Steps ``first`` to ``first + count - 1`` (fewer at the end), played from a checkpoint."""
        last = min(first + count, self.total) - 1
        if first > last:
            return
        if first == 0:
            yield _step(self.game, 0, self.checkpoints[0], SETUP, None, None, self.started, ())
            first = 1
        base = (first - 1) // CHECKPOINT_EVERY * CHECKPOINT_EVERY
        state = self.checkpoints[base // CHECKPOINT_EVERY]
        for index in range(base + 1, last + 1):
            record = CommandRecord(*unpack(self.commands[index - 1]))
            state, events, kind, seat = advance(self.game, state, record)
            if index >= first:
                yield _step(self.game, index, state, kind, seat, record.command, record.now, events)


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
        return _play_again(game, archived)
    except Exception as failure:
        log.warning("game %s could not be replayed", entry.id, exc_info=True)
        raise ReplayRefused(
            "replay_failed",
            f"Game {entry.id} could not be played again ({type(failure).__name__}):"
            " it was kept by a partyhost whose rules differ from this one's.",
        ) from None


def advance(
    game: Game, state: Any, record: CommandRecord
) -> tuple[Any, Sequence[Event], str, int | None]:
    """Apply one kept command (or timer tick) as the host applied it (a restart too)."""
    if record.command is None:
        state, events = apply_tick(game, state, record.now)
        return state, events, TIMER, None
    seat = SYSTEM_SEAT if record.seat is None else record.seat
    state, events = apply(game, state, seat, record.command, record.now)
    return state, events, (SYSTEM if seat == SYSTEM_SEAT else MOVE), seat


def _play_again(game: Game, archived: ArchivedGame) -> Replay:
    """Play every command once, keeping a checkpoint every so often and the round starts."""
    deck = playable_deck(game, archived.deck_data)
    state = game.start(deck, archived.start_seats, archived.rules, archived.seed)
    checkpoints = [state]
    commands = [pack((r.seat, r.command, r.now)) for r in archived.commands]
    rounds = [0]
    previous = game.replay_view(state).get("round")
    for index, record in enumerate(archived.commands, 1):
        state = advance(game, state, record)[0]
        view = game.replay_view(state)
        if view.get("round") != previous:
            rounds.append(index)
            previous = view.get("round")
        if index % CHECKPOINT_EVERY == 0:
            checkpoints.append(state)
    if not game.is_over(state):
        raise ValueError("the kept commands do not reach the end of the game")
    entry = archived.entry
    replay = Replay(entry, game.name, game, entry.started, commands, checkpoints, rounds)
    replay.size = footprint(replay, shared=(game,))
    return replay
