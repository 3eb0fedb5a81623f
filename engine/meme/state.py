"""The state of a What Do You Meme? game and the questions every module asks of it.

The state is a frozen dataclass; ``evolve`` builds a new one for every event
and never mutates mappings in place, so an older state stays valid (the host
may keep it, tests compare them). Hidden facts (the reactor's meme, face-down
guesses, sealed second-round bets, the generator) live here and only here;
``views`` decides who may see what.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from partyhost.engine.meme.deck import MemeDeck

ROUNDS = 4
FINAL_ROUND = 4
TOKENS = 3
MAX_OWN_TOKENS = 2
MAX_SCENARIO_LENGTH = 280
DIE_SIDES = 10

Bets = Mapping[int, int]
"""Target seat (whose guess the bet is on) to tokens or dollars."""


class Phase(StrEnum):
    """Where a turn stands; the reveal and payout happen between phases."""

    ROLLOFF = "rolloff"
    SCENARIO = "scenario"
    PICKING = "picking"
    BETTING_1 = "betting_1"
    BETTING_2 = "betting_2"
    OVER = "over"


@dataclass(frozen=True)
class Rules:
    """The room's options, resolved (see ``OPTIONS`` in :mod:`.game`)."""

    custom_scenarios: bool = False
    picking_timer: int | None = None
    betting_timer: int | None = None
    away_wait: int = 0


@dataclass(frozen=True)
class Scenario:
    """What the reactor reacts to: a numbered deck scenario or their own words."""

    text: str
    number: int | None = None
    dice: tuple[int, int] | None = None


@dataclass(frozen=True)
class MemeState:
    deck: MemeDeck
    rules: Rules
    seats: tuple[int, ...]
    rng: int
    money: Mapping[int, int]
    version: int = 0
    phase: Phase = Phase.ROLLOFF
    away: Mapping[int, float] = field(default_factory=dict)
    """Away seats and since when (host clock)."""
    left: frozenset[int] = frozenset()
    rolloff: tuple[tuple[tuple[int, int], ...], ...] = ((),)
    """Every roll-off attempt: (seat, value) in the order rolled."""
    rolloff_pending: frozenset[int] = frozenset()
    first_player: int | None = None
    round: int = 1
    rotation_pos: int = -1
    turn: int = 0
    reactor: int | None = None
    phase_started: float | None = None
    scenario: Scenario | None = None
    reaction: int | None = None
    reaction_revealed: bool = False
    guessers: tuple[int, ...] = ()
    guesses: Mapping[int, int] = field(default_factory=dict)
    sat_out: frozenset[int] = frozenset()
    guesses_revealed: bool = False
    reactor_bets: Bets | None = None
    bets: Mapping[int, Bets] = field(default_factory=dict)
    """Second-round bets by bettor; sealed until every bettor has committed."""
    bets_revealed: bool = False
    history: tuple[Mapping[str, Any], ...] = ()
    """Public records of finished turns, as their ``turn_over`` events said."""
    winners: tuple[int, ...] = ()
    shared_views: dict[str, Any] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """View parts every seat sees alike, built on this state's first view.

    States never change, so the parts never go stale; left out of comparisons,
    and ``dataclasses.replace`` starts the next state with an empty one.
    """

    @property
    def final(self) -> bool:
        return self.round == FINAL_ROUND

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still in the game, in seat order."""
        return tuple(seat for seat in self.seats if seat not in self.left)

    def color_of(self, seat: int) -> int:
        return self.seats.index(seat)

    def rotation(self) -> tuple[int, ...]:
        """Seat order starting at the first player: the reactor order of every round."""
        if self.first_player is None:
            return self.seats
        start = self.seats.index(self.first_player)
        return self.seats[start:] + self.seats[:start]

    def bettors(self) -> tuple[int, ...]:
        """Seats whose guess is on the table this turn (they bet in betting 2)."""
        return tuple(seat for seat in self.guessers if seat in self.guesses)

    def pending(self) -> tuple[int, ...]:
        """Seats the current phase waits for, in seat order."""
        waiting: set[int] = set()
        if self.phase is Phase.ROLLOFF:
            waiting = set(self.rolloff_pending)
        elif self.phase is Phase.SCENARIO and self.reactor is not None and self.scenario is None:
            waiting = {self.reactor}
        elif self.phase is Phase.PICKING:
            waiting = set(self.guessers) - self.sat_out - set(self.guesses)
            if self.reaction is None and self.reactor is not None:
                waiting.add(self.reactor)
        elif self.phase is Phase.BETTING_1 and self.reactor_bets is None:
            waiting = {self.reactor} if self.reactor is not None else set()
        elif self.phase is Phase.BETTING_2:
            waiting = {seat for seat in self.bettors() if seat not in self.bets}
        return tuple(seat for seat in self.seats if seat in waiting and seat not in self.left)
