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

from collections.abc import Callable
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
    result = state
    if "rng" in event.secret:
        result = replace(result, rng=event.secret["rng"])
    handler = _HANDLERS.get(event.kind)
    if handler is not None:
        result = handler(result, event)
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


def _round_started(state: TShirtState, event: Event) -> TShirtState:
    return replace(
        state,
        phase=Phase.SUBMITTING,
        round=event.data["round"],
        judge=event.data["judge"],
        submissions=(),
        sat_out=(),
        tshirt=None,
        deadline=None,
    )


def _reshuffled(state: TShirtState, event: Event) -> TShirtState:
    order = tuple(event.secret["order"])
    if event.data["pile"] == "slogans":
        return replace(state, slogan_pile=order, slogan_discard=())
    return replace(state, tshirt_pile=order, tshirt_discard=())


def _dealt(state: TShirtState, event: Event) -> TShirtState:
    seat = event.data["seat"]
    cards = tuple(event.private[seat]["cards"])
    state = _update(state, seat, hand=_player(state, seat).hand + cards)
    return replace(state, slogan_pile=state.slogan_pile[len(cards) :])


def _tshirt_drawn(state: TShirtState, event: Event) -> TShirtState:
    return replace(state, tshirt=event.data["card"], tshirt_pile=state.tshirt_pile[1:])


def _timer_set(state: TShirtState, event: Event) -> TShirtState:
    return replace(state, deadline=event.data["deadline"])


def _submitted(state: TShirtState, event: Event) -> TShirtState:
    seat = event.data["seat"]
    card = event.private[seat]["card"]
    hand = tuple(c for c in _player(state, seat).hand if c != card)
    state = _update(state, seat, hand=hand)
    return replace(state, submissions=(*state.submissions, Submission(seat, card)))


def _timed_out(state: TShirtState, event: Event) -> TShirtState:
    return replace(state, deadline=None, sat_out=tuple(event.data.get("sat_out", state.sat_out)))


def _revealed(state: TShirtState, event: Event) -> TShirtState:
    by_seat = {sub.seat: sub for sub in state.submissions}
    shuffled = tuple(by_seat[seat] for seat in event.secret["order"])
    return replace(state, submissions=shuffled, phase=Phase.JUDGING, deadline=None)


def _picked(state: TShirtState, event: Event) -> TShirtState:
    result = RoundResult(
        round=state.round,
        tshirt=state.tshirt,
        submissions=state.submissions,
        winning_index=event.data["index"],
        random_pick=event.data["random"],
        sat_out=state.sat_out,
    )
    return replace(state, last_round=result, past_rounds=_past(state), deadline=None)


def _drew(state: TShirtState, event: Event) -> TShirtState:
    seat, card = event.data["seat"], event.data["card"]
    state = replace(state, hot_pile=state.hot_pile[1:])
    state = _with_result(state, hot_card=card)
    if event.data["booyah"]:
        return replace(state, booyah=PendingBooyah(seat, card))
    return _update(state, seat, won=(*_player(state, seat).won, card))


def _booyah_pending(state: TShirtState, event: Event) -> TShirtState:
    return replace(state, phase=Phase.BOOYAH)


def _booyah_kept(state: TShirtState, event: Event) -> TShirtState:
    seat, card = event.data["seat"], event.data["card"]
    state = _update(state, seat, won=(*_player(state, seat).won, card))
    state = _with_result(state, booyah_choice="keep")
    return replace(state, booyah=None, deadline=None)


def _stole(state: TShirtState, event: Event) -> TShirtState:
    thief, victim, card = event.data["thief"], event.data["victim"], event.data["card"]
    victim_cards = list(_player(state, victim).won)
    victim_cards.remove(card)
    state = _update(state, victim, won=tuple(victim_cards))
    state = _update(state, thief, won=(*_player(state, thief).won, card))
    state = _with_result(state, booyah_choice="steal", victim=victim, stolen_card=card)
    bottom = (*state.hot_pile, event.data["booyah_card"])
    return replace(state, hot_pile=bottom, booyah=None, deadline=None)


def _booyah_returned(state: TShirtState, event: Event) -> TShirtState:
    state = _with_result(state, booyah_choice="returned")
    bottom = (*state.hot_pile, event.data["card"])
    return replace(state, hot_pile=bottom, booyah=None, deadline=None)


def _round_ended(state: TShirtState, event: Event) -> TShirtState:
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


def _round_void(state: TShirtState, event: Event) -> TShirtState:
    """Submissions go back to their owners' hands (to the discard if the owner left)."""
    discard = state.slogan_discard
    for sub in state.submissions:
        owner = _player(state, sub.seat)
        if owner.presence is Presence.LEFT:
            discard += (sub.card,)
        else:
            state = _update(state, sub.seat, hand=(*owner.hand, sub.card))
    result = RoundResult(round=state.round, tshirt=state.tshirt, void_reason=event.data["reason"])
    state = replace(
        state,
        slogan_discard=discard,
        submissions=(),
        last_round=result,
        past_rounds=_past(state),
    )
    return _round_ended(state, event)


def _paused(state: TShirtState, event: Event) -> TShirtState:
    return replace(state, phase=Phase.PAUSED, judge=event.data["next_judge"], deadline=None)


def _game_over(state: TShirtState, event: Event) -> TShirtState:
    return replace(
        state,
        phase=Phase.OVER,
        winners=tuple(event.data["winners"]),
        end_reason=event.data["reason"],
        deadline=None,
    )


def _seat_joined(state: TShirtState, event: Event) -> TShirtState:
    seat = event.data["seat"]
    if player_of(state, seat) is None:
        return replace(state, players=(*state.players, Player(seat)))
    return _update(state, seat, presence=Presence.ACTIVE)


def _seat_left(state: TShirtState, event: Event) -> TShirtState:
    seat = event.data["seat"]
    discard = state.slogan_discard + _player(state, seat).hand
    state = _update(state, seat, presence=Presence.LEFT, hand=())
    return replace(state, slogan_discard=discard)


def _submission_withdrawn(state: TShirtState, event: Event) -> TShirtState:
    seat = event.data["seat"]
    withdrawn = tuple(sub.card for sub in state.submissions if sub.seat == seat)
    kept = tuple(sub for sub in state.submissions if sub.seat != seat)
    return replace(state, submissions=kept, slogan_discard=state.slogan_discard + withdrawn)


def _seat_away(state: TShirtState, event: Event) -> TShirtState:
    return _update(state, event.data["seat"], presence=Presence.AWAY)


def _seat_back(state: TShirtState, event: Event) -> TShirtState:
    return _update(state, event.data["seat"], presence=Presence.ACTIVE)


_HANDLERS: dict[str, Callable[[TShirtState, Event], TShirtState]] = {
    "round_started": _round_started,
    "reshuffled": _reshuffled,
    "dealt": _dealt,
    "tshirt_drawn": _tshirt_drawn,
    "timer_set": _timer_set,
    "submitted": _submitted,
    "timed_out": _timed_out,
    "revealed": _revealed,
    "picked": _picked,
    "drew": _drew,
    "booyah_pending": _booyah_pending,
    "booyah_kept": _booyah_kept,
    "stole": _stole,
    "booyah_returned": _booyah_returned,
    "round_ended": _round_ended,
    "round_void": _round_void,
    "paused": _paused,
    "game_over": _game_over,
    "seat_joined": _seat_joined,
    "seat_left": _seat_left,
    "submission_withdrawn": _submission_withdrawn,
    "seat_away": _seat_away,
    "seat_back": _seat_back,
}
"""Events not listed (``first_judge``, ``resumed``) only announce; they change nothing."""
