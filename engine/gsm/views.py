"""How Game, Set, Match! cards and tables appear in views, built as few times as possible.

Card rows are built once per deck and a state's public part once per state,
then shared by every seat's view: a view is read-only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict
from typing import Any, TypeVar

from partyhost.engine.core import Command, SeatResult, View, shared_part
from partyhost.engine.gsm.deck import Deck
from partyhost.engine.gsm.placement import Placement
from partyhost.engine.gsm.state import TableState

State = TypeVar("State", bound=TableState)


def cards_view(deck: Deck, card_ids: Iterable[int]) -> list[dict[str, Any]]:
    """Cards upright, each as its id and rows of [object, color] index pairs."""
    rows = deck.cell_rows
    return [{"id": card_id, "cells": rows[2 * card_id]} for card_id in card_ids]


def board_view(deck: Deck, board: Iterable[Placement]) -> list[dict[str, Any]]:
    """Placed cards as they lie (rows already turned), with where and whose they are."""
    rows = deck.cell_rows
    return [
        {
            "id": p.card,
            "cells": rows[2 * p.card + p.turned],
            "card": p.card,
            "x": p.x,
            "y": p.y,
            "turned": p.turned,
            "owner": p.owner,
        }
        for p in board
    ]


def base_view(game_id: str, state: TableState) -> View:
    """The fields every Game, Set, Match! view starts with, as a spectator sees them."""
    deck = state.deck
    return {
        "game": game_id,
        "phase": state.phase,
        "you": None,
        "version": state.version,
        "legal": [],
        "legend": {
            "objects": list(map(asdict, deck.objects)),
            "colors": list(map(asdict, deck.colors)),
        },
        "shape": {"rows": deck.rows, "cols": deck.cols},
        "rules": dict(state.rules),
        "winners": list(state.winners),
        "deadline": None,
    }


def table_view(
    game_id: str,
    state: State,
    seat: int | None,
    public_view: Callable[[State], View],
    legal: Callable[[State, int], list[Command]],
    private: Callable[[State, int], View] | None = None,
) -> View:
    """The state's shared public part (``public_view`` between :func:`base_view` and ``last``),
    plus the seat's ``legal`` commands and what ``private`` shows only it.
    """
    view = dict(
        shared_part(
            state,
            "view",
            lambda: {**base_view(game_id, state), **public_view(state), "last": state.last},
        )
    )
    if seat is not None:
        view["you"] = seat
        view["legal"] = legal(state, seat)
        if private is not None:
            view.update(private(state, seat))
    return view


def own_hand(state: Any, seat: int) -> View:
    """The seat's hand, upright (Gridiron's and Four Corners' private part)."""
    return {"hand": cards_view(state.deck, state.hands.get(seat, ()))}


def by_seat(state: Any, field: str) -> list[dict[str, Any]]:
    """Every seat's ``hands`` face up or its private ``boards`` as they lie (replays only)."""
    key, show = ("cards", cards_view) if field == "hands" else ("board", board_view)
    held = getattr(state, field)
    return [{"seat": seat, key: show(state.deck, held.get(seat, ()))} for seat in state.seats]


def seat_results(state: TableState, points: Callable[[int], int | None]) -> list[SeatResult]:
    """Every seat that played, the winners marked, with the variant's score (None: none kept)."""
    winners = set(state.winners)
    return [SeatResult(seat, seat in winners, points=points(seat)) for seat in state.seats]


def score_rows(
    state: TableState, columns: Callable[[int], Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One scoreboard row a seat: its number, the variant's ``columns``, then away/left."""
    away, left = state.away, state.left
    return [{"seat": s, **columns(s), "away": s in away, "left": s in left} for s in state.seats]


def winners_only(state: TableState) -> list[SeatResult]:
    """The results of a variant that keeps no score (Gridiron, Four Corners)."""
    return seat_results(state, lambda seat: None)
