"""evolve: the state after one event. The only code that makes a new state.

Every event carries the facts it needs (cards dealt in ``private``, shuffled
orders and the generator's next state in ``secret``), so evolving never draws
randomness or decides anything.

Two things keep it cheap, without changing any result: states are copied
field by field (:func:`replace`) instead of through ``dataclasses.replace``,
and the newest results are remembered, because most events are evolved twice
(once in ``decide``'s :class:`~partyhost.engine.core.Decision`, once by
``settle``) from the very same state object, and a pure function of
immutable inputs may hand out its earlier answer.
"""

from __future__ import annotations

from typing import Any, TypeVar

from partyhost.engine.core import Event
from partyhost.engine.tshirt.state import (
    PendingBooyah,
    Phase,
    Player,
    Presence,
    RoundResult,
    Submission,
    TShirtState,
    player_of,
)

T = TypeVar("T")

MEMO_SIZE = 64
"""Results remembered: more than one decision's worth of events."""
_memo: dict[int, tuple[Event, TShirtState, TShirtState]] = {}


def evolve(state: TShirtState, event: Event) -> TShirtState:
    known = _memo.get(id(event))
    if known is not None and known[0] is event and known[1] is state:
        return known[2]
    result = _changed(state, event)
    if len(_memo) >= MEMO_SIZE:
        _memo.clear()
    _memo[id(event)] = (event, state, result)  # holding both keeps their ids unique
    return result


def replace(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for the state's frozen dataclasses, without ``__init__``.

    They have no ``__post_init__`` and no init-only fields, so copying the
    attributes gives the very object ``__init__`` would build, several times
    faster. ``changes`` must name existing fields.
    """
    new = object.__new__(type(obj))
    attributes = new.__dict__
    attributes.update(obj.__dict__)
    attributes.update(changes)
    return new


def _update(state: TShirtState, seat: int, **changes: Any) -> TShirtState:
    """Replace fields of one seat's player."""
    players = tuple(replace(p, **changes) if p.seat == seat else p for p in state.players)
    return replace(state, players=players)


def _player(state: TShirtState, seat: int) -> Player:
    player = player_of(state, seat)
    if player is None:
        raise ValueError(f"event names seat {seat}, which is not in the game")
    return player


def _past(state: TShirtState) -> tuple[RoundResult, ...]:
    """The finished rounds once a new result replaces ``last_round``."""
    if state.last_round is None:
        return state.past_rounds
    return (*state.past_rounds, state.last_round)


def _with_result(state: TShirtState, **changes: Any) -> TShirtState:
    assert state.last_round is not None, "a result change needs a round result"
    return replace(state, last_round=replace(state.last_round, **changes))


def _changed(state: TShirtState, event: Event) -> TShirtState:
    """The state after ``event``; ``first_judge`` and ``resumed`` only announce."""
    if "rng" in event.secret:
        state = replace(state, rng=event.secret["rng"])
    data = event.data
    match event.kind:
        case "round_started":
            return replace(
                state,
                phase=Phase.SUBMITTING,
                round=data["round"],
                judge=data["judge"],
                submissions=(),
                sat_out=(),
                tshirt=None,
                deadline=None,
            )
        case "reshuffled":
            order = tuple(event.secret["order"])
            if data["pile"] == "slogans":
                return replace(state, slogan_pile=order, slogan_discard=())
            return replace(state, tshirt_pile=order, tshirt_discard=())
        case "dealt":
            seat = data["seat"]
            cards = tuple(event.private[seat]["cards"])
            state = _update(state, seat, hand=_player(state, seat).hand + cards)
            return replace(state, slogan_pile=state.slogan_pile[len(cards) :])
        case "tshirt_drawn":
            return replace(state, tshirt=data["card"], tshirt_pile=state.tshirt_pile[1:])
        case "timer_set":
            return replace(state, deadline=data["deadline"])
        case "submitted":
            seat = data["seat"]
            card = event.private[seat]["card"]
            state = _update(
                state, seat, hand=tuple(c for c in _player(state, seat).hand if c != card)
            )
            return replace(state, submissions=(*state.submissions, Submission(seat, card)))
        case "timed_out":
            return replace(state, deadline=None, sat_out=tuple(data.get("sat_out", state.sat_out)))
        case "revealed":
            by_seat = {sub.seat: sub for sub in state.submissions}
            shuffled = tuple(by_seat[seat] for seat in event.secret["order"])
            return replace(state, submissions=shuffled, phase=Phase.JUDGING, deadline=None)
        case "picked":
            result = RoundResult(
                round=state.round,
                tshirt=state.tshirt,
                submissions=state.submissions,
                winning_index=data["index"],
                random_pick=data["random"],
                sat_out=state.sat_out,
            )
            return replace(state, last_round=result, past_rounds=_past(state), deadline=None)
        case "drew":
            seat, card = data["seat"], data["card"]
            state = _with_result(replace(state, hot_pile=state.hot_pile[1:]), hot_card=card)
            if data["booyah"]:
                return replace(state, booyah=PendingBooyah(seat, card))
            return _win(state, seat, card)
        case "booyah_pending":
            return replace(state, phase=Phase.BOOYAH)
        case "booyah_kept":
            state = _with_result(_win(state, data["seat"], data["card"]), booyah_choice="keep")
            return replace(state, booyah=None, deadline=None)
        case "stole":
            victim, card = data["victim"], data["card"]
            victim_cards = list(_player(state, victim).won)
            victim_cards.remove(card)
            state = _win(_update(state, victim, won=tuple(victim_cards)), data["thief"], card)
            state = _with_result(state, booyah_choice="steal", victim=victim, stolen_card=card)
            bottom = (*state.hot_pile, data["booyah_card"])
            return replace(state, hot_pile=bottom, booyah=None, deadline=None)
        case "booyah_returned":
            state = _with_result(state, booyah_choice="returned")
            bottom = (*state.hot_pile, data["card"])
            return replace(state, hot_pile=bottom, booyah=None, deadline=None)
        case "round_ended":
            return _round_ended(state)
        case "round_void":
            return _round_void(state, data["reason"])
        case "paused":
            return replace(state, phase=Phase.PAUSED, judge=data["next_judge"], deadline=None)
        case "game_over":
            return replace(
                state,
                phase=Phase.OVER,
                winners=tuple(data["winners"]),
                end_reason=data["reason"],
                deadline=None,
            )
        case "seat_joined":
            seat = data["seat"]
            if player_of(state, seat) is None:
                return replace(state, players=(*state.players, Player(seat)))
            return _update(state, seat, presence=Presence.ACTIVE)
        case "seat_left":
            seat = data["seat"]
            discard = state.slogan_discard + _player(state, seat).hand
            state = _update(state, seat, presence=Presence.LEFT, hand=())
            return replace(state, slogan_discard=discard)
        case "submission_withdrawn":
            seat = data["seat"]
            withdrawn = tuple(sub.card for sub in state.submissions if sub.seat == seat)
            kept = tuple(sub for sub in state.submissions if sub.seat != seat)
            return replace(state, submissions=kept, slogan_discard=state.slogan_discard + withdrawn)
        case "seat_away":
            return _update(state, data["seat"], presence=Presence.AWAY)
        case "seat_back":
            return _update(state, data["seat"], presence=Presence.ACTIVE)
    return state


def _win(state: TShirtState, seat: int, card: int) -> TShirtState:
    """``seat`` now owns the Hot or Not ``card``."""
    return _update(state, seat, won=(*_player(state, seat).won, card))


def _round_ended(state: TShirtState) -> TShirtState:
    played = tuple(sub.card for sub in state.submissions)
    shirts = state.tshirt_discard + (() if state.tshirt is None else (state.tshirt,))
    return replace(
        state,
        slogan_discard=state.slogan_discard + played,
        tshirt_discard=shirts,
        tshirt=None,
        submissions=(),
        sat_out=(),
        deadline=None,
    )


def _round_void(state: TShirtState, reason: str) -> TShirtState:
    """Submissions go back to their owners' hands (to the discard if the owner left)."""
    discard = state.slogan_discard
    for sub in state.submissions:
        owner = _player(state, sub.seat)
        if owner.presence is Presence.LEFT:
            discard += (sub.card,)
        else:
            state = _update(state, sub.seat, hand=(*owner.hand, sub.card))
    result = RoundResult(round=state.round, tshirt=state.tshirt, void_reason=reason)
    state = replace(
        state,
        slogan_discard=discard,
        submissions=(),
        last_round=result,
        past_rounds=_past(state),
    )
    return _round_ended(state)
