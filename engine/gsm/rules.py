"""What every Game, Set, Match! variant's rules share: the order of deciding, seat commands,
laying a hand card on the shared board, ties.

:func:`decider` runs overdue timers first (a late command never jumps a due
settlement), then sends a host seat command to the variant's ``seat_change`` and
anything else, from a seat still playing, to the variant's step for its type.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from partyhost.engine.core import (
    SYSTEM_COMMANDS,
    SYSTEM_SEAT,
    Command,
    Decision,
    Event,
    IllegalMove,
    system_target,
)
from partyhost.engine.gsm.placement import (
    Placement,
    placement_clash,
    placement_event_data,
    read_placement,
)
from partyhost.engine.gsm.state import TableState

State = TypeVar("State", bound=TableState)


Step = Callable[[Decision[State]], None]
Play = Callable[[Decision[State], int, Command], None]


def decider(
    name: str,
    evolve: Callable[[State, Event], State],
    commands: Mapping[str, Play[State]],
    seat_change: Callable[[Decision[State], str, int], None],
    timers: Step[State] | None = None,
    no_joining: str | None = None,
) -> Callable[[State, int, Command, float], list[Event]]:
    """The ``decide`` of the variant called ``name``: due ``timers`` first, then the command
    itself, by its type. A variant whose table is fixed refuses joins (``no_joining`` says
    why) and ignores changes to seats it does not hold; its ``seat_change`` then only acts
    on the change it has been told of."""

    def decide(state: State, seat: int, command: Command, now: float) -> list[Event]:
        decision = Decision(evolve, state, now)
        if timers is not None:
            timers(decision)
        if seat == SYSTEM_SEAT or command.get("type") in SYSTEM_COMMANDS:
            if seat != SYSTEM_SEAT:
                raise IllegalMove("not_host", "Only the host sends seat changes.")
            change, target = str(command.get("type")), system_target(command)
            if no_joining is not None:
                if change == "seat_joined":
                    raise IllegalMove("no_joining", no_joining)
                if decision.state.phase == "over" or target not in decision.state.seats:
                    return decision.events
                decision.emit(change, {"seat": target})
            seat_change(decision, change, target)
        else:
            refused = decision.state.refusal(seat)
            if refused is not None:
                raise refused
            kind = command.get("type")
            play = commands.get(kind) if isinstance(kind, str) else None
            if play is None:
                raise IllegalMove("unknown_command", f"{name} has no command {kind!r}.")
            play(decision, seat, command)
        return decision.events

    return decide


def ticker(
    evolve: Callable[[State, Event], State], timers: Step[State]
) -> Callable[[State, float], list[Event]]:
    """A variant's ``tick``: the events of its timers that are due at ``now``."""

    def tick(state: State, now: float) -> list[Event]:
        decision = Decision(evolve, state, now)
        timers(decision)
        return decision.events

    return tick


def hand_move(state: Any, seat: int, command: Command) -> Placement:
    """The placement a command names, of a card in the seat's hand."""
    move = read_placement(command, bool(state.rules["rotate"]))
    if move.card not in state.hands[seat]:
        raise IllegalMove("not_in_hand", "That card is not in your hand.")
    return move


def put_down(decision: Decision[Any], seat: int, move: Placement, **extra: Any) -> bool:
    """Lay a hand card on the shared board (refused if it breaks the rule): ``card_placed``
    with ``extra``, and the game won once the hand is empty. Whether the game goes on."""
    state = decision.state
    reason = placement_clash(state.deck, state.board, move)
    if reason is not None:
        raise IllegalMove("breaks_rule", reason)
    hand = len(state.hands[seat]) - 1
    decision.emit("card_placed", {**placement_event_data(move, seat), "hand": hand, **extra})
    if hand == 0:
        decision.emit("game_over", {"winners": [seat], "reason": "out_of_cards"})
    return hand > 0


def fewest_cards(hands: Mapping[int, Sequence[int]], seats: Iterable[int]) -> list[int]:
    """The seats holding the fewest cards (ties share the win)."""
    present = list(seats)
    least = min((len(hands[s]) for s in present), default=0)
    return [s for s in present if len(hands[s]) == least]
