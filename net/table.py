"""One running game: its state, the engine calls, and the journal of what was accepted.

The room owns a :class:`Table` while a game runs. Every state change goes
through :meth:`Table.command` or :meth:`Table.tick`, which journal (and
commit) the accepted command before returning, so the caller may send views
right away. Engine failures other than :class:`IllegalMove` are turned into
one, so a command the game chokes on is refused, never fatal to the host.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
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
from partyhost.net.journal import CommandRecord, Journal

log = logging.getLogger(__name__)


class Table:
    """A game in play, journaled command by command."""

    def __init__(
        self,
        game: Game,
        state: Any,
        journal: Journal,
        code: str,
        records: Sequence[CommandRecord] = (),
    ) -> None:
        self.game = game
        self.state = state
        self.journal = journal
        self.code = code
        self.records = list(records)
        """Every command (and tick) accepted so far, in order: the game's history keeps them."""

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
        journal: Journal,
        code: str,
        commands: Sequence[CommandRecord] = (),
    ) -> Table:
        """Set the game up and replay ``commands`` exactly as they were applied."""
        state = game.setup(deck, seats, rules, seed)
        for record in commands:
            if record.command is None:
                state, _ = apply_tick(game, state, record.now)
            else:
                seat = SYSTEM_SEAT if record.seat is None else record.seat
                state, _ = apply(game, state, seat, record.command, record.now)
        return cls(game, state, journal, code, commands)

    @property
    def version(self) -> int:
        return int(self.state.version)

    @property
    def over(self) -> bool:
        return bool(self.game.is_over(self.state))

    def deadline(self) -> float | None:
        if self.over:
            return None
        try:
            return self.game.deadline(self.state)
        except Exception:
            log.exception("%s: deadline() failed", self.game.id)
            return None

    def command(self, seat: int, command: Command, now: float) -> list[Event]:
        """Apply and journal one command; raises IllegalMove when refused."""
        try:
            state, events = apply(self.game, self.state, seat, command, now)
        except IllegalMove:
            raise
        except Exception:
            log.exception("%s refused a command from seat %s by failing", self.game.id, seat)
            raise IllegalMove("bad_command", "The game could not use that command.") from None
        self._accept(state, CommandRecord(seat, command, now))
        return events

    def system(self, kind: str, seat: int, now: float) -> list[Event] | None:
        """A host system command (seat_joined, seat_left...); None if the game refused it."""
        try:
            return self.command(SYSTEM_SEAT, {"type": kind, "seat": seat}, now)
        except IllegalMove as refused:
            log.info("%s refused %s for seat %s: %s", self.game.id, kind, seat, refused.code)
            return None

    def tick(self, now: float) -> list[Event]:
        """Run the game's timers; journal the tick only if something happened."""
        try:
            state, events = apply_tick(self.game, self.state, now)
        except Exception:
            log.exception("%s: tick failed", self.game.id)
            return []
        if events:
            self._accept(state, CommandRecord(None, None, now))
        return events

    def _accept(self, state: Any, record: CommandRecord) -> None:
        self.journal.append(self.code, self.index, record)
        self.records.append(record)
        self.state = state

    def view(self, seat: int | None) -> View:
        return self.game.view(self.state, seat)
