"""``evolve``: the only way a What Do You Meme? state changes.

Every decision was made in ``decide`` or ``tick``; an event carries its
outcome (hidden parts in ``secret``, including the generator's next state),
so evolving is bookkeeping and replaying the events rebuilds the state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from partyhost.engine.core import Event
from partyhost.engine.meme.betting import bets_from_list
from partyhost.engine.meme.state import MemeState, Phase, Scenario


def evolve(state: MemeState, event: Event) -> MemeState:
    """The state after ``event``; unknown kinds change nothing (older journals stay readable)."""
    state = _changed(state, event.kind, event.data, event.secret)
    if "rng" in event.secret:
        state = replace(state, rng=int(event.secret["rng"]))
    return state


def _changed(
    state: MemeState, kind: str, data: Mapping[str, Any], secret: Mapping[str, Any]
) -> MemeState:
    match kind:
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
