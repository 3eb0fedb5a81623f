"""decide and tick: which events a command or the clock causes, or why not.

Every refusal is an :class:`IllegalMove` with a stable code; nothing here
changes the state (the events do, through ``evolve``). What the table then
does by itself (revealing, awarding, the next round) is in :mod:`.flow`.
"""

from __future__ import annotations

from partyhost.engine.core import (
    SYSTEM_SEAT,
    Command,
    Decision,
    Event,
    IllegalMove,
    check_join,
    read_int,
)
from partyhost.engine.tshirt import flow
from partyhost.engine.tshirt.evolve import evolve
from partyhost.engine.tshirt.state import (
    MAX_SEATS,
    Phase,
    Player,
    Presence,
    TShirtState,
    player_of,
    present_players,
    submission_of,
    victims_for,
    waiting_for,
)

_PHASE_SENTENCES = {
    Phase.STARTING: "The game is about to start.",
    Phase.SUBMITTING: "Players are still choosing their slogans.",
    Phase.JUDGING: "The judge is choosing the winning slogan.",
    Phase.BOOYAH: "A Booyah card is waiting for its drawer to decide.",
    Phase.PAUSED: "The game is paused until at least 3 players are at the table.",
}


def decide(state: TShirtState, seat: int, command: Command, now: float) -> list[Event]:
    if seat == SYSTEM_SEAT:
        return _decide_system(state, command, now)
    if state.phase is Phase.OVER:
        raise IllegalMove("game_over", "The game is over.")
    player = player_of(state, seat)
    if player is None or player.presence is Presence.LEFT:
        raise IllegalMove("not_seated", "You are not playing in this game.")
    decision = Decision(evolve, state, now)
    kind = command.get("type")
    if kind == "submit":
        _submit(decision, player, command)
    elif kind == "pick":
        _pick(decision, seat, command)
    elif kind == "booyah":
        _booyah(decision, seat, command)
    else:
        raise IllegalMove("unknown_command", f"The T-Shirt Game has no command {kind!r}.")
    flow.advance(decision)
    return decision.events


def _require_phase(state: TShirtState, phase: Phase) -> None:
    if state.phase is not phase:
        raise IllegalMove("wrong_phase", _PHASE_SENTENCES.get(state.phase, "Not now."))


def _submit(decision: Decision[TShirtState], player: Player, command: Command) -> None:
    state = decision.state
    _require_phase(state, Phase.SUBMITTING)
    if player.seat == state.judge:
        raise IllegalMove("judge_cannot_submit", "The judge does not play a slogan this round.")
    if submission_of(state, player.seat) is not None:
        raise IllegalMove("already_submitted", "You already played a slogan this round.")
    card = read_int(command, "card")
    if card not in player.hand:
        raise IllegalMove("not_in_hand", "That slogan is not in your hand.")
    text = state.deck.slogans[card]
    decision.emit(
        "submitted", {"seat": player.seat}, private={player.seat: {"card": card, "text": text}}
    )


def _pick(decision: Decision[TShirtState], seat: int, command: Command) -> None:
    state = decision.state
    _require_phase(state, Phase.JUDGING)
    if seat != state.judge:
        raise IllegalMove("not_your_turn", "Only the judge picks the winning slogan.")
    index = read_int(command, "index")
    if not 0 <= index < len(state.submissions):
        raise IllegalMove("bad_index", f"There is no slogan number {index} on the table.")
    flow.pick(decision, index, random=False)


def _booyah(decision: Decision[TShirtState], seat: int, command: Command) -> None:
    state = decision.state
    _require_phase(state, Phase.BOOYAH)
    assert state.booyah is not None
    if seat != state.booyah.seat:
        raise IllegalMove("not_your_turn", "Only the player who drew the Booyah card decides.")
    choice = command.get("choice")
    if choice == "keep":
        flow.keep_booyah(decision, auto=None)
        return
    if choice != "steal":
        raise IllegalMove("bad_command", "Choose 'keep' or 'steal' for the Booyah card.")
    victim = read_int(command, "victim")
    if victim == seat:
        raise IllegalMove("bad_victim", "You cannot steal from yourself.")
    target = player_of(state, victim)
    if target is None or target.presence is Presence.LEFT:
        raise IllegalMove("bad_victim", f"Seat {victim} is not playing in this game.")
    if victim not in victims_for(state, seat):
        raise IllegalMove("no_cards_to_steal", f"Seat {victim} has no Hot or Not card to steal.")
    flow.steal(decision, victim)


def _decide_system(state: TShirtState, command: Command, now: float) -> list[Event]:
    """Seats joining, leaving, going away and coming back (sent by the host)."""
    kind = command.get("type")
    seat = read_int(command, "seat")
    player = player_of(state, seat)
    decision = Decision(evolve, state, now)
    if kind == "seat_joined":
        _join(decision, seat, player)
    elif kind == "seat_left":
        if player is None or player.presence is Presence.LEFT:
            raise IllegalMove("not_seated", f"Seat {seat} is not in the game.")
        if state.phase is Phase.SUBMITTING and submission_of(state, seat) is not None:
            decision.emit("submission_withdrawn", {"seat": seat})
        decision.emit("seat_left", {"seat": seat})
    elif kind == "seat_away":
        if player is None or player.presence is not Presence.ACTIVE:
            raise IllegalMove("not_active", f"Seat {seat} is not active at the table.")
        decision.emit("seat_away", {"seat": seat})
    elif kind == "seat_back":
        if player is None or player.presence is not Presence.AWAY:
            raise IllegalMove("not_away", f"Seat {seat} is not away.")
        decision.emit("seat_back", {"seat": seat})
    else:
        raise IllegalMove("unknown_command", f"Unknown system command {kind!r}.")
    flow.advance(decision)
    return decision.events


def _join(decision: Decision[TShirtState], seat: int, player: Player | None) -> None:
    """Seat a newcomer (or someone who left earlier) and deal them in."""
    state = decision.state
    if state.phase is Phase.OVER:
        raise IllegalMove("game_over", "The game is over.")
    if seat < 0:
        raise IllegalMove("bad_command", "Seat numbers are zero or more.")
    if player is not None and player.presence is not Presence.LEFT:
        raise IllegalMove("already_seated", f"Seat {seat} is already in the game.")
    check_join(sum(1 for _ in present_players(state)), MAX_SEATS)
    decision.emit("seat_joined", {"seat": seat})
    if state.phase is not Phase.STARTING:
        flow.refill(decision, seat)


def tick(state: TShirtState, now: float) -> list[Event]:
    """Act on an expired deadline: deal, stop waiting for slogans, pick, or keep."""
    if state.deadline is None or now < state.deadline:
        return []
    decision = Decision(evolve, state, now)
    if state.phase is Phase.STARTING:
        flow.open_game(decision)
    elif state.phase is Phase.SUBMITTING:
        decision.emit("timed_out", {"timer": "submit", "sat_out": waiting_for(state)})
        if state.submissions:
            flow.reveal(decision)
        else:
            flow.void_round(decision, "nobody_submitted", flow.next_seat(state, state.judge))
    elif state.phase is Phase.JUDGING:
        rng = decision.rng()
        index = rng.below(len(state.submissions))
        decision.emit("timed_out", {"timer": "judge", "index": index}, secret={"rng": rng.state})
        flow.pick(decision, index, random=True)
    elif state.phase is Phase.BOOYAH:
        decision.emit("timed_out", {"timer": "booyah"})
        flow.keep_booyah(decision, auto="timer")
    flow.advance(decision)
    return decision.events


def deadline(state: TShirtState) -> float | None:
    """When ``tick`` acts next; the state keeps it (0.0 at setup, for the opening deal)."""
    return state.deadline
