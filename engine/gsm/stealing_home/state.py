"""Stealing Home's state: the grid, the pile, the two face-up cards and the round's claims."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import Event, IllegalMove
from partyhost.engine.gsm.board import BoardMap, CardTable, bits, fitting
from partyhost.engine.gsm.deck import Deck
from partyhost.engine.gsm.placement import Placement, placement_from
from partyhost.engine.gsm.state import TableState, new_table, shared_event
from partyhost.engine.rng import Rng

GAME_ID = "stealing-home"
NAME = "Game, Set, Match! - Stealing Home"
MAX_PLAYERS = 10
"""The most players at the table, at the start and later (the rulebook says "two or more";
ten is what the scores panel shows whole on an 80x24 screen)."""


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
    phase: str = "round"
    round: int = 1
    round_started: float | None = None
    tiebreak: tuple[int, ...] | None = None
    locked: frozenset[int] = frozenset()
    votes: frozenset[int] = frozenset()
    first: Claim | None = None
    tied: tuple[int, ...] = ()

    def claim_refused(self, seat: int) -> IllegalMove | None:
        """Why ``seat``, playing, may not call a match or say "no fit" now; ``None``: it may."""
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
        first = self.first
        return None if first is None else first.at + float(self.rules["tie_window_ms"]) / 1000


BLOCK = ((0, 0), (1, 0), (0, 1), (1, 1))


def setup(
    deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
) -> StealingHomeState:
    """Shuffle, build the starting block from the first cards that make one, turn up two."""
    rng = Rng(seed)
    pile = rng.shuffled(range(len(deck.cards)))
    pool: list[int] = []
    block = None
    while pile and block is None:
        pool.append(pile.pop(0))
        if len(pool) >= len(BLOCK):
            block = start_block(deck.table, pool, bool(rules["rotate"]))
    if block is None or len(pile) + len(pool) - len(BLOCK) < 2:
        raise IllegalMove("deck_unplayable", "No four cards of this deck form a valid block.")
    table = deck.table
    board = tuple(
        Placement(table.card_of(o), x, y, table.is_turned(o)) for (x, y), o in block.items()
    )
    used = {p.card for p in board}
    pile += [card for card in pool if card not in used]
    return StealingHomeState(
        **new_table(deck, seats, rules, rng),
        pile=tuple(pile[2:]),
        board=board,
        face_up=tuple(pile[:2]),
        collected={seat: () for seat in seats},
    )


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
    if kind == "seat_joined":
        seat = data["seat"]
        if seat in state.seats:
            return replace(state, left=state.left - {seat})
        return replace(state, seats=(*state.seats, seat), collected={**state.collected, seat: ()})
    return shared_event(state, event)


def _round_over(state: StealingHomeState, **changes: Any) -> StealingHomeState:
    """Clear a resolved round's face-up cards, claims, lockouts and votes."""
    return dataclasses.replace(
        state, face_up=(), first=None, tied=(), locked=frozenset(), votes=frozenset(), **changes
    )
