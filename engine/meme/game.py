"""What Do You Meme? as the host sees it: metadata, room options and the functions of each job."""

from __future__ import annotations

from partyhost.engine.core import (
    FRIENDS_TAKE_BOTS,
    ROUND_RESULTS,
    RuleOption,
    declare,
    round_ends_on,
)
from partyhost.engine.meme import bot, deck, rules, state, views, wire
from partyhost.engine.meme.deck import COLOR_COUNT

PICKING_SECONDS = 60
"""The picking timer's default: a roll, a scenario to read and seven memes to weigh."""
BETTING_SECONDS = 45
"""The betting timer's default: the guesses to read and a few tokens to place."""


OPTIONS = (
    RuleOption(
        "custom_scenarios",
        "Own scenarios",
        "bool",
        False,
        "The reactor may type their own scenario instead of rolling for one.",
    ),
    RuleOption(
        "picking_timer",
        "Picking timer (s)",
        "int",
        PICKING_SECONDS,
        "Time to roll and pick a meme. On expiry the host rolls for the reactor; a "
        "reactor who has not picked loses the turn; a guesser who has not guessed sits "
        "the turn out.",
        minimum=10,
        maximum=600,
        allow_none=True,
    ),
    RuleOption(
        "betting_timer",
        "Betting timer (s)",
        "int",
        BETTING_SECONDS,
        "Time for each betting. On expiry the reactor's missing minimum bet goes on a "
        "random guess; the others bet nothing.",
        minimum=5,
        maximum=600,
        allow_none=True,
    ),
    RuleOption(
        "away_wait",
        "Extra wait for away players (s)",
        "int",
        0,
        "How long the table still waits for a player the host marked away (no bot "
        "plays for them) before going on without them. 0: not at all.",
        minimum=0,
        maximum=600,
    ),
    ROUND_RESULTS,
    FRIENDS_TAKE_BOTS,
)


GAME = declare(
    (deck, state, rules, views, bot, wire),
    id="meme",
    name="What Do You Meme?",
    min_players=2,
    max_players=COLOR_COUNT,
    deck_game="meme",
    default_deck="what-do-you-meme",
    options=OPTIONS,
    round_over=round_ends_on("turn_over"),  # each turn ends with a reveal and its payouts
    deck_preview=("scenarios", "memes"),
)
