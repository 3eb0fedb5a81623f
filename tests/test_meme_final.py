"""The final round: cash bets at even odds, and the end of the game."""

from __future__ import annotations

from memeplay import (
    AWKWARD,
    GAME,
    NOPE,
    SHOOK,
    WHEEZE,
    bet,
    event,
    final_round,
    others,
    payout_of,
    picks,
    refused,
    started,
)
from partyhost.engine.meme.state import MemeState, Phase


def _final(reactor_money: int, others_money: int) -> tuple[MemeState, int, list[int]]:
    """Round 4 with everyone's guess NOPE, waiting for the reactor's bet."""
    base = started(3, seed=6)
    money = {seat: reactor_money if seat == base.reactor else others_money for seat in base.seats}
    state = final_round(base, money)
    guessers = others(state)
    state = picks(state, NOPE, {seat: NOPE for seat in guessers})
    return state, state.reactor or 0, guessers


def test_final_round_bets_cash_up_to_what_one_holds() -> None:
    state, reactor, (a, b) = _final(5, 5)
    (template,) = GAME.legal(state, reactor)
    assert (template["unit"], template["min_total"], template["max_total"]) == ("dollar", 1, 5)
    refused("bet_too_few", state, reactor, {"type": "bet", "bets": []})
    error = refused(
        "bet_over_money", state, reactor, {"type": "bet", "bets": [{"seat": a, "amount": 6}]}
    )
    assert "$5" in error.message
    state, _ = bet(state, reactor, {a: 3, b: 2})
    (template,) = GAME.legal(state, a)
    assert template["max_own"] is None and template["max_total"] == 5
    refused("bet_over_money", state, a, {"type": "bet", "bets": [{"seat": a, "amount": 6}]})
    state, _ = bet(state, a, {a: 5})


def test_final_round_reactor_with_no_money_bets_nothing() -> None:
    state, reactor, _guessers = _final(0, 3)
    assert state.phase is Phase.BETTING_2
    assert state.reactor_bets == {}
    refused("not_betting", state, reactor, {"type": "bet", "bets": []})


def test_final_round_doubles_correct_stakes_and_loses_wrong_ones() -> None:
    base = started(3, seed=6)
    reactor = base.reactor or 0
    a, b = others(base)
    state = final_round(base, {reactor: 10, a: 10, b: 10})
    state = picks(state, WHEEZE, {a: WHEEZE, b: AWKWARD})
    state, _ = bet(state, reactor, {a: 4, b: 2})
    state, _ = bet(state, a, {a: 7})
    state, events = bet(state, b, {b: 3, a: 1})
    assert payout_of(events, reactor) == {"seat": reactor, "won": 4, "lost": 2, "net": 2}
    assert payout_of(events, a) == {"seat": a, "won": 7, "lost": 0, "net": 7}
    assert payout_of(events, b) == {"seat": b, "won": 1, "lost": 3, "net": -2}
    assert (state.money[reactor], state.money[a], state.money[b]) == (12, 17, 8)


def test_players_without_money_in_the_final_round_sit_the_betting_out() -> None:
    base = started(3, seed=6)
    reactor = base.reactor or 0
    a, b = others(base)
    state = final_round(base, {reactor: 2, a: 0, b: 4})
    state = picks(state, NOPE, {a: NOPE, b: NOPE})
    state, _ = bet(state, reactor, {a: 1})
    assert state.pending() == (b,)
    assert GAME.legal(state, a) == []


def test_most_money_after_round_four_wins_and_ties_share() -> None:
    base = started(3, seed=6)
    reactor = base.reactor or 0
    a, b = others(base)
    state = final_round(base, {reactor: 0, a: 5, b: 5}, last_turn=True)
    state = picks(state, NOPE, {a: NOPE, b: SHOOK})
    state, _ = bet(state, a, {})
    state, events = bet(state, b, {})
    over = event(events, "game_over").data
    assert state.phase is Phase.OVER and GAME.is_over(state)
    assert sorted(over["winners"]) == sorted([a, b])
    assert [s["place"] for s in over["standings"]] == [1, 1, 3]
    assert GAME.view(state, None)["winners"] == sorted([a, b])
    refused("game_over", state, a, {"type": "roll"})


def test_every_seat_reacts_once_per_round_in_seat_order_from_the_first_player() -> None:
    state = started(3, seed=8)
    reactors = []
    for _ in range(12):
        reactors.append((state.round, state.reactor))
        reactor = state.reactor or 0
        state = picks(state, NOPE, {seat: NOPE for seat in others(state)})
        state, _ = bet(state, reactor, {others(state)[0]: 1})
        for seat in others(state):
            state, _ = bet(state, seat, {})
    assert state.phase is Phase.OVER
    first = reactors[0][1] or 0
    order = [(first + i) % 3 for i in range(3)]
    assert reactors == [(r, seat) for r in (1, 2, 3, 4) for seat in order]
