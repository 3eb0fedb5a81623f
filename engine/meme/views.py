"""What each seat may see, and the commands it may send now.

Nobody, not even a spectator, sees the reactor's meme before its reveal, or a
face-down guess or sealed bet other than their own.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from partyhost.engine.core import Command, SeatResult, View, shared_part
from partyhost.engine.meme.betting import limits_for
from partyhost.engine.meme.rules import deadline
from partyhost.engine.meme.state import (
    MAX_OWN_TOKENS,
    MAX_SCENARIO_LENGTH,
    ROUNDS,
    TOKENS,
    MemeState,
    Phase,
    bets_to_list,
)


def view(state: MemeState, seat: int | None) -> View:
    """The table as ``seat`` sees it (``None``: a spectator); shared parts, so read-only."""
    public = shared_part(state, "view", lambda: _public(state))
    if seat is None or seat not in state.seats:
        return dict(public)
    own = {"role": _role(state, seat), "table": _table(state, seat), "legal": legal(state, seat)}
    return {**public, "you": seat, **own}


def _public(state: MemeState) -> View:
    """What every seat sees alike (a spectator's view)."""
    scenario = state.scenario
    last = state.history[-1] if state.history else None
    return {
        "game": "meme",
        "version": state.version,
        "phase": state.phase.value,
        "round": state.round,
        "rounds": ROUNDS,
        "final": state.final,
        "turn": state.turn,
        "reactor": state.reactor,
        "you": None,
        "role": "spectator",
        "first_player": state.first_player,
        "rolloff": {
            "attempts": [
                [{"seat": rolled, "value": value} for rolled, value in attempt]
                for attempt in state.rolloff
            ],
            "waiting": sorted(state.rolloff_pending - state.left),
        },
        "dice": None
        if scenario is None or scenario.dice is None
        else {"tens": scenario.dice[0], "units": scenario.dice[1]},
        "scenario": None if scenario is None else scenario.shown(),
        "memes": [
            {
                "meme": index,
                "caption": meme.caption,
                "face": meme.face,
                "keywords": list(meme.keywords),
            }
            for index, meme in enumerate(state.deck.memes)
        ],
        "players": [_player(state, other) for other in state.seats],
        "table": _table(state, None),
        "waiting_for": list(state.pending()),
        "deadline": deadline(state),
        "last_turn": copy.deepcopy(last),  # a view never shares lists with the state
        "history": [_summary(record) for record in state.history],
        "winners": list(state.winners) if state.phase is Phase.OVER else None,
        "options": {
            **state.rules,
            "tokens": TOKENS,
            "max_own_tokens": MAX_OWN_TOKENS,
        },
        "legal": [],
    }


def _role(state: MemeState, you: int) -> str:
    if you in state.left:
        return "left"
    if state.phase in (Phase.ROLLOFF, Phase.OVER):
        return "player"
    if you == state.reactor:
        return "reactor"
    if you in state.sat_out:
        return "sitting_out"
    return "guesser"


def _player(state: MemeState, seat: int) -> dict[str, Any]:
    color = state.deck.colors[state.color_of(seat)]
    payouts = state.history[-1]["payouts"] if state.history else []
    payout = next((p["net"] for p in payouts if p["seat"] == seat), None)
    return {
        "seat": seat,
        "color": color.name,
        "terminal": color.terminal,
        "money": state.money[seat],
        "tokens": 0 if state.final else TOKENS,
        "away": seat in state.away,
        "left": seat in state.left,
        "reactor": seat == state.reactor,
        "waiting": seat in state.pending(),
        "last_payout": payout,
        "winner": state.phase is Phase.OVER and seat in state.winners,
    }


def _table(state: MemeState, you: int | None, *, everything: bool = False) -> dict[str, Any]:
    """The cards and bets in front of everyone; face-down ones show to their owner (to
    everyone with ``everything``, for replays, still marked as they lay)."""
    reactor = state.reactor
    reaction: dict[str, Any] = {"seat": reactor, "state": "none", "meme": None}
    if state.reaction is not None:
        shown = state.reaction_revealed or you == reactor or everything
        reaction.update(
            state="revealed" if state.reaction_revealed else "face_down",
            meme=state.reaction if shown else None,
        )
    guesses = []
    for seat in state.guessers:
        meme = None if seat in state.sat_out else state.guesses.get(seat)
        if meme is None:
            left = "withdrawn" if seat in state.left else "none"
            card = "sitting_out" if seat in state.sat_out else left
        else:
            card = "revealed" if state.guesses_revealed else "face_down"
            meme = meme if state.guesses_revealed or you == seat or everything else None
        guesses.append({"seat": seat, "state": card, "meme": meme})
    bets = []
    for seat in state.bettors():
        if seat in state.bets:
            open_bet = state.bets_revealed or seat == you
            placed = bets_to_list(state.bets[seat]) if open_bet or everything else None
            bets.append({"seat": seat, "sealed": not open_bet, "bets": placed})
    return {
        "reaction": reaction,
        "guesses": guesses,
        "reactor_bets": None if state.reactor_bets is None else bets_to_list(state.reactor_bets),
        "bets": bets,
        "bets_revealed": state.bets_revealed,
        "unit": "dollar" if state.final else "token",
    }


def legal(state: MemeState, seat: int) -> list[Command]:
    """Command templates ``seat`` may send now, with what is still allowed."""
    if seat not in state.pending():  # none once over, nor for a seat that left
        return []
    turn = state.turn
    if state.phase is Phase.ROLLOFF:
        return [{"type": "roll", "turn": turn}]
    if state.phase is Phase.SCENARIO:
        commands: list[Command] = [{"type": "roll", "turn": turn}]
        if state.rules["custom_scenarios"]:
            commands.append(
                {
                    "type": "write_scenario",
                    "turn": turn,
                    "text": "",
                    "max_length": MAX_SCENARIO_LENGTH,
                }
            )
        return commands
    if state.phase is Phase.PICKING:
        # One complete command per meme, so any of them can be sent as is; ``choices``
        # repeats the whole list in each for clients that pick from it.
        kind = "react" if seat == state.reactor else "guess"
        choices = list(range(len(state.deck.memes)))
        return [{"type": kind, "turn": turn, "meme": meme, "choices": choices} for meme in choices]
    limits = limits_for(state, seat)
    if limits is None:
        return []
    bet: Command = {
        "type": "bet",
        "turn": turn,
        "stage": limits.stage,
        "unit": "dollar" if limits.cash else "token",
        "min_total": limits.min_total,
        "max_total": limits.max_total,
        "max_own": limits.max_own,
        "targets": [
            {"seat": target, "max": limits.max_on(target), "own": target == limits.own_seat}
            for target in limits.targets
        ],
        "bets": [],
    }
    return [bet]


def _summary(record: Mapping[str, Any]) -> dict[str, Any]:
    """A finished turn in brief (the full record is in ``last_turn`` and the events)."""
    scenario = record["scenario"]
    return {
        "turn": record["turn"],
        "round": record["round"],
        "reactor": record["reactor"],
        "number": None if scenario is None else scenario["number"],
        "reaction": record["reaction"],
        "guesses": [{"seat": g["seat"], "meme": g["meme"]} for g in record["guesses"]],
        "correct": list(record["correct"]),
        "paid": [
            {"seat": payout["seat"], "net": payout["net"]}
            for payout in record["payouts"]
            if payout["net"]
        ],
        "void": record["void"],
    }


def replay_view(state: MemeState) -> View:
    """A finished game's table with the reactor's meme, every guess and sealed bet shown,
    each still marked as the table knew it then (``face_down``, ``sealed``).
    """
    return {**view(state, None), "table": _table(state, None, everything=True)}


def results(state: MemeState) -> list[SeatResult]:
    """Every seat with the money it ended on; the richest share the win."""
    return [
        SeatResult(seat, seat in state.winners, money=state.money[seat]) for seat in state.seats
    ]
