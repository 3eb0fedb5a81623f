"""Stealing Home's state: the grid, the pile, the two face-up cards and the round's claims."""

from __future__ import annotations

from dataclasses import dataclass

from partyhost.engine.core import IllegalMove
from partyhost.engine.gsm.placement import Placement
from partyhost.engine.gsm.state import TableState

GAME_ID = "stealing-home"
MAX_PLAYERS = 8
"""The most players at the table, at the start and later (the board and scores must fit)."""


@dataclass(frozen=True)
class Claim:
    """The first valid "Match!" of a round, waiting out the tie window."""

    seat: int
    move: Placement
    at: float


@dataclass(frozen=True, kw_only=True)
class StealingHomeState(TableState):
    """The table: grid, pile, the two face-up cards, each player's pile of won cards."""

    pile: tuple[int, ...]
    board: tuple[Placement, ...]
    face_up: tuple[int, ...]
    collected: dict[int, tuple[int, ...]]
    out_of_play: tuple[int, ...] = ()
    phase: str = "round"
    round: int = 1
    round_started: float | None = None
    tiebreak: tuple[int, ...] | None = None
    locked: frozenset[int] = frozenset()
    votes: frozenset[int] = frozenset()
    first: Claim | None = None
    tied: tuple[int, ...] = ()

    def claim_refused(self, seat: int) -> IllegalMove | None:
        """Why ``seat`` may not call a match or say "no fit" now; ``None``: it may."""
        if self.phase != "round":
            return IllegalMove("not_now", "The game is over.")
        if seat not in self.seats or seat in self.left:
            return IllegalMove("not_playing", "You are not playing at this decision.")
        if self.tiebreak is not None and seat not in self.tiebreak:
            return IllegalMove("not_in_tiebreak", "Only the tied players race in a tiebreaker.")
        if seat in self.locked:
            return IllegalMove("locked_out", "You called a wrong match; wait for the next round.")
        if self.first is not None and seat in (self.first.seat, *self.tied):
            return IllegalMove("already_called", "You already called a match this round.")
        return None

    def round_deadline(self) -> float | None:
        limit = self.rules["round_seconds"]
        if self.phase != "round" or self.round_started is None or limit is None:
            return None
        return float(self.round_started + limit)

    def tie_deadline(self) -> float | None:
        if self.first is None:
            return None
        return self.first.at + float(self.rules["tie_window_ms"]) / 1000


def card_locations(state: StealingHomeState) -> list[tuple[int, str]]:
    """Where every card is: each card must appear exactly once (the invariant tests check)."""
    found = [(c, f"collected {s}") for s, cards in state.collected.items() for c in cards]
    found += [(p.card, "board") for p in state.board] + [(c, "pile") for c in state.pile]
    found += [(c, "face up") for c in state.face_up]
    return found + [(c, "out of play") for c in state.out_of_play]
