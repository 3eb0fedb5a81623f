"""How a round runs: the event sequences commands, timers and seat changes share.

A :class:`Plan` collects the events a decision causes and evolves a scratch
copy of the state after each one, so later steps (a refill after a discard,
a reshuffle when the pile runs dry) see the table as it then is. Only the
events leave ``decide``/``tick``; the host evolves them again for real.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from partyhost.engine.core import Event
from partyhost.engine.rng import Rng
from partyhost.engine.tshirt.evolve import evolve
from partyhost.engine.tshirt.state import (
    MIN_ACTIVE,
    Phase,
    Presence,
    TShirtState,
    active_seats,
    can_play_round,
    first_active_from,
    highest_scorers,
    player_of,
    reached_target,
    score,
    seats_from,
    victims_for,
    waiting_for,
)


class Plan:
    """The events decided so far and the state they lead to."""

    def __init__(self, state: TShirtState) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(
        self,
        kind: str,
        data: Mapping[str, Any],
        *,
        private: Mapping[int, Mapping[str, Any]] | None = None,
        secret: Mapping[str, Any] | None = None,
    ) -> None:
        event = Event(kind, data, None, private or {}, secret or {})
        self.events.append(event)
        self.state = evolve(self.state, event)

    def rng(self) -> Rng:
        """A copy of the game's generator; put its ``.state`` in the event's secret."""
        return Rng(self.state.rng)


def open_game(plan: Plan, now: float) -> None:
    """Announce the first judge and play the first round (the opening tick)."""
    state = plan.state
    chosen = state.settings.first_judge
    if chosen is None:
        candidates = active_seats(state) or [p.seat for p in state.players]
        rng = plan.rng()
        first = rng.choice(candidates)
        plan.emit("first_judge", {"seat": first, "chosen": "random"}, secret={"rng": rng.state})
    else:
        first = chosen
        plan.emit("first_judge", {"seat": first, "chosen": "room"})
    start_round(plan, now, first)


def start_round(plan: Plan, now: float, candidate: int | None) -> None:
    """Start a round judged by the first active seat from ``candidate``, or pause."""
    state = plan.state
    if not can_play_round(state):
        data = {"next_judge": candidate, "active": len(active_seats(state)), "needed": MIN_ACTIVE}
        plan.emit("paused", data)
        return
    judge = first_active_from(state, candidate, inclusive=True)
    plan.emit("round_started", {"round": state.round + 1, "judge": judge})
    for seat in seats_from(plan.state, judge, inclusive=False):
        player = player_of(plan.state, seat)
        if seat != judge and player is not None and player.presence is not Presence.LEFT:
            refill(plan, seat)
    draw_tshirt(plan)
    timer = plan.state.settings.submit_timer
    if timer is not None:
        plan.emit("timer_set", {"timer": "submit", "deadline": now + timer})


def refill(plan: Plan, seat: int) -> None:
    """Deal ``seat`` up to the hand size, reshuffling the discard when the pile runs dry.

    When every slogan is already in someone's hand the seat gets what there is.
    """
    player = player_of(plan.state, seat)
    assert player is not None
    need = plan.state.settings.hand_size - len(player.hand)
    while need > 0:
        if not plan.state.slogan_pile:
            if not plan.state.slogan_discard:
                return
            reshuffle(plan, "slogans", plan.state.slogan_discard)
        cards = list(plan.state.slogan_pile[:need])
        plan.emit("dealt", {"seat": seat, "count": len(cards)}, private={seat: {"cards": cards}})
        need -= len(cards)


def reshuffle(plan: Plan, pile: str, discard: tuple[int, ...]) -> None:
    """Shuffle a discard pile into its empty draw pile."""
    rng = plan.rng()
    order = rng.shuffled(discard)
    plan.emit(
        "reshuffled", {"pile": pile, "count": len(order)}, secret={"order": order, "rng": rng.state}
    )


def draw_tshirt(plan: Plan) -> None:
    if not plan.state.tshirt_pile:
        reshuffle(plan, "tshirts", plan.state.tshirt_discard)
    card = plan.state.tshirt_pile[0]
    shirt = plan.state.deck.tshirts[card]
    plan.emit("tshirt_drawn", {"card": card, "picture": shirt.picture, "art": shirt.art})


def reveal(plan: Plan, now: float) -> None:
    """Shuffle the face-down slogans and turn them over, without their authors."""
    rng = plan.rng()
    order = rng.shuffled(plan.state.submissions)
    slogans = plan.state.deck.slogans
    shown = [{"index": i, "text": slogans[sub.card]} for i, sub in enumerate(order)]
    plan.emit(
        "revealed",
        {"submissions": shown},
        secret={"order": [sub.seat for sub in order], "rng": rng.state},
    )
    timer = plan.state.settings.judge_timer
    if timer is not None:
        plan.emit("timer_set", {"timer": "judge", "deadline": now + timer})


def pick(plan: Plan, now: float, index: int, *, random: bool) -> None:
    """The judge's choice: authors become public and the winner draws."""
    state = plan.state
    slogans = state.deck.slogans
    winner = state.submissions[index].seat
    authors = [
        {"index": i, "seat": sub.seat, "text": slogans[sub.card]}
        for i, sub in enumerate(state.submissions)
    ]
    plan.emit(
        "picked",
        {
            "index": index,
            "text": authors[index]["text"],
            "winner": winner,
            "authors": authors,
            "random": random,
        },
    )
    award(plan, now, winner)


def award(plan: Plan, now: float, winner: int) -> None:
    """The winner draws the top Hot or Not card (nobody draws for a seat that left)."""
    state = plan.state
    player = player_of(state, winner)
    if player is None or player.presence is Presence.LEFT:
        finish_round(plan, now)
        return
    if not state.hot_pile:
        end_game(plan, highest_scorers(state), "hot_or_not_empty")
        return
    card = state.hot_pile[0]
    hot = state.deck.hot_or_not[card]
    data = {
        "seat": winner,
        "card": card,
        "points": hot.points,
        "verdict": hot.verdict,
        "booyah": hot.booyah,
    }
    plan.emit("drew", data)
    if hot.booyah:
        offer_booyah(plan, now)
    else:
        finish_round(plan, now)


def offer_booyah(plan: Plan, now: float) -> None:
    """Ask the drawer to keep or steal, unless there is no choice to make."""
    pending = plan.state.booyah
    assert pending is not None
    if settle_booyah_without_choice(plan, now):
        return
    points = plan.state.deck.hot_or_not[pending.card].points
    victims = victims_for(plan.state, pending.seat)
    data = {"seat": pending.seat, "card": pending.card, "points": points, "victims": victims}
    plan.emit("booyah_pending", data)
    timer = plan.state.settings.judge_timer
    if timer is not None:
        plan.emit("timer_set", {"timer": "booyah", "deadline": now + timer})


def settle_booyah_without_choice(plan: Plan, now: float) -> bool:
    """Keep (or, if its drawer left, return) a Booyah card nobody can choose for."""
    pending = plan.state.booyah
    assert pending is not None
    if player_is(plan.state, pending.seat, Presence.LEFT):
        return_booyah(plan, now, "drawer_left")
    elif not player_is(plan.state, pending.seat, Presence.ACTIVE):
        keep_booyah(plan, now, auto="away")
    elif not victims_for(plan.state, pending.seat):
        keep_booyah(plan, now, auto="nobody_to_steal_from")
    else:
        return False
    return True


def keep_booyah(plan: Plan, now: float, *, auto: str | None) -> None:
    """Keep the Booyah card as a plain card worth its printed points."""
    pending = plan.state.booyah
    assert pending is not None
    points = plan.state.deck.hot_or_not[pending.card].points
    data = {"seat": pending.seat, "card": pending.card, "points": points, "auto": auto}
    plan.emit("booyah_kept", data)
    finish_round(plan, now)


def steal(plan: Plan, now: float, victim: int) -> None:
    """Take one of the victim's cards at random; the Booyah card goes to the bottom."""
    pending = plan.state.booyah
    owner = player_of(plan.state, victim)
    assert pending is not None and owner is not None
    rng = plan.rng()
    card = rng.choice(owner.won)
    hot = plan.state.deck.hot_or_not[card]
    data = {
        "thief": pending.seat,
        "victim": victim,
        "card": card,
        "points": hot.points,
        "verdict": hot.verdict,
        "booyah_card": pending.card,
    }
    plan.emit("stole", data, secret={"rng": rng.state})
    finish_round(plan, now)


def return_booyah(plan: Plan, now: float, reason: str) -> None:
    """Put an unclaimed Booyah card back at the bottom (its drawer left)."""
    pending = plan.state.booyah
    assert pending is not None
    plan.emit("booyah_returned", {"seat": pending.seat, "card": pending.card, "reason": reason})
    finish_round(plan, now)


def finish_round(plan: Plan, now: float) -> None:
    """End the game if someone reached the target, else clear the table and go on."""
    winners = reached_target(plan.state)
    if winners:
        end_game(plan, winners, "target")
        return
    plan.emit("round_ended", {"round": plan.state.round})
    start_round(plan, now, next_seat(plan.state, plan.state.judge))


def end_game(plan: Plan, winners: list[int], reason: str) -> None:
    state = plan.state
    plan.emit("round_ended", {"round": state.round})
    scores = [{"seat": p.seat, "score": score(state, p)} for p in state.players]
    plan.emit("game_over", {"winners": winners, "reason": reason, "scores": scores})


def void_round(plan: Plan, now: float, reason: str, next_judge: int | None) -> None:
    """Call the round off (slogans go back to their owners' hands) and start the next."""
    returned = sorted(
        sub.seat
        for sub in plan.state.submissions
        if not player_is(plan.state, sub.seat, Presence.LEFT)
    )
    plan.emit("round_void", {"round": plan.state.round, "reason": reason, "returned": returned})
    start_round(plan, now, next_judge)


def player_is(state: TShirtState, seat: int, presence: Presence) -> bool:
    player = player_of(state, seat)
    return player is not None and player.presence is presence


def advance(plan: Plan, now: float) -> None:
    """Do whatever the table now does by itself, until someone has to act."""
    while _advance_once(plan, now):
        pass


def _advance_once(plan: Plan, now: float) -> bool:
    state = plan.state
    if state.phase in (Phase.SUBMITTING, Phase.JUDGING):
        judge = state.judge
        assert judge is not None
        if len(active_seats(state)) < MIN_ACTIVE:
            void_round(plan, now, "not_enough_players", judge)
        elif not player_is(state, judge, Presence.ACTIVE):
            left = player_is(state, judge, Presence.LEFT)
            void_round(plan, now, "judge_left" if left else "judge_away", next_seat(state, judge))
        elif state.phase is Phase.SUBMITTING and not waiting_for(state):
            if state.submissions:
                reveal(plan, now)
            else:
                void_round(plan, now, "no_submissions", next_seat(state, judge))
        else:
            return False
        return True
    if state.phase is Phase.BOOYAH:
        return settle_booyah_without_choice(plan, now)
    if state.phase is Phase.PAUSED and can_play_round(state):
        plan.emit("resumed", {})
        start_round(plan, now, state.judge)
        return True
    return False


def next_seat(state: TShirtState, seat: int | None) -> int:
    """The seat after ``seat`` clockwise, whatever its presence."""
    return seats_from(state, seat, inclusive=False)[0]
