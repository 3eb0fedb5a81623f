"""Seeded games with bots to the end: money is conserved and nothing hidden leaks.

Every step checks that each view (every seat and a spectator) survives a
msgpack round trip with string keys only, and that no view depends on a fact
its viewer may not know yet: changing the reactor's meme, someone else's
face-down guess, a sealed bet or the generator must leave the view unchanged.
Every secret choice is also replayed with another value to check that the
events others receive do not change before the reveal.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import msgpack
import pytest
from memeplay import GAME, new_game
from partyhost.engine.core import SYSTEM_SEAT, Event, apply, apply_tick
from partyhost.engine.meme.state import MemeState, Phase
from partyhost.engine.rng import Rng

REVEALS = {"guesses_revealed", "bets_revealed", "reaction_revealed", "turn_over", "game_over"}
MAX_STEPS = 2000


def _round_trip(data: Any) -> None:
    packed = msgpack.packb(data)
    assert msgpack.unpackb(packed, raw=False, strict_map_key=True) == data


def _hidden_variants(state: MemeState) -> list[tuple[int | None, MemeState]]:
    """(owner, the same state with one hidden fact changed)."""
    variants: list[tuple[int | None, MemeState]] = [(None, replace(state, rng=state.rng ^ 0xBEEF))]
    if state.reaction is not None and not state.reaction_revealed:
        variants.append((state.reactor, replace(state, reaction=(state.reaction + 1) % 7)))
    if not state.guesses_revealed:
        for seat, meme in state.guesses.items():
            variants.append((seat, replace(state, guesses={**state.guesses, seat: (meme + 3) % 7})))
    if not state.bets_revealed:
        for seat in state.bets:
            changed = {**state.bets, seat: {seat: 99}}
            variants.append((seat, replace(state, bets=changed)))
    return variants


def _check_views(state: MemeState, deep: bool) -> None:
    viewers: list[int | None] = [*state.seats, None]
    views = {viewer: GAME.view(state, viewer) for viewer in viewers}
    for view in views.values():
        _round_trip(view)
        assert view["game"] == "meme" and 1 <= view["round"] <= 4
    if not deep:
        return
    for owner, variant in _hidden_variants(state):
        for viewer in viewers:
            if viewer != owner or owner is None:
                assert GAME.view(variant, viewer) == views[viewer], (owner, viewer)


def _other_choice(command: dict[str, Any]) -> dict[str, Any] | None:
    if command["type"] in ("react", "guess"):
        return {**command, "meme": (command["meme"] + 1) % 7}
    if command["type"] == "bet" and command["bets"]:
        return {**command, "bets": []}
    return None


def _check_events_hide_the_choice(state: MemeState, seat: int, command: dict[str, Any]) -> None:
    other = _other_choice(command)
    if other is None or state.phase is Phase.BETTING_1:
        return  # the reactor's first bet is public: tokens go on the table face up
    try:
        alternative = GAME.decide(state, seat, other, 0.0)
    except Exception:
        return  # e.g. the reactor must bet: no empty alternative to compare
    actual = GAME.decide(state, seat, command, 0.0)
    for mine, theirs in zip(actual, alternative, strict=False):
        if mine.kind in REVEALS:
            break
        for viewer in [*state.seats, None]:
            if viewer != seat:
                assert mine.for_seat(viewer) == theirs.for_seat(viewer), (mine, viewer)


def _check_turn(record: dict[str, Any], final: bool) -> None:
    """Payouts equal the winning stakes; only the final round loses wrong stakes."""
    if record["void"] is not None:
        assert record["payouts"] == []
        return
    reaction = record["reaction"]
    correct = {g["seat"] for g in record["guesses"] if g["meme"] == reaction}
    assert set(record["correct"]) == correct
    for placed in record["bets"]:
        right = sum(b["amount"] for b in placed["bets"] if b["seat"] in correct)
        wrong = sum(b["amount"] for b in placed["bets"] if b["seat"] not in correct)
        total = right + wrong
        payout = next(p for p in record["payouts"] if p["seat"] == placed["seat"])
        assert payout["won"] == right
        assert payout["lost"] == (wrong if final else 0)
        assert payout["net"] == payout["won"] - payout["lost"]
        if not final:
            own = sum(b["amount"] for b in placed["bets"] if b["seat"] == placed["seat"])
            assert total <= 3 and own <= 2
            if placed["seat"] == record["reactor"]:
                assert total >= 1
    stakes = [b for placed in record["bets"] for b in placed["bets"]]
    assert sum(p["won"] for p in record["payouts"]) == sum(
        b["amount"] for b in stakes if b["seat"] in correct
    )
    losses = sum(b["amount"] for b in stakes if b["seat"] not in correct) if final else 0
    assert sum(p["lost"] for p in record["payouts"]) == losses


def run_game(
    players: int,
    seed: int,
    *,
    deep: bool = False,
    away: tuple[int, int, int] | None = None,
    leave: tuple[int, int] | None = None,
    **rules: Any,
) -> tuple[MemeState, list[Event]]:
    """Bots play everyone; ``away`` = (seat, from step, back at step), ``leave`` = (seat, step)."""
    state = new_game(players, seed, **rules)
    bots = {seat: Rng(seed * 101 + seat) for seat in state.seats}
    events: list[Event] = []
    now = 0.0
    idle: set[int] = set()
    for step in range(MAX_STEPS):
        if GAME.is_over(state):
            break
        system: list[dict[str, Any]] = []
        if away and step == away[1]:
            system.append({"type": "seat_away", "seat": away[0]})
            idle.add(away[0])
        if away and step == away[2]:
            system.append({"type": "seat_back", "seat": away[0]})
            idle.discard(away[0])
        if leave and step == leave[1]:
            system.append({"type": "seat_left", "seat": leave[0]})
            idle.add(leave[0])
        for command in system:
            state, more = apply(GAME, state, SYSTEM_SEAT, command, now)
            events += more
        _check_views(state, deep)
        moved = False
        for seat in state.seats:
            if seat in idle or GAME.is_over(state):
                continue
            move = GAME.bot_command(GAME.view(state, seat), bots[seat], now)
            if move is None:
                continue
            if deep:
                _check_events_hide_the_choice(state, seat, move)
            state, more = apply(GAME, state, seat, move, now)
            events += more
            moved = True
            now += 0.5
        if not moved and not GAME.is_over(state):
            deadline = GAME.deadline(state)
            assert deadline is not None, f"stuck in {state.phase} waiting for {state.pending()}"
            now = max(now, deadline)
            state, more = apply_tick(GAME, state, now)
            assert more, "a deadline passed and nothing happened"
            events += more
    assert GAME.is_over(state), "the game did not end"
    for e in events:
        for viewer in [*state.seats, None]:
            shown = e.for_seat(viewer)
            if shown is not None:
                _round_trip(shown)
    return state, events


def check_money_conserved(state: MemeState, events: list[Event]) -> None:
    nets = dict.fromkeys(state.seats, 0)
    for e in events:
        if e.kind == "turn_over":
            _check_turn(dict(e.data), final=e.data["round"] == 4)
            for payout in e.data["payouts"]:
                nets[payout["seat"]] += payout["net"]
                assert nets[payout["seat"]] >= 0
    assert nets == dict(state.money)
    over = next(e for e in events if e.kind == "game_over").data
    best = max(state.money[seat] for seat in state.active)
    assert sorted(over["winners"]) == sorted(s for s in state.active if state.money[s] == best)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bots_play_whole_games_with_money_conserved_and_nothing_leaked(players: int) -> None:
    state, events = run_game(players, seed=players * 7, deep=True)
    assert len(state.history) == 4 * players
    assert any(record["round"] == 4 for record in state.history)
    check_money_conserved(state, events)


@pytest.mark.parametrize("seed", range(12))
def test_many_seeded_games_end_with_consistent_money(seed: int) -> None:
    state, events = run_game(2 + seed % 5, seed=seed + 100)
    check_money_conserved(state, events)


def test_a_game_replays_exactly_from_its_seed() -> None:
    first, first_events = run_game(4, seed=3)
    second, second_events = run_game(4, seed=3)
    assert first.money == second.money and first.history == second.history
    assert [e.data for e in first_events] == [e.data for e in second_events]


def test_bots_keep_playing_around_an_away_seat_and_after_it_returns() -> None:
    state, events = run_game(4, seed=11, deep=True, away=(2, 10, 60), away_wait=15)
    assert any(e.kind == "sat_out" or e.data.get("void") == "reactor_away" for e in events)
    check_money_conserved(state, events)


def test_bots_finish_a_game_when_a_seat_leaves_midway() -> None:
    state, events = run_game(4, seed=12, deep=True, leave=(1, 25))
    assert 1 in state.left and 1 not in state.winners
    check_money_conserved(state, events)


def test_timers_carry_games_with_sleepy_seats_to_the_end() -> None:
    state, events = run_game(
        3, seed=13, away=(0, 5, 10_000), away_wait=60, betting_timer=20, picking_timer=30
    )
    autos = {e.data.get("auto") for e in events} | {e.data.get("reason") for e in events}
    assert "timer" in autos
    check_money_conserved(state, events)


def test_bot_temperament_is_stable_for_a_seat_within_a_game() -> None:
    from partyhost.engine.meme.bot import temperament

    state, _ = run_game(3, seed=21)
    moods = [temperament(GAME.view(state, seat)) for seat in state.seats]
    assert moods[0] == temperament(GAME.view(state, 0))
    assert len({mood.boldness for mood in moods}) == 3
