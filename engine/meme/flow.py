"""How the game runs on by itself: phase changes, turn order, timers and away seats.

``decide`` and ``tick`` (in :mod:`.rules`) record their events in a
:class:`~partyhost.engine.core.Decision`, whose state shows each event's
effect to the next step. :func:`advance` then carries the game as far as it
can go without a player: revealing, paying out, starting the next turn,
acting for seats whose timer ran out or who stayed away too long.
"""

from __future__ import annotations

from typing import Any

from partyhost.engine.core import Decision
from partyhost.engine.meme.betting import (
    all_bets,
    bets_to_list,
    correct_seats,
    limits_for,
    payouts,
)
from partyhost.engine.meme.state import DIE_SIDES, ROUNDS, MemeState, Phase


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
    scenario = state.scenario
    placed = all_bets(state)
    return {
        "turn": state.turn,
        "round": state.round,
        "reactor": state.reactor,
        "scenario": None
        if scenario is None
        else {"number": scenario.number, "text": scenario.text, "custom": scenario.number is None},
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
    best = max((state.money[seat] for seat in standing), default=0)
    decision.emit(
        "game_over",
        {
            "reason": reason,
            "winners": [seat for seat in standing if state.money[seat] == best],
            "standings": [
                {"seat": seat, "money": state.money[seat], "place": _place(state, seat)}
                for seat in standing
            ],
        },
    )


def _place(state: MemeState, seat: int) -> int:
    """1 + how many standing seats hold more money (ties share a place)."""
    return 1 + sum(1 for other in state.active if state.money[other] > state.money[seat])


# --- timers and away seats -------------------------------------------------


def phase_timer(state: MemeState) -> int | None:
    if state.phase in (Phase.SCENARIO, Phase.PICKING):
        return state.rules.picking_timer
    if state.phase in (Phase.BETTING_1, Phase.BETTING_2):
        return state.rules.betting_timer
    return None


def seat_deadline(state: MemeState, seat: int) -> tuple[float, str] | None:
    """When the table stops waiting for a pending seat, and why ("timer" or "away")."""
    found: list[tuple[float, str]] = []
    timer = phase_timer(state)
    if timer is not None and state.phase_started is not None:
        found.append((state.phase_started + timer, "timer"))
    if seat in state.away:
        since = state.away[seat]
        if state.phase_started is not None:
            since = max(since, state.phase_started)
        found.append((since + state.rules.away_wait, "away"))
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
    if state.phase is Phase.ROLLOFF:
        roll_for(decision, seat, reason)
    elif state.phase is Phase.SCENARIO:
        if reason == "timer":
            roll_for(decision, seat, reason)
        else:
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
