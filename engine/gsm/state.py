"""The state every Game, Set, Match! variant's state starts from, dealt and changed alike."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from partyhost.engine.core import Event, IllegalMove, SharedViews
from partyhost.engine.gsm.deck import Deck
from partyhost.engine.gsm.placement import placement_from
from partyhost.engine.rng import Rng


@dataclass(frozen=True, kw_only=True)
class TableState(SharedViews):
    """The fields every variant's state has; each variant adds its own."""

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
    out_of_play: tuple[int, ...] = ()
    version: int = 0

    def present(self) -> list[int]:
        """Seats still at the table (away ones included), in seat order."""
        return [s for s in self.seats if s not in self.left]

    def active(self) -> list[int]:
        """Seats still at the table and not away, in seat order."""
        return [s for s in self.seats if s not in self.left and s not in self.away]

    def refusal(self, seat: int) -> IllegalMove | None:
        """Why ``seat`` may not play now (the game is over, or it is not at the table)."""
        if self.phase == "over":
            return IllegalMove("not_now", "The game is over.")
        if seat not in self.present():
            return IllegalMove("not_playing", "You are not playing at this table.")
        return None


State = TypeVar("State", bound=TableState)


def shared_event(state: State, event: Event, cards_leave: Sequence[str] = ()) -> State:
    """The state after the game ended or a seat left, went away or came back (else ValueError).

    A leaving seat's cards in its ``cards_leave`` fields (of :data:`BY_SEAT`) are out of play.
    """
    kind = event.kind
    if kind in ("game_over", "match_over"):
        return dataclasses.replace(state, phase="over", winners=tuple(event.data["winners"]))
    seat = event.data["seat"]
    if kind == "seat_left":
        changes: dict[str, Any] = {"left": state.left | {seat}}
        out = list(state.out_of_play)
        for name in cards_leave:
            by_seat = getattr(state, name)
            out += [getattr(card, "card", card) for card in by_seat[seat]]
            changes[name] = {**by_seat, seat: ()}
        return dataclasses.replace(state, **changes, out_of_play=tuple(out))
    if kind == "seat_away":
        return dataclasses.replace(state, away=state.away | {seat})
    if kind == "seat_back":
        return dataclasses.replace(state, away=state.away - {seat})
    raise ValueError(f"unknown event {kind!r}")


def laid_down(state: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """The fields a hand card laid on the shared board (``card_placed``) changes."""
    seat = data["seat"]
    hand = tuple(c for c in state.hands[seat] if c != data["card"])
    board = (*state.board, placement_from(data))
    return {"board": board, "hands": {**state.hands, seat: hand}, "last": dict(data)}


BY_SEAT = ("hands", "boards", "collected")
"""The state fields that hold cards by seat (each variant has some of these)."""
IN_PLAY = ("board", "pile", "face_up", "out_of_play")
"""The state fields that hold cards (or placements of cards) seat by seat."""


def card_locations(state: TableState) -> list[tuple[int, str]]:
    """Where every card is: each card must appear exactly once (the invariant tests check)."""
    found: list[tuple[int, str]] = []
    for name in BY_SEAT:
        for seat, cards in getattr(state, name, {}).items():
            found += [(getattr(card, "card", card), f"{name} {seat}") for card in cards]
    for name in IN_PLAY:
        found += [(getattr(card, "card", card), name) for card in getattr(state, name, ())]
    return found


def new_table(
    deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], rng: Rng
) -> dict[str, Any]:
    """The fields every variant's ``setup`` gives its new state before its own."""
    return {"deck": deck, "rules": dict(rules), "rng": rng.state, "seats": tuple(seats)}


def require_cards(deck: Deck, needed: int, table: str = "this table") -> None:
    """Refuse a deck with fewer than ``needed`` cards; ``table`` names what it falls short for."""
    if len(deck.cards) < needed:
        raise IllegalMove("deck_too_small", f"The deck has too few cards for {table}.")


def deal_hands(
    deck: Deck, seats: Sequence[int], seed: int, size: int, table: str = "this table"
) -> tuple[Rng, dict[int, tuple[int, ...]], list[int]]:
    """The generator, ``size`` cards a seat and the rest of the pile (a card or more)."""
    require_cards(deck, size * len(seats) + 1, table)
    rng = Rng(seed)
    pile = rng.shuffled(range(len(deck.cards)))
    hands = {seat: tuple(pile[i * size : (i + 1) * size]) for i, seat in enumerate(seats)}
    return rng, hands, pile[size * len(seats) :]
