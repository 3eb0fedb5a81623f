"""The T-Shirt Game as the host sees it: metadata, room options and the functions of each job."""

from __future__ import annotations

from partyhost.engine.core import (
    FRIENDS_TAKE_BOTS,
    ROUND_RESULTS,
    RuleOption,
    declare,
    round_ends_on,
)
from partyhost.engine.tshirt import bot, deck, rules, state, views, wire
from partyhost.engine.tshirt.state import MAX_SEATS, MIN_ACTIVE

SUBMIT_SECONDS = 90
"""The slogan timer's default: enough to read the shirt and three slogans, twice."""
JUDGE_SECONDS = 60
"""The judging (and Booyah) timer's default: enough to read every slogan aloud."""

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
        SUBMIT_SECONDS,
        allow_none=True,
        minimum=10,
        maximum=600,
        help="Seconds to play a slogan; players who miss it sit the round out. Blank: no "
        "timer (one player can then hold up the round).",
    ),
    RuleOption(
        "judge_timer",
        "Judging timer (s)",
        "int",
        JUDGE_SECONDS,
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
    ROUND_RESULTS,
    FRIENDS_TAKE_BOTS,
)


GAME = declare(
    (deck, state, rules, views, bot, wire),
    id="tshirt",
    name="The T-Shirt Game",
    min_players=MIN_ACTIVE,
    max_players=MAX_SEATS,
    deck_game="tshirt",
    default_deck="the-t-shirt-game",
    options=OPTIONS,
    versioned_commands=frozenset({"pick"}),
    joins_mid_game=True,
    round_over=round_ends_on("drew", "round_void"),  # a Hot or Not card drawn, or no winner
)
