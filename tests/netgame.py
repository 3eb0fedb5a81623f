"""A tiny game for the net tests ("counting"), so they never depend on a real game's rules.

Each seat holds a hidden hand of word cards worth 1-3. On your turn you play
one card: its value is added to the shared counter and you draw a new card
(privately). Reaching the target ends the game; the player who did it wins.
It exercises what the host must get right: hidden hands, private events,
versioned (stale) commands, a turn timer driven by ``tick``, and the system
commands for seats joining, leaving, going away and coming back.

Importing this module registers the game: tests do it lazily (through the
host's ``extra_games`` or :func:`nethelpers.counting`), never at collection
time, so other suites that list every registered game never see it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from partyhost.engine.core import (
    SYSTEM_SEAT,
    Command,
    DeckInvalid,
    DeckProblem,
    Event,
    Game,
    IllegalMove,
    RuleOption,
    SeatResult,
    View,
)
from partyhost.engine.registry import register
from partyhost.engine.rng import Rng

GAME_ID = "counting"
DECK_NAME = "counting"


@dataclass(frozen=True)
class Card:
    word: str
    value: int


@dataclass(frozen=True)
class CountingState:
    version: int
    seats: tuple[int, ...]
    """Seats in the game, in turn order (left seats removed)."""
    away: frozenset[int]
    turn: int | None
    counter: int
    target: int
    hands: Mapping[int, tuple[int, ...]]
    pile: tuple[int, ...]
    rng: int
    cards: tuple[Card, ...] = field(repr=False)
    rules: Mapping[str, Any] = field(default_factory=dict)
    winner: int | None = None
    deadline: float | None = None


def build_deck(data: Any) -> tuple[Card, ...]:
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(cards, list) or not cards:
        raise DeckInvalid([DeckProblem(("cards",), "a list of cards is needed")])
    built = []
    for index, card in enumerate(cards):
        if not isinstance(card, dict) or not isinstance(card.get("word"), str):
            raise DeckInvalid([DeckProblem(("cards", index), "a card needs a word")])
        built.append(Card(card["word"], int(card.get("value", 1))))
    return tuple(built)


def setup(deck: Any, seats: Sequence[int], rules: Mapping[str, Any], seed: int) -> Any:
    rng = Rng(seed)
    pile = tuple(rng.shuffled(range(len(deck))))
    state = CountingState(
        version=0,
        seats=tuple(seats),
        away=frozenset(),
        turn=seats[0] if seats else None,
        counter=0,
        target=int(rules["target"]),
        hands={},
        pile=pile,
        rng=rng.state,
        cards=tuple(deck),
        rules=dict(rules),
    )
    for seat in seats:
        state = _deal(state, seat)
    return state


def _deal(state: CountingState, seat: int) -> CountingState:
    size = int(state.rules["hand"])
    pile = state.pile
    if len(pile) < size:
        pile = pile + tuple(Rng(state.rng).shuffled(range(len(state.cards))))
    hands = dict(state.hands)
    hands[seat] = pile[:size]
    return dataclasses.replace(state, hands=hands, pile=pile[size:])


def decide(state: Any, seat: int, command: Command, now: float) -> list[Event]:
    kind = command.get("type")
    if seat == SYSTEM_SEAT:
        return _system(state, kind, command.get("seat"))
    if state.winner is not None:
        raise IllegalMove("game_over", "The game is over.")
    if kind != "play":
        raise IllegalMove("bad_command", f"Unknown command {kind!r}.")
    if seat != state.turn:
        raise IllegalMove("not_your_turn", "Wait for your turn.")
    card = command.get("card")
    hand = state.hands.get(seat, ())
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < len(hand):
        raise IllegalMove("bad_card", "Pick a card from your hand.")
    return _play(state, seat, card, now)


def _play(state: CountingState, seat: int, index: int, now: float) -> list[Event]:
    played = state.cards[state.hands[seat][index]]
    rng = Rng(state.rng)
    pile = state.pile or tuple(rng.shuffled(range(len(state.cards))))
    drawn = pile[0]
    word = state.cards[drawn].word
    return [
        Event(
            "played",
            {"seat": seat, "word": played.word, "value": played.value},
            secret={"index": index},
        ),
        Event(
            "drew",
            {"seat": seat},
            private={seat: {"word": word}},
            secret={"card": drawn, "pile": pile[1:], "rng": rng.state, "now": now},
        ),
    ]


def _system(state: CountingState, kind: Any, seat: Any) -> list[Event]:
    if not isinstance(seat, int):
        raise IllegalMove("bad_command", "System commands name a seat.")
    if kind == "seat_joined" and seat not in state.seats:
        return [Event("seat_joined", {"seat": seat})]
    if kind in ("seat_left", "seat_away", "seat_back") and seat in state.seats:
        return [Event(kind, {"seat": seat})]
    raise IllegalMove("bad_command", f"Cannot {kind} seat {seat}.")


def evolve(state: Any, event: Event) -> Any:
    seat = event.data.get("seat")
    if event.kind == "played":
        hands = dict(state.hands)
        hand = list(hands[seat])
        value = int(event.data["value"])
        del hand[int(event.secret["index"])]
        hands[seat] = tuple(hand)
        counter = state.counter + value
        winner = seat if counter >= state.target else None
        return dataclasses.replace(state, hands=hands, counter=counter, winner=winner)
    if event.kind == "drew":
        hands = dict(state.hands)
        hands[seat] = (*hands[seat], int(event.secret["card"]))
        state = dataclasses.replace(
            state, hands=hands, pile=tuple(event.secret["pile"]), rng=event.secret["rng"]
        )
        return _advance(state, float(event.secret["now"]))
    if event.kind == "seat_joined":
        state = dataclasses.replace(state, seats=(*state.seats, seat))
        return _deal(state, seat)
    if event.kind == "seat_left":
        hands = {s: h for s, h in state.hands.items() if s != seat}
        seats = tuple(s for s in state.seats if s != seat)
        turn_moves = state.turn == seat
        state = dataclasses.replace(state, seats=seats, hands=hands, away=state.away - {seat})
        if turn_moves:
            state = _advance_from(state, seat, state.deadline or 0.0)
        return state
    if event.kind == "seat_away":
        state = dataclasses.replace(state, away=state.away | {seat})
        if state.turn == seat:
            state = _advance_from(state, seat, 0.0)
        return state
    if event.kind == "seat_back":
        return dataclasses.replace(state, away=state.away - {seat})
    return state


def _advance(state: CountingState, now: float) -> CountingState:
    assert state.turn is not None
    return _advance_from(state, state.turn, now)


def _advance_from(state: CountingState, seat: int, now: float) -> CountingState:
    if state.winner is not None:
        return dataclasses.replace(state, turn=None, deadline=None)
    order = list(state.seats)
    start = order.index(seat) if seat in order else -1
    present = [s for s in order if s not in state.away]
    if not present:
        return dataclasses.replace(state, turn=None, deadline=None)
    for step in range(1, len(order) + 2):
        candidate = order[(start + step) % len(order)]
        if candidate not in state.away:
            break
    timer = state.rules.get("turn_timer")
    deadline = now + timer if timer and now else None
    return dataclasses.replace(state, turn=candidate, deadline=deadline)


def tick(state: Any, now: float) -> list[Event]:
    if state.deadline is None or now < state.deadline or state.turn is None:
        return []
    return _play(state, state.turn, 0, now)


def deadline(state: Any) -> float | None:
    return None if state.winner is not None else state.deadline


def is_over(state: Any) -> bool:
    return state.winner is not None or (not state.seats and state.version > 0)


def view(state: Any, seat: int | None) -> View:
    shown: View = {
        "version": state.version,
        "you": seat,
        "seats": list(state.seats),
        "away": sorted(state.away),
        "turn": state.turn,
        "counter": state.counter,
        "target": state.target,
        "hand_sizes": {str(s): len(h) for s, h in state.hands.items()},
        "winner": state.winner,
        "over": state.winner is not None,
        "deadline": state.deadline,
        "legal": legal(state, seat) if seat is not None else [],
    }
    if seat is not None and seat in state.hands:
        shown["hand"] = [
            {"word": state.cards[c].word, "value": state.cards[c].value} for c in state.hands[seat]
        ]
    pad = int(state.rules.get("pad", 0))
    if pad:
        shown["pad"] = "." * pad
    return shown


def replay_view(state: Any) -> View:
    """Every hand shown; a "round" is each ten the counter passes."""
    shown = view(state, None)
    shown["hands"] = {
        str(seat): [state.cards[card].word for card in hand] for seat, hand in state.hands.items()
    }
    shown["round"] = state.counter // 10 + 1
    return shown


def results(state: Any) -> list[SeatResult]:
    return [
        SeatResult(seat, seat == state.winner, points=state.counter if seat == state.winner else 0)
        for seat in state.seats
    ]


def legal(state: Any, seat: int) -> list[Command]:
    if state.winner is not None or seat != state.turn:
        return []
    return [
        {"type": "play", "card": i, "v": state.version}
        for i in range(len(state.hands.get(seat, ())))
    ]


def bot_command(view: View, rng: Rng, now: float) -> Command | None:
    legal = view.get("legal") or []
    return dict(rng.choice(legal)) if legal else None


GAME = register(
    Game(
        id=GAME_ID,
        name="Counting",
        min_players=2,
        max_players=8,
        deck_game=GAME_ID,
        default_deck=DECK_NAME,
        joins_mid_game=True,
        versioned_commands=frozenset({"play"}),
        options=(
            RuleOption("target", "Target", "int", 30, minimum=5, maximum=10_000),
            RuleOption("hand", "Hand size", "int", 3, minimum=1, maximum=6),
            RuleOption(
                "turn_timer", "Turn timer", "int", None, minimum=1, maximum=600, allow_none=True
            ),
            RuleOption("pad", "View padding (bytes)", "int", 0, minimum=0, maximum=200_000),
        ),
        build_deck=build_deck,
        setup=setup,
        decide=decide,
        evolve=evolve,
        view=view,
        legal=legal,
        tick=tick,
        deadline=deadline,
        is_over=is_over,
        replay_view=replay_view,
        results=results,
        bot_command=bot_command,
    )
)
