"""Helpers for the What Do You Meme? tests: games set up and played from the rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from partyhost.decks.files import load_deck_file
from partyhost.engine.core import Event, IllegalMove, apply
from partyhost.engine.meme.deck import MemeDeck
from partyhost.engine.meme.game import GAME
from partyhost.engine.meme.state import MemeState, Phase

SHIPPED = Path(__file__).resolve().parent.parent / "decks" / "what-do-you-meme.yaml"

NOPE, FUMING, WHEEZE, SHOOK, NAILED_IT, WHY_ME, AWKWARD = range(7)


@cache
def shipped_deck() -> MemeDeck:
    deck = load_deck_file(SHIPPED).deck
    assert isinstance(deck, MemeDeck)
    return deck


def new_game(players: int = 3, seed: int = 1, **rules: Any) -> MemeState:
    return GAME.start(shipped_deck(), list(range(players)), rules, seed)


def play(
    state: MemeState, seat: int, command: dict[str, Any], now: float = 0.0
) -> tuple[MemeState, list[Event]]:
    new_state, events = apply(GAME, state, seat, command, now)
    assert isinstance(new_state, MemeState)
    return new_state, events


def roll_off(state: MemeState, now: float = 0.0) -> tuple[MemeState, list[Event]]:
    """Every waiting seat rolls until a first player is found."""
    events: list[Event] = []
    for _ in range(100):
        if state.phase is not Phase.ROLLOFF:
            return state, events
        for seat in state.pending():
            state, more = play(state, seat, {"type": "roll"}, now)
            events += more
    raise AssertionError("the roll-off never ended")


def started(players: int = 3, seed: int = 1, **rules: Any) -> MemeState:
    """A game whose first turn is waiting for the reactor to roll."""
    state, _ = roll_off(new_game(players, seed, **rules))
    assert state.phase is Phase.SCENARIO
    return state


def picks(
    state: MemeState, reaction: int, guesses: Mapping[int, int], now: float = 0.0
) -> MemeState:
    """Roll the scenario, then the reactor reacts and the given seats guess."""
    reactor = state.reactor
    assert reactor is not None
    if state.phase is Phase.SCENARIO:
        state, _ = play(state, reactor, {"type": "roll"}, now)
    state, _ = play(state, reactor, {"type": "react", "meme": reaction}, now)
    for seat, meme in guesses.items():
        state, _ = play(state, seat, {"type": "guess", "meme": meme}, now)
    return state


def bet(
    state: MemeState, seat: int, bets: Mapping[int, int], now: float = 0.0
) -> tuple[MemeState, list[Event]]:
    entries = [{"seat": target, "amount": amount} for target, amount in bets.items()]
    return play(state, seat, {"type": "bet", "bets": entries}, now)


def others(state: MemeState) -> list[int]:
    return [seat for seat in state.active if seat != state.reactor]


def final_round(state: MemeState, money: Mapping[int, int], last_turn: bool = False) -> MemeState:
    """The same turn, moved into round 4 with the given money."""
    position = len(state.seats) - 1 if last_turn else state.rotation_pos
    return replace(state, round=4, money=dict(money), rotation_pos=position)


def event(events: list[Event], kind: str) -> Event:
    found = [e for e in events if e.kind == kind]
    assert found, f"no {kind!r} event among {[e.kind for e in events]}"
    return found[-1]


def payout_of(events: list[Event], seat: int) -> dict[str, int]:
    record = event(events, "turn_over").data
    return next(p for p in record["payouts"] if p["seat"] == seat)


def refused(code: str, state: MemeState, seat: int, command: dict[str, Any]) -> IllegalMove:
    """Assert the command is refused with ``code`` and a sentence; return the refusal."""
    with pytest.raises(IllegalMove) as caught:
        play(state, seat, command)
    assert caught.value.code == code, caught.value.message
    assert caught.value.message.endswith(".")
    return caught.value
