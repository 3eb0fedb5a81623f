"""Gridiron's rules: take turns placing one card; draw only when nothing in hand fits.

The host decides whether anything fits, so nobody can draw to dodge a hard placement.
"""

from __future__ import annotations

from partyhost.engine.core import Command, Decision, IllegalMove
from partyhost.engine.gsm import rules as shared
from partyhost.engine.gsm.gridiron.state import NAME, GridironState, can_place, evolve


def _place(decision: Decision[GridironState], seat: int, command: Command) -> None:
    state = decision.state
    if shared.put_down(decision, seat, shared.hand_move(state, seat, command)):
        decision.emit("turn", {"seat": next_seat(state, seat)})


def _give_way(decision: Decision[GridironState], seat: int, command: Command) -> None:
    """Draw, or pass once the pile is empty: only when no card in hand fits."""
    state = decision.state
    kind = command["type"]
    if can_place(state, seat):
        raise IllegalMove("card_fits", "One of your cards fits somewhere; place it.")
    if kind == "draw" and not state.pile:
        raise IllegalMove("pile_empty", "The draw pile is empty; pass instead.")
    if kind == "pass" and state.pile:
        raise IllegalMove("pile_not_empty", "Draw a card instead of passing.")
    if kind == "pass":
        _pass(decision, seat)
        return
    card = state.pile[0]
    decision.emit(
        "card_drawn",
        {"seat": seat, "hand": len(state.hands[seat]) + 1, "pile": len(state.pile) - 1},
        private={seat: {"card": card}},
        secret={"card": card},
    )
    decision.emit("turn", {"seat": next_seat(state, seat)})


def _pass(decision: Decision[GridironState], seat: int) -> None:
    """A pass; when every active player has passed in a row, fewest cards wins."""
    state = decision.state
    decision.emit("passed", {"seat": seat, "passes": state.passes + 1})
    if state.passes + 1 >= len(state.active()):
        after = decision.state
        winners = shared.fewest_cards(after.hands, after.present())
        decision.emit("game_over", {"winners": winners, "reason": "all_passed"})
    else:
        decision.emit("turn", {"seat": next_seat(state, seat)})


def next_seat(state: GridironState, after: int) -> int:
    """The next seat in order that is still here and not away (skipping is not passing)."""
    order = list(state.seats)
    start = order.index(after)
    ring = order[start + 1 :] + order[: start + 1]
    active = [s for s in ring if s not in state.left and s not in state.away]
    present = [s for s in ring if s not in state.left]
    return (active or present or [after])[0]


def _seat_change(decision: Decision[GridironState], kind: str, target: int) -> None:
    state = decision.state
    if kind == "seat_left" and len(state.present()) < 2:
        decision.emit("game_over", {"winners": state.present(), "reason": "others_left"})
    elif kind in ("seat_left", "seat_away") and state.turn == target:
        decision.emit("turn", {"seat": next_seat(state, target)})
    elif kind == "seat_back" and state.turn not in state.active():
        decision.emit("turn", {"seat": target})


decide = shared.decider(
    NAME,
    evolve,
    {"place": _place, "draw": _give_way, "pass": _give_way},
    _seat_change,
    no_joining="Gridiron cannot take new players mid-game.",
)
