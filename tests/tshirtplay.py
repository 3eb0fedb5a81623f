"""Small decks and table moves shared by the T-Shirt Game tests (no tests here).

Decks are built in code so each rule test controls exactly which cards exist;
``arrange_hot_pile`` puts chosen Hot or Not cards on top of the pile.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from partyhost.engine.core import SYSTEM_SEAT, Command, Event, apply, apply_tick
from partyhost.engine.tshirt.deck import TShirtDeck
from partyhost.engine.tshirt.game import GAME
from partyhost.engine.tshirt.state import Phase, TShirtState, player_of, score


def deck_data(
    *,
    slogans: int = 40,
    tshirts: int = 5,
    hot: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Plain deck data as a parsed deck file would give it."""
    return {
        "game": "tshirt",
        "version": 1,
        "name": "Test deck",
        "slogans": [f"Slogan {i}" for i in range(slogans)],
        "tshirts": [{"picture": f"Shirt {i}"} for i in range(tshirts)],
        "hot_or_not": hot
        if hot is not None
        else [{"points": 100 * (i + 1), "verdict": f"Verdict {i}"} for i in range(5)],
    }


BOOYAH = 5
"""Index of the Booyah card in :func:`booyah_deck`."""


def booyah_deck() -> TShirtDeck:
    """Five plain cards worth 100..500 and one Booyah card worth 400."""
    hot = [{"points": 100 * (i + 1), "verdict": f"Verdict {i}"} for i in range(5)]
    hot.append({"points": 400, "verdict": "Booyah!", "booyah": True})
    return GAME.build_deck(deck_data(hot=hot))


def start(
    seats: tuple[int, ...] = (0, 1, 2),
    *,
    deck: TShirtDeck | None = None,
    seed: int = 7,
    first_judge: int | None = 0,
    **rules: Any,
) -> TShirtState:
    """A game after its opening tick: round 1, slogans dealt, T-shirt on the table."""
    state = GAME.start(
        deck or GAME.build_deck(deck_data()), seats, {"first_judge": first_judge, **rules}, seed
    )
    state, _ = apply_tick(GAME, state, 0.0)
    return state


def arrange_hot_pile(state: TShirtState, *top: int) -> TShirtState:
    """Put these Hot or Not cards on top of the pile, in this order."""
    rest = tuple(card for card in state.hot_pile if card not in top)
    return replace(state, hot_pile=(*top, *rest))


def give_won(state: TShirtState, seat: int, *cards: int) -> TShirtState:
    """Move Hot or Not cards from the pile to a seat, as if won earlier."""
    player = player_of(state, seat)
    assert player is not None
    players = tuple(replace(p, won=p.won + cards) if p.seat == seat else p for p in state.players)
    pile = tuple(card for card in state.hot_pile if card not in cards)
    return replace(state, players=players, hot_pile=pile)


def play(
    state: TShirtState, seat: int, command: Command, now: float = 0.0
) -> tuple[TShirtState, list[Event]]:
    result: tuple[TShirtState, list[Event]] = apply(GAME, state, seat, command, now)
    return result


def system(
    state: TShirtState, kind: str, seat: int, now: float = 0.0
) -> tuple[TShirtState, list[Event]]:
    return play(state, SYSTEM_SEAT, {"type": kind, "seat": seat}, now)


def hand(state: TShirtState, seat: int) -> tuple[int, ...]:
    player = player_of(state, seat)
    assert player is not None
    return player.hand


def won(state: TShirtState, seat: int) -> tuple[int, ...]:
    player = player_of(state, seat)
    assert player is not None
    return player.won


def score_of(state: TShirtState, seat: int) -> int:
    player = player_of(state, seat)
    assert player is not None
    return score(state, player)


def submit(state: TShirtState, seat: int, now: float = 0.0) -> TShirtState:
    """``seat`` plays the first slogan in its hand."""
    state, _ = play(state, seat, {"type": "submit", "card": hand(state, seat)[0]}, now)
    return state


def submit_all(state: TShirtState, now: float = 0.0) -> TShirtState:
    """Every seat that still has to play a slogan plays its first one."""
    for seat in GAME.view(state, None)["waiting_for"]:
        state = submit(state, seat, now)
    return state


def index_of(state: TShirtState, seat: int) -> int:
    """Where ``seat``'s slogan lies among the revealed ones (tests may peek)."""
    return next(i for i, sub in enumerate(state.submissions) if sub.seat == seat)


def pick_seat(state: TShirtState, winner: int, now: float = 0.0) -> tuple[TShirtState, list[Event]]:
    """The judge picks ``winner``'s slogan."""
    assert state.judge is not None
    return play(state, state.judge, {"type": "pick", "index": index_of(state, winner)}, now)


def win_round(state: TShirtState, winner: int) -> tuple[TShirtState, list[Event]]:
    """Everyone submits and the judge picks ``winner``."""
    return pick_seat(submit_all(state), winner)


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


def event(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)


def hidden_texts(state: TShirtState, seat: int | None) -> set[str]:
    """Slogans ``seat`` must not see: others' hands and face-down slogans, less those shown
    in a finished round (a reshuffle can deal them again).
    """
    secret: set[int] = set()
    for player in state.players:
        if player.seat != seat:
            secret.update(player.hand)
    if state.phase is Phase.SUBMITTING:
        secret.update(sub.card for sub in state.submissions if sub.seat != seat)
    if state.rounds:
        secret.difference_update(sub.card for sub in state.rounds[-1].submissions)
    for past in state.rounds[:-1]:  # every winner was shown when its round ended
        if past.winning_index is not None:
            secret.discard(past.submissions[past.winning_index].card)
    return {state.deck.slogans[card] for card in secret}
