"""What every Game, Set, Match! variant's ``evolve`` shares: seats leaving, going away, coming back.

What a variant does *because* a seat changed stays in the variant's own
``evolve``; this one only records the change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from partyhost.engine.gsm.state import TableState

State = TypeVar("State", bound=TableState)


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
