"""What Do You Meme?'s state: how a game begins and how each event changes it.

Hidden facts (the reactor's meme, face-down guesses, sealed bets, the
generator) live only here; ``views`` decides who sees what. Events carry every
outcome, so :func:`evolve` is bookkeeping and never mutates an older state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from partyhost.engine.core import Event, SharedViews
from partyhost.engine.meme.deck import MemeDeck
from partyhost.engine.rng import Rng

ROUNDS = 4
"""The last one is the final round, betting dollars."""
TOKENS = 3
MAX_OWN_TOKENS = 2
MAX_SCENARIO_LENGTH = 280
DIE_SIDES = 10
OWN_RULES = ("custom_scenarios", "picking_timer", "betting_timer", "away_wait")
"""The room options the game reads (not the host's, such as the round-results pause)."""

Bets = Mapping[int, int]
"""Target seat (whose guess the bet is on) to tokens or dollars."""


def bets_to_list(bets: Mapping[int, int]) -> list[dict[str, int]]:
    """Bets as events and views carry them: a list of seat and amount, by seat."""
    return [{"seat": target, "amount": amount} for target, amount in sorted(bets.items())]


def bets_from_list(entries: Any) -> dict[int, int]:
    return {int(entry["seat"]): int(entry["amount"]) for entry in entries}


class Phase(StrEnum):
    """Where a turn stands; the reveal and payout happen between phases."""

    ROLLOFF = "rolloff"
    SCENARIO = "scenario"
    PICKING = "picking"
    BETTING_1 = "betting_1"
    BETTING_2 = "betting_2"
    OVER = "over"


@dataclass(frozen=True)
class Scenario:
    """What the reactor reacts to: a numbered deck scenario or their own words."""

    text: str
    number: int | None = None
    dice: tuple[int, int] | None = None

    def shown(self) -> dict[str, Any]:
        """As views and turn records show it (without the dice)."""
        return {"number": self.number, "text": self.text, "custom": self.number is None}


@dataclass(frozen=True)
class MemeState(SharedViews):
    deck: MemeDeck
    rules: Mapping[str, Any]
    """The game's own room options, resolved (see ``OPTIONS`` in :mod:`.game`)."""
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

    @property
    def final(self) -> bool:
        return self.round == ROUNDS

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still in the game, in seat order."""
        return tuple(seat for seat in self.seats if seat not in self.left)

    def color_of(self, seat: int) -> int:
        return self.seats.index(seat)

    def label(self, seat: int) -> str:
        """A seat as people know it: by its color."""
        if seat in self.seats:
            return f"{self.deck.colors[self.color_of(seat)].name.capitalize()} (seat {seat})"
        return f"seat {seat}"

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


def setup(deck: MemeDeck, seats: Sequence[int], rules: Mapping[str, Any], seed: int) -> MemeState:
    """The table before the roll-off; ``rules`` are resolved and ``seats`` checked already."""
    order = tuple(sorted(seats))
    return MemeState(
        deck=deck,
        rules={name: rules[name] for name in OWN_RULES},
        seats=order,
        rng=Rng(seed).next_u64(),
        money={seat: 0 for seat in order},
        rolloff_pending=frozenset(order),
    )


def evolve(state: MemeState, event: Event) -> MemeState:
    """The state after ``event``; unknown kinds change nothing (older journals stay readable)."""
    data, secret = event.data, event.secret
    if "rng" in secret:
        state = replace(state, rng=int(secret["rng"]))
    match event.kind:
        case "rolloff_roll":
            seat, value = int(data["seat"]), int(data["value"])
            attempts = (*state.rolloff[:-1], (*state.rolloff[-1], (seat, value)))
            return replace(state, rolloff=attempts, rolloff_pending=state.rolloff_pending - {seat})
        case "rolloff_tie":
            pending = frozenset(data["seats"])
            return replace(state, rolloff=(*state.rolloff, ()), rolloff_pending=pending)
        case "first_player":
            return replace(state, first_player=int(data["seat"]), rolloff_pending=frozenset())
        case "round_started":
            return replace(state, round=int(data["round"]))
        case "turn_started":
            return replace(
                state,
                phase=Phase.SCENARIO,
                turn=int(data["turn"]),
                round=int(data["round"]),
                reactor=int(data["reactor"]),
                rotation_pos=int(data["position"]),
                phase_started=float(data["at"]),
                scenario=None,
                reaction=None,
                reaction_revealed=False,
                guessers=(),
                guesses={},
                sat_out=frozenset(),
                guesses_revealed=False,
                reactor_bets=None,
                bets={},
                bets_revealed=False,
            )
        case "scenario_rolled":
            dice = (int(data["tens"]), int(data["units"]))
            return replace(state, scenario=Scenario(str(data["text"]), int(data["number"]), dice))
        case "scenario_written":
            return replace(state, scenario=Scenario(str(data["text"])))
        case "picking_started":
            guessers = tuple(int(seat) for seat in data["guessers"])
            started = float(data["at"])
            return replace(state, phase=Phase.PICKING, guessers=guessers, phase_started=started)
        case "reaction_picked":
            return replace(state, reaction=int(secret["meme"]))
        case "guess_placed":
            return replace(state, guesses={**state.guesses, int(data["seat"]): int(secret["meme"])})
        case "guess_withdrawn":
            seat = int(data["seat"])
            return replace(state, guesses={k: v for k, v in state.guesses.items() if k != seat})
        case "sat_out":
            return replace(state, sat_out=state.sat_out | {int(data["seat"])})
        case "betting_started":
            phase = Phase.BETTING_1 if int(data["stage"]) == 1 else Phase.BETTING_2
            return replace(state, phase=phase, phase_started=float(data["at"]))
        case "reactor_bet":
            return replace(state, reactor_bets=bets_from_list(data["bets"]))
        case "guesses_revealed":
            return replace(state, guesses_revealed=True)
        case "bet_committed":
            bets = bets_from_list(secret["bets"])
            return replace(state, bets={**state.bets, int(data["seat"]): bets})
        case "bets_revealed":
            return replace(state, bets_revealed=True)
        case "reaction_revealed":
            return replace(state, reaction_revealed=True)
        case "turn_over":
            money = dict(state.money)
            for payout in data["payouts"]:
                money[int(payout["seat"])] += int(payout["net"])
            return replace(state, money=money, history=(*state.history, dict(data)))
        case "game_over":
            winners = tuple(int(seat) for seat in data["winners"])
            return replace(state, phase=Phase.OVER, winners=winners, phase_started=None)
        case "seat_away":
            return replace(state, away={**state.away, int(data["seat"]): float(data["at"])})
        case "seat_back":
            seat = int(data["seat"])
            return replace(state, away={k: v for k, v in state.away.items() if k != seat})
        case "seat_left":
            return replace(state, left=state.left | {int(data["seat"])})
    return state
