"""Stealing Home's state and how events change it.

Kept apart from the deciding code so each module stays small; ``evolve`` here
is the only way a Stealing Home state changes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import Event
from partyhost.engine.gsm.board import BoardMap, fitting
from partyhost.engine.gsm.common import Placement, placement_from
from partyhost.engine.gsm.seating import TableState, seat_changed
from partyhost.engine.gsm.table import CardTable, bits

BLOCK = ((0, 0), (1, 0), (0, 1), (1, 1))


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

    def may_claim(self, seat: int) -> bool:
        return (
            self.phase == "round"
            and seat in self.seats
            and seat not in self.left
            and (self.tiebreak is None or seat in self.tiebreak)
            and seat not in self.locked
        )

    def round_deadline(self) -> float | None:
        limit = self.rules["round_seconds"]
        if self.phase != "round" or self.round_started is None or limit is None:
            return None
        return float(self.round_started + limit)

    def tie_deadline(self) -> float | None:
        if self.first is None:
            return None
        return self.first.at + float(self.rules["tie_window_ms"]) / 1000


def start_block(table: CardTable, pool: Sequence[int], rotate: bool) -> BoardMap | None:
    """Four cards of ``pool`` in a 2 x 2 block that obeys the rule, if there are any."""
    board: BoardMap = {}

    def grow(index: int, avail: int) -> bool:
        if index == len(BLOCK):
            return True
        slot = BLOCK[index]
        for o in bits(fitting(table, board, slot, avail)):
            board[slot] = o
            if grow(index + 1, avail & ~(3 << (o & ~1))):
                return True
            del board[slot]
        return False

    return board if grow(0, table.hand_mask(pool, rotate)) else None


def evolve(state: StealingHomeState, event: Event) -> StealingHomeState:
    data, replace = event.data, dataclasses.replace
    kind = event.kind
    if kind == "round_clock":
        return replace(state, round_started=data["at"])
    if kind == "match_called":
        if state.first is None:
            claim = Claim(data["seat"], placement_from(event.secret), event.secret["at"])
            return replace(state, first=claim)
        return replace(state, tied=(*state.tied, data["seat"]))
    if kind == "wrong_match":
        return replace(state, locked=state.locked | {data["seat"]})
    if kind == "no_fit_vote":
        return replace(state, votes=state.votes | {data["seat"]})
    if kind == "match_won":
        seat = data["seat"]
        collected = {**state.collected, seat: (*state.collected[seat], data["kept"])}
        board = (*state.board, placement_from(data))
        return _round_over(state, board=board, collected=collected, last=dict(data))
    if kind == "tiebreak":
        pile = (*state.pile, *state.face_up)
        return _round_over(state, pile=pile, last=dict(data))
    if kind == "no_fit":
        out = (*state.out_of_play, *data["cards"])
        return _round_over(state, out_of_play=out, last=dict(data))
    if kind == "cards_turned":
        tiebreak = data["tiebreak"]
        return replace(
            state,
            pile=state.pile[2:],
            face_up=tuple(data["cards"]),
            round=data["round"],
            round_started=data["at"],
            tiebreak=None if tiebreak is None else tuple(tiebreak),
        )
    if kind == "game_over":
        return replace(state, phase="over", winners=tuple(data["winners"]))
    return _evolve_seat(state, kind, data["seat"])


def _round_over(state: StealingHomeState, **changes: Any) -> StealingHomeState:
    """Clear a resolved round's face-up cards, claims, lockouts and votes."""
    return dataclasses.replace(
        state, face_up=(), first=None, tied=(), locked=frozenset(), votes=frozenset(), **changes
    )


def _evolve_seat(state: StealingHomeState, kind: str, seat: int) -> StealingHomeState:
    replace = dataclasses.replace
    if kind == "seat_joined":
        if seat in state.seats:
            return replace(state, left=state.left - {seat})
        return replace(state, seats=(*state.seats, seat), collected={**state.collected, seat: ()})
    return seat_changed(state, kind, seat)
