"""Who sits at a Game, Set, Match! table: the state and seat handling every variant shares.

Every variant keeps the same bookkeeping about its players (who left, who is
away, the last thing that happened, the winners) and takes the same four host
commands about seats. What a variant does *because* a seat changed stays in
the variant's own module; this one only records the change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from partyhost.engine.core import SYSTEM_SEAT, Command, IllegalMove
from partyhost.engine.gsm.cards import Deck

SYSTEM_COMMANDS = ("seat_joined", "seat_left", "seat_away", "seat_back")


@dataclass(frozen=True, kw_only=True)
class TableState:
    """The fields every variant's state has; each variant adds its own.

    ``shared_views`` holds view parts built from this state (every seat sees
    them alike). States never change, so the parts never go stale; it is left
    out of comparisons and ``dataclasses.replace`` starts the next state with
    an empty one.
    """

    deck: Deck
    rules: dict[str, Any]
    rng: int
    seats: tuple[int, ...]
    phase: str
    """Each variant names its phases and its first one; ``over`` ends every game."""
    away: frozenset[int] = frozenset()
    left: frozenset[int] = frozenset()
    last: dict[str, Any] | None = None
    winners: tuple[int, ...] = ()
    version: int = 0
    shared_views: dict[str, Any] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def present(self) -> list[int]:
        """Seats still at the table (away ones included), in seat order."""
        return [s for s in self.seats if s not in self.left]

    def active(self) -> list[int]:
        """Seats still at the table and not away, in seat order."""
        return [s for s in self.seats if s not in self.left and s not in self.away]


State = TypeVar("State", bound=TableState)


def read_int(command: Command, key: str) -> int:
    value = command.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove("bad_command", f"The command needs a whole number {key!r}.")
    return value


def is_system(seat: int, command: Command) -> bool:
    """Whether the command is about seats (or comes from the host) and takes the host's path."""
    return seat == SYSTEM_SEAT or command.get("type") in SYSTEM_COMMANDS


def system_target(command: Command) -> int:
    """The seat a host system command is about; any other type from the host is refused."""
    kind = command.get("type")
    if kind not in SYSTEM_COMMANDS:
        raise IllegalMove("unknown_command", f"Unknown system command {kind!r}.")
    return read_int(command, "seat")


def require_system(seat: int) -> None:
    if seat != SYSTEM_SEAT:
        raise IllegalMove("not_host", "Only the host sends seat changes.")


def seat_changed(
    state: State,
    kind: str,
    seat: int,
    leaving: Callable[[State, int], Mapping[str, Any]] | None = None,
) -> State:
    """The state after ``seat`` left, went away or came back.

    ``leaving`` gives the variant's own changes when a seat leaves (where its
    cards go). Any other event is one the variant does not know: ``ValueError``.
    """
    if kind == "seat_left":
        extra = {} if leaving is None else leaving(state, seat)
        return dataclasses.replace(state, left=state.left | {seat}, **extra)
    if kind == "seat_away":
        return dataclasses.replace(state, away=state.away | {seat})
    if kind == "seat_back":
        return dataclasses.replace(state, away=state.away - {seat})
    raise ValueError(f"unknown event {kind!r}")


def score_rows(
    state: TableState, columns: Callable[[int], Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One scoreboard row a seat: its number, the variant's ``columns``, then away/left."""
    away, left = state.away, state.left
    return [{"seat": s, **columns(s), "away": s in away, "left": s in left} for s in state.seats]
