"""``evolve``: the only way a What Do You Meme? state changes.

Every decision was made in ``decide`` or ``tick``; an event carries its
outcome (hidden parts in ``secret``, including the generator's next state),
so evolving is bookkeeping and replaying the events rebuilds the state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from partyhost.engine.core import Event
from partyhost.engine.meme.betting import bets_from_list
from partyhost.engine.meme.state import MemeState, Phase, Scenario

Handler = Callable[[MemeState, Mapping[str, Any], Mapping[str, Any]], MemeState]


def evolve(state: MemeState, event: Event) -> MemeState:
    """The state after ``event``; unknown kinds change nothing (older journals stay readable)."""
    handler = _HANDLERS.get(event.kind)
    if handler is not None:
        state = handler(state, event.data, event.secret)
    if "rng" in event.secret:
        state = replace(state, rng=int(event.secret["rng"]))
    return state


def _rolloff_roll(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    seat, value = int(data["seat"]), int(data["value"])
    attempts = (*state.rolloff[:-1], (*state.rolloff[-1], (seat, value)))
    return replace(state, rolloff=attempts, rolloff_pending=state.rolloff_pending - {seat})


def _rolloff_tie(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    return replace(state, rolloff=(*state.rolloff, ()), rolloff_pending=frozenset(data["seats"]))


def _first_player(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    return replace(state, first_player=int(data["seat"]), rolloff_pending=frozenset())


def _round_started(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    return replace(state, round=int(data["round"]))


def _turn_started(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
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


def _scenario_rolled(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    dice = (int(data["tens"]), int(data["units"]))
    return replace(state, scenario=Scenario(str(data["text"]), int(data["number"]), dice))


def _scenario_written(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    return replace(state, scenario=Scenario(str(data["text"])))


def _picking_started(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    guessers = tuple(int(seat) for seat in data["guessers"])
    return replace(state, phase=Phase.PICKING, guessers=guessers, phase_started=float(data["at"]))


def _reaction_picked(
    state: MemeState, _: Mapping[str, Any], secret: Mapping[str, Any]
) -> MemeState:
    return replace(state, reaction=int(secret["meme"]))


def _guess_placed(
    state: MemeState, data: Mapping[str, Any], secret: Mapping[str, Any]
) -> MemeState:
    return replace(state, guesses={**state.guesses, int(data["seat"]): int(secret["meme"])})


def _guess_withdrawn(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    seat = int(data["seat"])
    return replace(state, guesses={k: v for k, v in state.guesses.items() if k != seat})


def _sat_out(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    return replace(state, sat_out=state.sat_out | {int(data["seat"])})


def _betting_started(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    phase = Phase.BETTING_1 if int(data["stage"]) == 1 else Phase.BETTING_2
    return replace(state, phase=phase, phase_started=float(data["at"]))


def _reactor_bet(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    return replace(state, reactor_bets=bets_from_list(data["bets"]))


def _guesses_revealed(
    state: MemeState, _data: Mapping[str, Any], _: Mapping[str, Any]
) -> MemeState:
    return replace(state, guesses_revealed=True)


def _bet_committed(
    state: MemeState, data: Mapping[str, Any], secret: Mapping[str, Any]
) -> MemeState:
    bets = bets_from_list(secret["bets"])
    return replace(state, bets={**state.bets, int(data["seat"]): bets})


def _bets_revealed(state: MemeState, _data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    return replace(state, bets_revealed=True)


def _reaction_revealed(
    state: MemeState, _data: Mapping[str, Any], _: Mapping[str, Any]
) -> MemeState:
    return replace(state, reaction_revealed=True)


def _turn_over(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    money = dict(state.money)
    for payout in data["payouts"]:
        money[int(payout["seat"])] += int(payout["net"])
    return replace(state, money=money, history=(*state.history, dict(data)))


def _game_over(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    winners = tuple(int(seat) for seat in data["winners"])
    return replace(state, phase=Phase.OVER, winners=winners, phase_started=None)


def _seat_away(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    return replace(state, away={**state.away, int(data["seat"]): float(data["at"])})


def _seat_back(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    seat = int(data["seat"])
    return replace(state, away={k: v for k, v in state.away.items() if k != seat})


def _seat_left(state: MemeState, data: Mapping[str, Any], _: Mapping[str, Any]) -> MemeState:
    return replace(state, left=state.left | {int(data["seat"])})


_HANDLERS: dict[str, Handler] = {
    "rolloff_roll": _rolloff_roll,
    "rolloff_tie": _rolloff_tie,
    "first_player": _first_player,
    "round_started": _round_started,
    "turn_started": _turn_started,
    "scenario_rolled": _scenario_rolled,
    "scenario_written": _scenario_written,
    "picking_started": _picking_started,
    "reaction_picked": _reaction_picked,
    "guess_placed": _guess_placed,
    "guess_withdrawn": _guess_withdrawn,
    "sat_out": _sat_out,
    "betting_started": _betting_started,
    "reactor_bet": _reactor_bet,
    "guesses_revealed": _guesses_revealed,
    "bet_committed": _bet_committed,
    "bets_revealed": _bets_revealed,
    "reaction_revealed": _reaction_revealed,
    "turn_over": _turn_over,
    "game_over": _game_over,
    "seat_away": _seat_away,
    "seat_back": _seat_back,
    "seat_left": _seat_left,
}
