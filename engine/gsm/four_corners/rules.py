"""Four Corners' rules: two players race to empty their hands along crossing lines.

The first placement next to the middle card fixes its player's axis (the other
gets the other); each builds only at the ends of their own line. The stall clock
restarts only when a hand drops below its lowest count so far, so taking back
and replacing a card cannot keep a lost game alive; both saying "stuck" ends it.
"""

from __future__ import annotations

from partyhost.engine.core import Command, Decision, IllegalMove, read_int
from partyhost.engine.gsm import rules as shared
from partyhost.engine.gsm.four_corners.state import (
    NAME,
    FourCornersState,
    end_cards,
    evolve,
    open_slots,
)


def deadline(state: FourCornersState) -> float | None:
    """At once to start the stall clock, then when the game counts as stalled."""
    if state.phase != "race":
        return None
    if state.stall_started is None:
        return 0.0
    limit = state.rules["stall_seconds"]
    return None if limit is None else float(state.stall_started + limit)


def _run_timer(decision: Decision[FourCornersState]) -> None:
    """The stall clock's start, or the end of a stalled game."""
    state = decision.state
    due = deadline(state)
    if due is None or decision.now < due:
        return
    if state.stall_started is None:
        decision.emit("stall_clock", {"at": decision.now})
    else:
        _stalled(decision)


def _stalled(decision: Decision[FourCornersState]) -> None:
    """Nobody's hand got smaller for too long, or both said "stuck": fewer cards wins."""
    state = decision.state
    winners = shared.fewest_cards(state.hands, state.present())
    decision.emit("game_over", {"winners": winners, "reason": "stall"})


def _place(decision: Decision[FourCornersState], seat: int, command: Command) -> None:
    state = decision.state
    move = shared.hand_move(state, seat, command)
    if move.slot not in open_slots(state, seat):
        raise IllegalMove(
            "not_your_line",
            "Place your card at either end of your own line through the middle card.",
        )
    axis = {} if state.axes else {"axis": "h" if move.y == 0 else "v"}
    shared.put_down(decision, seat, move, at=decision.now, **axis)


def _take_back(decision: Decision[FourCornersState], seat: int, command: Command) -> None:
    state = decision.state
    card = read_int(command, "card")
    if card not in end_cards(state, seat):
        raise IllegalMove("not_an_end", "Take back one of your own cards at an end of your line.")
    hand = len(state.hands[seat]) + 1
    decision.emit("taken_back", {"seat": seat, "card": card, "hand": hand})


def _stuck(decision: Decision[FourCornersState], seat: int, command: Command) -> None:
    state = decision.state
    if seat in state.stuck:
        raise IllegalMove("already_stuck", "You already said you are stuck.")
    decision.emit("stuck", {"seat": seat})
    if state.stuck | {seat} >= {s for s in state.seats if s not in state.left}:
        _stalled(decision)


def _seat_change(decision: Decision[FourCornersState], kind: str, target: int) -> None:
    if kind == "seat_left":
        others = decision.state.present()
        decision.emit("game_over", {"winners": others, "reason": "others_left"})


decide = shared.decider(
    NAME,
    evolve,
    {"place": _place, "take_back": _take_back, "stuck": _stuck},
    _seat_change,
    _run_timer,
    no_joining="Four Corners is for exactly two players.",
)
tick = shared.ticker(evolve, _run_timer)
