"""decide and tick: which events a command or the clock causes, or why not.

After either, :func:`advance` does what the table then does by itself
(revealing, awarding, Booyah, the next round), reading the table from the
:class:`~partyhost.engine.core.Decision` so each step sees the ones before.
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
    system_target,
)
from partyhost.engine.tshirt.state import (
    MAX_SEATS,
    MIN_ACTIVE,
    Phase,
    Player,
    Presence,
    TShirtState,
    active_seats,
    authors_shown,
    can_play_round,
    evolve,
    has_presence,
    hot_card_shown,
    player_of,
    present_players,
    score,
    seated,
    seats_from,
    submission_of,
    tshirt_shown,
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
    player = seated(state, seat)
    if player is None:
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
    advance(decision)
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
    pick(decision, index, random=False)


def _booyah(decision: Decision[TShirtState], seat: int, command: Command) -> None:
    state = decision.state
    _require_phase(state, Phase.BOOYAH)
    assert state.booyah is not None
    if seat != state.booyah.seat:
        raise IllegalMove("not_your_turn", "Only the player who drew the Booyah card decides.")
    choice = command.get("choice")
    if choice == "keep":
        keep_booyah(decision, auto=None)
        return
    if choice != "steal":
        raise IllegalMove("bad_command", "Choose 'keep' or 'steal' for the Booyah card.")
    victim = read_int(command, "victim")
    if victim == seat:
        raise IllegalMove("bad_victim", "You cannot steal from yourself.")
    if seated(state, victim) is None:
        raise IllegalMove("bad_victim", f"Seat {victim} is not playing in this game.")
    if victim not in victims_for(state, seat):
        raise IllegalMove("no_cards_to_steal", f"Seat {victim} has no Hot or Not card to steal.")
    steal(decision, victim)


def _decide_system(state: TShirtState, command: Command, now: float) -> list[Event]:
    """Seats joining, leaving, going away and coming back (sent by the host)."""
    seat = system_target(command)
    kind = command["type"]
    decision = Decision(evolve, state, now)
    if kind == "seat_joined":
        _join(decision, seat)
    elif kind == "seat_left":
        if seated(state, seat) is None:
            raise IllegalMove("not_seated", f"Seat {seat} is not in the game.")
        if state.phase is Phase.SUBMITTING and submission_of(state, seat) is not None:
            decision.emit("submission_withdrawn", {"seat": seat})
        decision.emit("seat_left", {"seat": seat})
    elif kind == "seat_away":
        if not has_presence(state, seat, Presence.ACTIVE):
            raise IllegalMove("not_active", f"Seat {seat} is not active at the table.")
        decision.emit("seat_away", {"seat": seat})
    else:  # seat_back
        if not has_presence(state, seat, Presence.AWAY):
            raise IllegalMove("not_away", f"Seat {seat} is not away.")
        decision.emit("seat_back", {"seat": seat})
    advance(decision)
    return decision.events


def _join(decision: Decision[TShirtState], seat: int) -> None:
    """Seat a newcomer (or someone who left earlier) and deal them in."""
    state = decision.state
    if state.phase is Phase.OVER:
        raise IllegalMove("game_over", "The game is over.")
    if seated(state, seat) is not None:
        raise IllegalMove("already_seated", f"Seat {seat} is already in the game.")
    check_join(seat, sum(1 for _ in present_players(state)), MAX_SEATS)
    decision.emit("seat_joined", {"seat": seat})
    if state.phase is not Phase.STARTING:
        refill(decision, seat)


def tick(state: TShirtState, now: float) -> list[Event]:
    """Act on an expired deadline: deal, stop waiting for slogans, pick, or keep."""
    if state.deadline is None or now < state.deadline:
        return []
    decision = Decision(evolve, state, now)
    if state.phase is Phase.STARTING:
        open_game(decision)
    elif state.phase is Phase.SUBMITTING:
        decision.emit("timed_out", {"timer": "submit", "sat_out": waiting_for(state)})
        if state.submissions:
            reveal(decision)
        else:
            void_round(decision, "nobody_submitted", next_seat(state, state.judge))
    elif state.phase is Phase.JUDGING:
        rng = decision.rng()
        index = rng.below(len(state.submissions))
        decision.emit("timed_out", {"timer": "judge", "index": index}, secret={"rng": rng.state})
        pick(decision, index, random=True)
    elif state.phase is Phase.BOOYAH:
        decision.emit("timed_out", {"timer": "booyah"})
        keep_booyah(decision, auto="timer")
    advance(decision)
    return decision.events


def deadline(state: TShirtState) -> float | None:
    """When ``tick`` acts next; the state keeps it (0.0 at setup, for the opening deal)."""
    return state.deadline


def open_game(decision: Decision[TShirtState]) -> None:
    """Announce the first judge and play the first round (the opening tick)."""
    state = decision.state
    chosen = state.rules["first_judge"]
    if chosen is None:
        candidates = active_seats(state) or [p.seat for p in state.players]
        rng = decision.rng()
        first = rng.choice(candidates)
        decision.emit("first_judge", {"seat": first, "chosen": "random"}, secret={"rng": rng.state})
    else:
        first = chosen
        decision.emit("first_judge", {"seat": first, "chosen": "room"})
    start_round(decision, first)


def start_round(decision: Decision[TShirtState], candidate: int | None) -> None:
    """Start a round judged by the first active seat from ``candidate``, or pause."""
    state = decision.state
    if not can_play_round(state):
        data = {"next_judge": candidate, "active": len(active_seats(state)), "needed": MIN_ACTIVE}
        decision.emit("paused", data)
        return
    active = active_seats(state)
    judge = next(s for s in seats_from(state, candidate, inclusive=True) if s in active)
    decision.emit("round_started", {"round": state.round + 1, "judge": judge})
    for seat in seats_from(decision.state, judge, inclusive=False):
        if seat != judge and seated(decision.state, seat) is not None:
            refill(decision, seat)
    draw_tshirt(decision)
    timer = decision.state.rules["submit_timer"]
    if timer is not None:
        decision.emit("timer_set", {"timer": "submit", "deadline": decision.now + timer})


def refill(decision: Decision[TShirtState], seat: int) -> None:
    """Deal ``seat`` up to the hand size (or what there is), reshuffling the discard if needed."""
    player = player_of(decision.state, seat)
    assert player is not None
    need = decision.state.rules["hand_size"] - len(player.hand)
    while need > 0:
        if not decision.state.slogan_pile:
            if not decision.state.slogan_discard:
                return
            reshuffle(decision, "slogans", decision.state.slogan_discard)
        cards = list(decision.state.slogan_pile[:need])
        decision.emit(
            "dealt", {"seat": seat, "count": len(cards)}, private={seat: {"cards": cards}}
        )
        need -= len(cards)


def reshuffle(decision: Decision[TShirtState], pile: str, discard: tuple[int, ...]) -> None:
    """Shuffle a discard pile into its empty draw pile."""
    rng = decision.rng()
    order = rng.shuffled(discard)
    decision.emit(
        "reshuffled", {"pile": pile, "count": len(order)}, secret={"order": order, "rng": rng.state}
    )


def draw_tshirt(decision: Decision[TShirtState]) -> None:
    if not decision.state.tshirt_pile:
        reshuffle(decision, "tshirts", decision.state.tshirt_discard)
    decision.emit("tshirt_drawn", tshirt_shown(decision.state, decision.state.tshirt_pile[0]))


def reveal(decision: Decision[TShirtState]) -> None:
    """Shuffle the face-down slogans and turn them over, without their authors."""
    rng = decision.rng()
    order = rng.shuffled(decision.state.submissions)
    slogans = decision.state.deck.slogans
    shown = [{"index": i, "text": slogans[sub.card]} for i, sub in enumerate(order)]
    decision.emit(
        "revealed",
        {"submissions": shown},
        secret={"order": [sub.seat for sub in order], "rng": rng.state},
    )
    timer = decision.state.rules["judge_timer"]
    if timer is not None:
        decision.emit("timer_set", {"timer": "judge", "deadline": decision.now + timer})


def pick(decision: Decision[TShirtState], index: int, *, random: bool) -> None:
    """The judge's choice: authors become public and the winner draws."""
    state = decision.state
    winner = state.submissions[index].seat
    authors = authors_shown(state, state.submissions)
    decision.emit(
        "picked",
        {
            "index": index,
            "text": authors[index]["text"],
            "winner": winner,
            "authors": authors,
            "random": random,
        },
    )
    award(decision, winner)


def award(decision: Decision[TShirtState], winner: int) -> None:
    """The winner draws the top Hot or Not card (nobody draws for a seat that left)."""
    state = decision.state
    if seated(state, winner) is None:
        finish_round(decision)
        return
    if not state.hot_pile:
        scores = {p.seat: score(state, p) for p in present_players(state)}  # ties share the win
        best = max(scores.values(), default=0)
        end_game(decision, [s for s, got in scores.items() if got == best], "hot_or_not_empty")
        return
    drawn = hot_card_shown(state, state.hot_pile[0])
    decision.emit("drew", {"seat": winner, **drawn})
    if drawn["booyah"]:
        offer_booyah(decision)
    else:
        finish_round(decision)


def offer_booyah(decision: Decision[TShirtState]) -> None:
    """Ask the drawer to keep or steal, unless there is no choice to make."""
    pending = decision.state.booyah
    assert pending is not None
    if settle_booyah_without_choice(decision):
        return
    points = decision.state.deck.hot_or_not[pending.card].points
    victims = victims_for(decision.state, pending.seat)
    data = {"seat": pending.seat, "card": pending.card, "points": points, "victims": victims}
    decision.emit("booyah_pending", data)
    timer = decision.state.rules["judge_timer"]
    if timer is not None:
        decision.emit("timer_set", {"timer": "booyah", "deadline": decision.now + timer})


def settle_booyah_without_choice(decision: Decision[TShirtState]) -> bool:
    """Keep (or, if its drawer left, return) a Booyah card nobody can choose for."""
    pending = decision.state.booyah
    assert pending is not None
    if has_presence(decision.state, pending.seat, Presence.LEFT):
        return_booyah(decision, "drawer_left")
    elif not has_presence(decision.state, pending.seat, Presence.ACTIVE):
        keep_booyah(decision, auto="away")
    elif not victims_for(decision.state, pending.seat):
        keep_booyah(decision, auto="nobody_to_steal_from")
    else:
        return False
    return True


def keep_booyah(decision: Decision[TShirtState], *, auto: str | None) -> None:
    """Keep the Booyah card as a plain card worth its printed points."""
    pending = decision.state.booyah
    assert pending is not None
    points = decision.state.deck.hot_or_not[pending.card].points
    data = {"seat": pending.seat, "card": pending.card, "points": points, "auto": auto}
    decision.emit("booyah_kept", data)
    finish_round(decision)


def steal(decision: Decision[TShirtState], victim: int) -> None:
    """Take one of the victim's cards at random; the Booyah card goes to the bottom."""
    pending = decision.state.booyah
    owner = player_of(decision.state, victim)
    assert pending is not None and owner is not None
    rng = decision.rng()
    card = rng.choice(owner.won)
    hot = decision.state.deck.hot_or_not[card]
    data = {
        "thief": pending.seat,
        "victim": victim,
        "card": card,
        "points": hot.points,
        "verdict": hot.verdict,
        "booyah_card": pending.card,
    }
    decision.emit("stole", data, secret={"rng": rng.state})
    finish_round(decision)


def return_booyah(decision: Decision[TShirtState], reason: str) -> None:
    """Put an unclaimed Booyah card back at the bottom (its drawer left)."""
    pending = decision.state.booyah
    assert pending is not None
    decision.emit("booyah_returned", {"seat": pending.seat, "card": pending.card, "reason": reason})
    finish_round(decision)


def finish_round(decision: Decision[TShirtState]) -> None:
    """End the game if someone reached the target, else clear the table and go on."""
    state = decision.state
    winners = [p.seat for p in present_players(state) if score(state, p) >= state.rules["target"]]
    if winners:
        end_game(decision, winners, "target")
        return
    decision.emit("round_ended", {"round": decision.state.round})
    start_round(decision, next_seat(decision.state, decision.state.judge))


def end_game(decision: Decision[TShirtState], winners: list[int], reason: str) -> None:
    state = decision.state
    decision.emit("round_ended", {"round": state.round})
    scores = [{"seat": p.seat, "score": score(state, p)} for p in state.players]
    decision.emit("game_over", {"winners": winners, "reason": reason, "scores": scores})


def void_round(decision: Decision[TShirtState], reason: str, next_judge: int | None) -> None:
    """Call the round off (slogans go back to their owners' hands) and start the next."""
    returned = sorted(
        sub.seat
        for sub in decision.state.submissions
        if not has_presence(decision.state, sub.seat, Presence.LEFT)
    )
    decision.emit(
        "round_void", {"round": decision.state.round, "reason": reason, "returned": returned}
    )
    start_round(decision, next_judge)


def advance(decision: Decision[TShirtState]) -> None:
    """Do whatever the table now does by itself, until someone has to act."""
    while _advance_once(decision):
        pass


def _advance_once(decision: Decision[TShirtState]) -> bool:
    state = decision.state
    if state.phase in (Phase.SUBMITTING, Phase.JUDGING):
        judge = state.judge
        assert judge is not None
        if len(active_seats(state)) < MIN_ACTIVE:
            void_round(decision, "not_enough_players", judge)
        elif not has_presence(state, judge, Presence.ACTIVE):
            left = has_presence(state, judge, Presence.LEFT)
            void_round(decision, "judge_left" if left else "judge_away", next_seat(state, judge))
        elif state.phase is Phase.SUBMITTING and not waiting_for(state):
            if state.submissions:
                reveal(decision)
            else:
                void_round(decision, "no_submissions", next_seat(state, judge))
        else:
            return False
        return True
    if state.phase is Phase.BOOYAH:
        return settle_booyah_without_choice(decision)
    if state.phase is Phase.PAUSED and can_play_round(state):
        decision.emit("resumed", {})
        start_round(decision, state.judge)
        return True
    return False


def next_seat(state: TShirtState, seat: int | None) -> int:
    """The seat after ``seat`` clockwise, whatever its presence."""
    return seats_from(state, seat, inclusive=False)[0]
