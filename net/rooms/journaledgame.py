"""One running game: its state, the engine calls, and the journal of what was accepted.

A command is journaled before :meth:`Table.command` returns, so the caller may
send views at once. An engine failure other than :class:`IllegalMove` becomes
one: a command the game chokes on is refused, never fatal to the host. The
journal only grows with real changes, and stops at the game's :class:`Ceiling`.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import (
    SYSTEM_SEAT,
    Command,
    Event,
    Game,
    IllegalMove,
    View,
    apply,
    apply_tick,
)
from partyhost.net.store.database import Store
from partyhost.net.store.records import CommandRecord, journaled_bytes
from partyhost.net.store.replaybuilder import advance

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Ceiling:
    """How much of the journal one game may take: commands (ticks included) and bytes."""

    commands: int
    journal_bytes: int


def unchanged(before: Any, after: Any) -> bool:
    """Whether the game state ``after`` a command equals ``before``, the version aside: field
    by field as ``==`` compares dataclasses, identical objects first (a command usually
    replaces a few fields and shares the rest, so this is cheap either way)."""
    if before is after:
        return True
    if type(before) is not type(after) or not dataclasses.is_dataclass(before):
        return False
    for field in dataclasses.fields(before):
        if field.name == "version" or not field.compare:
            continue
        old, new = getattr(before, field.name), getattr(after, field.name)
        if old is not new and old != new:
            return False
    return True


@dataclass(eq=False)
class Table:
    """A game in play, journaled command by command."""

    game: Game
    state: Any
    journal: Store
    code: str
    ceiling: Ceiling
    records: list[CommandRecord] = dataclasses.field(default_factory=list)
    """Every command (and tick) accepted so far, in order: the game's history keeps them."""
    journal_bytes: int = 0
    """Bytes this game's commands take in the journal."""

    @property
    def index(self) -> int:
        """How many commands (and ticks) were accepted so far."""
        return len(self.records)

    @classmethod
    def rebuild(
        cls,
        game: Game,
        deck: Any,
        seats: Sequence[int],
        rules: dict[str, Any],
        seed: int,
        journal: Store,
        code: str,
        commands: Sequence[CommandRecord],
        ceiling: Ceiling,
    ) -> Table:
        """Set the game up and replay ``commands`` exactly as they were applied."""
        state = game.start(deck, seats, rules, seed)
        for record in commands:
            state = advance(game, state, record)[0]
        size = sum(journaled_bytes(record) for record in commands)
        return cls(game, state, journal, code, ceiling, list(commands), size)

    @property
    def version(self) -> int:
        return int(self.state.version)

    @property
    def over(self) -> bool:
        return bool(self.game.is_over(self.state))

    @property
    def full(self) -> bool:
        """Whether this game has reached its ceiling: it takes no more commands."""
        ceiling = self.ceiling
        return self.index >= ceiling.commands or self.journal_bytes >= ceiling.journal_bytes

    def deadline(self) -> float | None:
        if self.over:
            return None
        try:
            return self.game.deadline(self.state)
        except Exception:
            log.exception("%s: deadline() failed", self.game.id)
            return None

    def command(self, seat: int, command: Command, now: float) -> list[Event]:
        """Apply and journal one command (IllegalMove when refused); one that changes nothing
        is refused from a player (``no_change``), taken but not journaled from the host."""
        if self.full:
            raise IllegalMove("game_too_long", self.ceiling_message())
        try:
            state, events = apply(self.game, self.state, seat, command, now)
        except IllegalMove:
            raise
        except Exception:
            log.exception("%s refused a command from seat %s by failing", self.game.id, seat)
            raise IllegalMove("bad_command", "The game could not use that command.") from None
        if unchanged(self.state, state):
            if seat != SYSTEM_SEAT:
                raise IllegalMove("no_change", "That changes nothing on the table.")
            return events
        self._accept(state, CommandRecord(seat, command, now))
        return events

    def tick(self, now: float) -> list[Event]:
        """Run the game's timers; journal the tick only if something happened."""
        if self.full:
            return []
        try:
            state, events = apply_tick(self.game, self.state, now)
        except Exception:
            log.exception("%s: tick failed", self.game.id)
            return []
        if events:
            self._accept(state, CommandRecord(None, None, now))
        return events

    def ceiling_message(self) -> str:
        commands, mib = self.ceiling.commands, self.ceiling.journal_bytes / 2**20
        return (
            f"This game reached the host's limit ({commands:,} moves or {mib:g} MiB of journal)"
            " and stopped; the owner can start a new one."
        )

    def _accept(self, state: Any, record: CommandRecord) -> None:
        self.journal.append(self.code, self.index, record)
        self.records.append(record)
        self.journal_bytes += journaled_bytes(record)
        self.state = state

    def view(self, seat: int | None) -> View:
        return self.game.view(self.state, seat)
