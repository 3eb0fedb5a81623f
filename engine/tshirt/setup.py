"""The room options and a new game's state: shuffled piles, nobody dealt yet.

Dealing waits for the opening tick (the state's deadline is 0.0) because it
needs the host's clock for the first timer and its events announce the first
judge and carry each seat's private cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partyhost.engine.core import IllegalMove, RuleOption, resolve_rules
from partyhost.engine.rng import Rng
from partyhost.engine.tshirt.deck import TShirtDeck
from partyhost.engine.tshirt.state import MAX_SEATS, MIN_ACTIVE, Player, Settings, TShirtState

OPTIONS = (
    RuleOption(
        "hand_size",
        "Hand size",
        "int",
        3,
        help="Slogan cards each player holds.",
        minimum=1,
        maximum=7,
    ),
    RuleOption(
        "target",
        "Points to win",
        "int",
        3000,
        help="The first player to reach this score wins.",
        minimum=500,
        maximum=20000,
    ),
    RuleOption(
        "submit_timer",
        "Slogan timer (s)",
        "int",
        None,
        allow_none=True,
        minimum=10,
        maximum=600,
        help="Seconds to play a slogan; players who miss it sit the round out.",
    ),
    RuleOption(
        "judge_timer",
        "Judging timer (s)",
        "int",
        None,
        allow_none=True,
        minimum=10,
        maximum=600,
        help="Seconds for the judge to pick (then the host picks at random) and for a "
        "Booyah choice (then the card is kept).",
    ),
    RuleOption(
        "first_judge",
        "First judge (seat)",
        "int",
        None,
        allow_none=True,
        minimum=0,
        help="The seat that judges first; off picks a random seat.",
    ),
)


def new_game(
    deck: TShirtDeck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
) -> TShirtState:
    """Shuffle the three decks and seat everyone in join order."""
    resolved = resolve_rules(OPTIONS, rules)
    if len(set(seats)) != len(seats) or any(seat < 0 for seat in seats):
        raise IllegalMove("bad_seats", "Seats must be distinct numbers, zero or more.")
    if not MIN_ACTIVE <= len(seats) <= MAX_SEATS:
        raise IllegalMove(
            "bad_seats", f"The T-Shirt Game needs {MIN_ACTIVE} to {MAX_SEATS} players."
        )
    first_judge = resolved["first_judge"]
    if first_judge is not None and first_judge not in seats:
        raise IllegalMove("bad_option", f"Seat {first_judge} is not at the table to judge first.")
    rng = Rng(seed)
    slogans = rng.shuffled(range(len(deck.slogans)))
    tshirts = rng.shuffled(range(len(deck.tshirts)))
    hot = rng.shuffled(range(len(deck.hot_or_not)))
    settings = Settings(
        hand_size=resolved["hand_size"],
        target=resolved["target"],
        submit_timer=resolved["submit_timer"],
        judge_timer=resolved["judge_timer"],
        first_judge=first_judge,
    )
    return TShirtState(
        deck=deck,
        settings=settings,
        players=tuple(Player(seat) for seat in seats),
        slogan_pile=tuple(slogans),
        tshirt_pile=tuple(tshirts),
        hot_pile=tuple(hot),
        rng=rng.state,
    )
