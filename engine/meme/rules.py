"""decide and tick: what a command means in the current phase, or why it is refused.

Players send ``roll``, ``write_scenario``, ``react``, ``guess`` and ``bet``;
the host sends the system commands ``seat_joined``, ``seat_left``,
``seat_away`` and ``seat_back``. Every refusal is an :class:`IllegalMove` with
a stable code and a sentence for people. What the table then does by itself
(reveals, payouts, the next turn, timers) is in :mod:`.flow`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from partyhost.engine.core import SYSTEM_SEAT, Command, Decision, Event, IllegalMove
from partyhost.engine.meme.betting import bets_to_list, check_bets, limits_for
from partyhost.engine.meme.evolve import evolve
from partyhost.engine.meme.flow import advance, commit_bets, roll_for, seat_deadline
from partyhost.engine.meme.state import MAX_SCENARIO_LENGTH, MemeState, Phase
from partyhost.engine.playertext import clean_text

_REFUSED_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})


def decide(state: MemeState, seat: int, command: Command, now: float) -> list[Event]:
    """The events a command causes (then everything that follows without input)."""
    kind = command.get("type")
    decision = Decision(evolve, state, now)
    if seat == SYSTEM_SEAT:
        _system(decision, kind, command)
    else:
        _check_player(state, seat, command)
        handler = _COMMANDS.get(str(kind))
        if handler is None:
            known = ", ".join(sorted(_COMMANDS))
            raise IllegalMove(
                "unknown_command", f"Unknown command {kind!r}; expected one of {known}."
            )
        handler(decision, seat, command)
    advance(decision)
    return decision.events


def tick(state: MemeState, now: float) -> list[Event]:
    """Act for seats whose timer ran out or who stayed away too long."""
    due = deadline(state)
    if due is None or now < due:
        return []
    decision = Decision(evolve, state, now)
    advance(decision)
    return decision.events


def deadline(state: MemeState) -> float | None:
    """When ``tick`` has something to do: the earliest deadline of a seat the table waits for."""
    due = [found[0] for seat in state.pending() if (found := seat_deadline(state, seat))]
    return min(due) if due else None


def label(state: MemeState, seat: int) -> str:
    """A seat as people know it: by its color."""
    if seat in state.seats:
        return f"{state.deck.colors[state.color_of(seat)].name.capitalize()} (seat {seat})"
    return f"seat {seat}"


def _check_player(state: MemeState, seat: int, command: Command) -> None:
    if state.phase is Phase.OVER:
        raise IllegalMove("game_over", "The game is over; no more moves.")
    if seat not in state.seats:
        raise IllegalMove("not_playing", "You are not playing in this game; you can watch.")
    if seat in state.left:
        raise IllegalMove("seat_left", "You left this game, so you cannot play in it any more.")
    turn = command.get("turn")
    if turn is not None and turn != state.turn:
        raise IllegalMove(
            "stale", "That move was meant for an earlier turn; look at the table and retry."
        )


def _roll(decision: Decision[MemeState], seat: int, _: Command) -> None:
    state = decision.state
    if state.phase is Phase.ROLLOFF:
        if seat not in state.rolloff_pending:
            if any(rolled == seat for rolled, _value in state.rolloff[-1]):
                raise IllegalMove("already_rolled", "You already rolled; wait for the others.")
            raise IllegalMove(
                "not_in_rolloff", "Only the players tied for the highest roll re-roll."
            )
        roll_for(decision, seat, None)
        return
    if state.phase is Phase.SCENARIO and state.scenario is None:
        _require_reactor(state, seat, "Only the reactor rolls for the scenario.")
        roll_for(decision, seat, None)
        return
    raise IllegalMove("wrong_phase", "There is nothing to roll right now.")


def _write_scenario(decision: Decision[MemeState], seat: int, command: Command) -> None:
    state = decision.state
    if not state.rules.custom_scenarios:
        raise IllegalMove(
            "custom_scenarios_off", "This room plays the deck's scenarios: roll the dice."
        )
    if state.phase is not Phase.SCENARIO or state.scenario is not None:
        raise IllegalMove("wrong_phase", "The scenario for this turn is already set.")
    _require_reactor(state, seat, "Only the reactor sets the scenario.")
    text = command.get("text")
    if not isinstance(text, str) or not text.strip():
        raise IllegalMove("scenario_empty", "Write the scenario as text.")
    if len(text) > MAX_SCENARIO_LENGTH:
        raise IllegalMove(
            "scenario_too_long",
            f"A scenario may be at most {MAX_SCENARIO_LENGTH} characters; yours has {len(text)}.",
        )
    if any(unicodedata.category(ch) in _REFUSED_CATEGORIES for ch in text):
        raise IllegalMove(
            "scenario_control_characters",
            "A scenario is one line of plain text: no line breaks or control characters.",
        )
    cleaned = clean_text(text, MAX_SCENARIO_LENGTH)  # as chat is: no bidi controls
    if not cleaned:
        raise IllegalMove("scenario_empty", "Write the scenario as text.")
    decision.emit("scenario_written", {"reactor": seat, "text": cleaned})


def _react(decision: Decision[MemeState], seat: int, command: Command) -> None:
    state = decision.state
    _require_picking(state)
    if seat != state.reactor:
        raise IllegalMove("not_reactor", "You are guessing this turn: send 'guess' instead.")
    if state.reaction is not None:
        raise IllegalMove("already_picked", "Your reaction is already on the table, face down.")
    _face_down(decision, "reaction_picked", seat, command)


def _guess(decision: Decision[MemeState], seat: int, command: Command) -> None:
    state = decision.state
    _require_picking(state)
    if seat == state.reactor:
        raise IllegalMove("reactor_cannot_guess", "You are the reactor: send 'react' instead.")
    if seat in state.sat_out or seat not in state.guessers:
        raise IllegalMove("sitting_out", "You sit this turn out; you can guess next turn.")
    if seat in state.guesses:
        raise IllegalMove("already_picked", "Your guess is already on the table, face down.")
    _face_down(decision, "guess_placed", seat, command)


def _bet(decision: Decision[MemeState], seat: int, command: Command) -> None:
    state = decision.state
    limits = limits_for(state, seat)
    if limits is None:
        raise IllegalMove("not_betting", _why_not_betting(state, seat))
    bets = check_bets(limits, command.get("bets"), lambda target: label(state, target))
    if limits.stage == 1:
        decision.emit("reactor_bet", {"seat": seat, "bets": bets_to_list(bets), "auto": None})
        return
    commit_bets(decision, seat, bets_to_list(bets), None)


def _why_not_betting(state: MemeState, seat: int) -> str:
    if state.phase is Phase.BETTING_1:
        return "Only the reactor bets now, before the guesses are revealed."
    if state.phase is Phase.BETTING_2:
        if seat == state.reactor:
            return "You already bet as the reactor; the others are betting now."
        if seat in state.bets:
            return "Your bet is already placed."
        return "You have no guess on the table this turn, so you sit this betting out."
    return "Betting is not open right now."


def _require_picking(state: MemeState) -> None:
    if state.phase is not Phase.PICKING:
        raise IllegalMove("wrong_phase", "Memes are picked only after the scenario is set.")


def _require_reactor(state: MemeState, seat: int, message: str) -> None:
    if seat != state.reactor:
        raise IllegalMove("not_reactor", message)


def _face_down(decision: Decision[MemeState], kind: str, seat: int, command: Command) -> None:
    """Put the command's meme on the table face down: only its owner sees which it is."""
    meme = command.get("meme")
    count = len(decision.state.deck.memes)
    if isinstance(meme, bool) or not isinstance(meme, int) or not 0 <= meme < count:
        raise IllegalMove("bad_meme", f"Pick one of your memes by number, 0 to {count - 1}.")
    decision.emit(kind, {"seat": seat}, private={seat: {"meme": meme}}, secret={"meme": meme})


_COMMANDS: dict[str, Callable[[Decision[MemeState], int, Command], None]] = {
    "roll": _roll,
    "write_scenario": _write_scenario,
    "react": _react,
    "guess": _guess,
    "bet": _bet,
}


# --- system commands -------------------------------------------------------


def _system(decision: Decision[MemeState], kind: Any, command: Command) -> None:
    seat = command.get("seat")
    state = decision.state
    if kind not in ("seat_joined", "seat_left", "seat_away", "seat_back"):
        raise IllegalMove("unknown_command", f"Unknown system command {kind!r}.")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise IllegalMove("bad_command", "A system command names a seat number.")
    if kind == "seat_joined":
        if seat not in state.seats:
            raise IllegalMove(
                "no_joins_mid_game",
                "What Do You Meme? cannot seat a new player once the game has started.",
            )
        return
    if seat not in state.seats or seat in state.left or state.phase is Phase.OVER:
        return
    if kind == "seat_away" and seat not in state.away:
        decision.emit("seat_away", {"seat": seat, "at": decision.now})
    elif kind == "seat_back" and seat in state.away:
        decision.emit("seat_back", {"seat": seat})
    elif kind == "seat_left":
        _seat_left(decision, seat)


def _seat_left(decision: Decision[MemeState], seat: int) -> None:
    """A leaver's face-down guess leaves with them; a revealed one stays on the table."""
    state = decision.state
    if seat in state.guesses and not state.guesses_revealed:
        decision.emit("guess_withdrawn", {"seat": seat})
    decision.emit("seat_left", {"seat": seat})
