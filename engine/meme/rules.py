"""decide and tick: what a command means in the current phase, or why it is refused.

Both record events in a :class:`~partyhost.engine.core.Decision`; :func:`advance`
then carries the game as far as it goes without a player (phase changes,
reveals, payouts, the next turn, acting for seats whose time ran out).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from partyhost.engine.core import SYSTEM_SEAT, Command, Decision, Event, IllegalMove, system_target
from partyhost.engine.meme.betting import all_bets, check_bets, correct_seats, limits_for, payouts
from partyhost.engine.meme.state import (
    DIE_SIDES,
    MAX_SCENARIO_LENGTH,
    ROUNDS,
    MemeState,
    Phase,
    bets_to_list,
    evolve,
)
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
    elif state.phase is Phase.SCENARIO and state.scenario is None:
        if seat != state.reactor:
            raise IllegalMove("not_reactor", "Only the reactor rolls for the scenario.")
    else:
        raise IllegalMove("wrong_phase", "There is nothing to roll right now.")
    roll_for(decision, seat, None)


def _write_scenario(decision: Decision[MemeState], seat: int, command: Command) -> None:
    state = decision.state
    if not state.rules["custom_scenarios"]:
        raise IllegalMove(
            "custom_scenarios_off", "This room plays the deck's scenarios: roll the dice."
        )
    if state.phase is not Phase.SCENARIO or state.scenario is not None:
        raise IllegalMove("wrong_phase", "The scenario for this turn is already set.")
    if seat != state.reactor:
        raise IllegalMove("not_reactor", "Only the reactor sets the scenario.")
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
    bets = check_bets(state, limits, command.get("bets"))
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
    seat = system_target(command)
    state = decision.state
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
    elif kind == "seat_left":  # a face-down guess leaves with its owner; a revealed one stays
        if seat in state.guesses and not state.guesses_revealed:
            decision.emit("guess_withdrawn", {"seat": seat})
        decision.emit("seat_left", {"seat": seat})


def advance(decision: Decision[MemeState]) -> None:
    """Do whatever the table now does by itself, until it waits for a player (or a deadline)."""
    while True:
        _free_steps(decision)
        if not act_on_due(decision):
            return


def _free_steps(decision: Decision[MemeState]) -> None:
    """Take every step that needs nobody's input."""
    while decision.state.phase is not Phase.OVER:
        state = decision.state
        if len(state.active) < 2:
            end_game(decision, "not_enough_players")
            return
        if state.phase is not Phase.ROLLOFF and state.reactor in state.left:
            void_turn(decision, "reactor_left")
            continue
        if state.phase is Phase.BETTING_1 and not state.bettors():
            void_turn(decision, "no_guesses")
            continue
        if state.pending() or not _STEPS[state.phase](decision):
            return


def _resolve_rolloff(decision: Decision[MemeState]) -> bool:
    state = decision.state
    rolls = [(seat, value) for seat, value in state.rolloff[-1] if seat not in state.left]
    top = max((value for _, value in rolls), default=None)
    tied = [seat for seat, value in rolls if value == top]
    if len(tied) == 1:
        decision.emit("first_player", {"seat": tied[0], "value": top})
        start_next_turn(decision)
        return True
    seats = tied or list(state.active)
    decision.emit("rolloff_tie", {"seats": seats, "value": top, "attempt": len(state.rolloff) + 1})
    return True


def _after_scenario(decision: Decision[MemeState]) -> bool:
    state = decision.state
    if state.scenario is None:
        return False
    guessers = [seat for seat in state.active if seat != state.reactor]
    decision.emit("picking_started", {"guessers": guessers, "at": decision.now})
    return True


def _after_picking(decision: Decision[MemeState]) -> bool:
    if not decision.state.guesses:
        void_turn(decision, "no_guesses")
        return True
    decision.emit("betting_started", {"stage": 1, "at": decision.now})
    reactor = decision.state.reactor
    assert reactor is not None
    limits = limits_for(decision.state, reactor)
    if limits is not None and limits.max_total == 0:
        decision.emit("reactor_bet", {"seat": reactor, "bets": [], "auto": "no_money"})
    return True


def _after_betting_1(decision: Decision[MemeState]) -> bool:
    state = decision.state
    shown = [{"seat": seat, "meme": state.guesses[seat]} for seat in state.bettors()]
    decision.emit("guesses_revealed", {"guesses": shown})
    decision.emit("betting_started", {"stage": 2, "at": decision.now})
    for seat in decision.state.pending():
        limits = limits_for(decision.state, seat)
        if limits is not None and limits.max_total == 0:
            commit_bets(decision, seat, [], "no_money")
    return True


def _after_betting_2(decision: Decision[MemeState]) -> bool:
    state = decision.state
    sealed = [
        {"seat": seat, "bets": bets_to_list(state.bets.get(seat, {}))} for seat in state.bettors()
    ]
    decision.emit("bets_revealed", {"bets": sealed})
    decision.emit(
        "reaction_revealed",
        {"reactor": state.reactor, "meme": state.reaction, "correct": list(correct_seats(state))},
    )
    decision.emit("turn_over", turn_record(decision.state, None))
    start_next_turn(decision)
    return True


_STEPS = {
    Phase.ROLLOFF: _resolve_rolloff,
    Phase.SCENARIO: _after_scenario,
    Phase.PICKING: _after_picking,
    Phase.BETTING_1: _after_betting_1,
    Phase.BETTING_2: _after_betting_2,
}


def turn_record(state: MemeState, void: str | None) -> dict[str, Any]:
    """The public record of a finished turn: only what has been revealed."""
    placed = all_bets(state)
    return {
        "turn": state.turn,
        "round": state.round,
        "reactor": state.reactor,
        "scenario": None if state.scenario is None else state.scenario.shown(),
        "reaction": state.reaction if state.reaction_revealed else None,
        "guesses": [{"seat": seat, "meme": state.guesses[seat]} for seat in state.bettors()]
        if state.guesses_revealed
        else [],
        "correct": list(correct_seats(state)) if state.reaction_revealed else [],
        "bets": [
            {"seat": seat, "bets": bets_to_list(placed[seat])}
            for seat in state.seats
            if seat in placed and (seat == state.reactor or state.bets_revealed)
        ],
        "payouts": payouts(state) if void is None else [],
        "void": void,
    }


def void_turn(decision: Decision[MemeState], reason: str) -> None:
    """End the turn with no payouts: every bet goes back to its owner."""
    decision.emit("turn_over", turn_record(decision.state, reason))
    start_next_turn(decision)


def start_next_turn(decision: Decision[MemeState]) -> None:
    """The next reactor in rotation, a new round after the last one, or the end."""
    state = decision.state
    rotation = state.rotation()
    position, round_number = state.rotation_pos + 1, state.round
    if state.turn == 0:
        decision.emit("round_started", {"round": 1, "final": round_number == ROUNDS})
    while True:
        if position >= len(rotation):
            position, round_number = 0, round_number + 1
            if round_number > ROUNDS:
                end_game(decision, "finished")
                return
            decision.emit("round_started", {"round": round_number, "final": round_number == ROUNDS})
        if rotation[position] not in state.left:
            break
        position += 1
    decision.emit(
        "turn_started",
        {
            "turn": state.turn + 1,
            "round": round_number,
            "reactor": rotation[position],
            "position": position,
            "at": decision.now,
        },
    )


def end_game(decision: Decision[MemeState], reason: str) -> None:
    """Most money among the seats still playing wins; ties share."""
    state = decision.state
    standing = sorted(state.active, key=lambda seat: (-state.money[seat], seat))
    money = [state.money[seat] for seat in standing]  # a place: 1 + how many hold more
    decision.emit(
        "game_over",
        {
            "reason": reason,
            "winners": [seat for seat in standing if state.money[seat] == money[0]],
            "standings": [
                {"seat": seat, "money": held, "place": 1 + money.index(held)}
                for seat, held in zip(standing, money, strict=True)
            ],
        },
    )


# --- timers and away seats -------------------------------------------------


TIMERS = {
    Phase.SCENARIO: "picking_timer",
    Phase.PICKING: "picking_timer",
    Phase.BETTING_1: "betting_timer",
    Phase.BETTING_2: "betting_timer",
}
"""The room option that times each phase."""


def seat_deadline(state: MemeState, seat: int) -> tuple[float, str] | None:
    """When the table stops waiting for a pending seat, and why ("timer" or "away")."""
    found: list[tuple[float, str]] = []
    option = TIMERS.get(state.phase)
    timer = None if option is None else state.rules[option]
    if timer is not None and state.phase_started is not None:
        found.append((state.phase_started + timer, "timer"))
    if seat in state.away:
        since = state.away[seat]
        if state.phase_started is not None:
            since = max(since, state.phase_started)
        found.append((since + state.rules["away_wait"], "away"))
    return min(found) if found else None


def act_on_due(decision: Decision[MemeState]) -> bool:
    """Act for every pending seat whose deadline has passed; True if anything happened."""
    acted = False
    for seat in decision.state.pending():
        found = seat_deadline(decision.state, seat)
        if found is None or decision.now < found[0]:
            continue
        phase, turn = decision.state.phase, decision.state.turn
        act_for(decision, seat, found[1])
        acted = True
        if decision.state.phase is not phase or decision.state.turn != turn:
            break
    return acted


def act_for(decision: Decision[MemeState], seat: int, reason: str) -> None:
    """What the table does for a seat it stopped waiting for (see docs/rules.md)."""
    state = decision.state
    if state.phase is Phase.ROLLOFF or (state.phase is Phase.SCENARIO and reason == "timer"):
        roll_for(decision, seat, reason)
    elif state.phase is Phase.SCENARIO:
        void_turn(decision, "reactor_away")
    elif state.phase is Phase.PICKING:
        if seat == state.reactor:
            void_turn(decision, f"reactor_{reason}")
        else:
            decision.emit("sat_out", {"seat": seat, "reason": reason})
    elif state.phase is Phase.BETTING_1:
        _minimum_bet(decision, seat, reason)
    elif state.phase is Phase.BETTING_2:
        commit_bets(decision, seat, [], reason)


def commit_bets(
    decision: Decision[MemeState], seat: int, bets: list[dict[str, int]], auto: str | None
) -> None:
    """A second-betting bet, sealed: only its bettor sees the amounts until every bet is in."""
    decision.emit(
        "bet_committed",
        {"seat": seat, "auto": auto},
        private={seat: {"bets": bets}},
        secret={"bets": bets},
    )


def _minimum_bet(decision: Decision[MemeState], seat: int, reason: str) -> None:
    """The reactor's missing minimum bet, on a guess chosen at random."""
    limits = limits_for(decision.state, seat)
    if limits is None:
        return
    rng = decision.rng()
    bets = {}
    if limits.min_total and limits.targets:
        bets = {rng.choice(limits.targets): limits.min_total}
    decision.emit(
        "reactor_bet",
        {"seat": seat, "bets": bets_to_list(bets), "auto": reason},
        secret={"rng": rng.state},
    )


def roll_for(decision: Decision[MemeState], seat: int, auto: str | None) -> None:
    """One roll-off roll, or the reactor's two scenario dice."""
    rng = decision.rng()
    if decision.state.phase is Phase.ROLLOFF:
        attempt = len(decision.state.rolloff)
        value = rng.below(DIE_SIDES)
        decision.emit(
            "rolloff_roll",
            {"seat": seat, "value": value, "attempt": attempt, "auto": auto},
            secret={"rng": rng.state},
        )
        return
    tens, units = rng.below(DIE_SIDES), rng.below(DIE_SIDES)
    number = tens * DIE_SIDES + units
    decision.emit(
        "scenario_rolled",
        {
            "reactor": seat,
            "tens": tens,
            "units": units,
            "number": number,
            "text": decision.state.deck.scenarios[number],
            "auto": auto,
        },
        secret={"rng": rng.state},
    )
