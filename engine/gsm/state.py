"""The state every Game, Set, Match! variant's state starts from.

Every variant keeps the same bookkeeping about its players (who left, who is
away, the last thing that happened, the winners); each adds its own table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from partyhost.engine.gsm.cards import Deck


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
