"""What every Game, Set, Match! variant's rules share: the order of deciding, seat commands, ties.

:func:`decider` runs overdue timers first (a late command never jumps a due
settlement), then sends a host seat command to the variant's ``seat_change`` and
anything else, from a seat still playing, to its ``play``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

from partyhost.engine.core import (
    SYSTEM_COMMANDS,
    SYSTEM_SEAT,
    Command,
    Decision,
    Event,
    IllegalMove,
    system_target,
)
from partyhost.engine.gsm.state import TableState

State = TypeVar("State", bound=TableState)


Step = Callable[[Decision[State]], None]


def decider(
    evolve: Callable[[State, Event], State],
    play: Callable[[Decision[State], int, Command], None],
    seat_change: Callable[[Decision[State], str, int], None],
    timers: Step[State] | None = None,
) -> Callable[[State, int, Command, float], list[Event]]:
    """A variant's ``decide``: due ``timers`` first, then the command itself."""

    def decide(state: State, seat: int, command: Command, now: float) -> list[Event]:
        decision = Decision(evolve, state, now)
        if timers is not None:
            timers(decision)
        if seat == SYSTEM_SEAT or command.get("type") in SYSTEM_COMMANDS:
            if seat != SYSTEM_SEAT:
                raise IllegalMove("not_host", "Only the host sends seat changes.")
            seat_change(decision, str(command.get("type")), system_target(command))
        else:
            refused = decision.state.refusal(seat)
            if refused is not None:
                raise refused
            play(decision, seat, command)
        return decision.events

    return decide


def ticker(
    evolve: Callable[[State, Event], State], timers: Step[State]
) -> Callable[[State, float], list[Event]]:
    """A variant's ``tick``: the events of its timers that are due at ``now``."""

    def tick(state: State, now: float) -> list[Event]:
        decision = Decision(evolve, state, now)
        timers(decision)
        return decision.events

    return tick


def fewest_cards(hands: Mapping[int, Sequence[int]], seats: Iterable[int]) -> list[int]:
    """The seats holding the fewest cards (ties share the win)."""
    present = list(seats)
    least = min((len(hands[s]) for s in present), default=0)
    return [s for s in present if len(hands[s]) == least]
