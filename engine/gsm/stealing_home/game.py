"""Stealing Home as the host sees it: metadata, room options and the functions of each job."""

from __future__ import annotations

from partyhost.engine.core import FRIENDS_TAKE_BOTS, ROUND_RESULTS, RuleOption, round_ends_on
from partyhost.engine.gsm.bot import place_else_give_way
from partyhost.engine.gsm.game import HINTS, ROTATE, gsm_game
from partyhost.engine.gsm.stealing_home import rules, state, views, wire
from partyhost.engine.gsm.stealing_home.state import GAME_ID, MAX_PLAYERS, NAME

GAME = gsm_game(
    (state, rules, views, wire),
    id=GAME_ID,
    name=NAME,
    min_players=2,
    max_players=MAX_PLAYERS,
    joins_mid_game=True,
    options=(
        ROTATE,
        HINTS,
        RuleOption(
            "tie_window_ms",
            "Tie window (ms)",
            "int",
            150,
            help="Valid claims this close to the first one tie and go to a tiebreaker.",
            minimum=0,
            maximum=2000,
        ),
        RuleOption(
            "round_seconds",
            "Round timer (s)",
            "int",
            60,
            help="A round nobody matches ends as 'no fit' after this long.",
            minimum=5,
            maximum=600,
            allow_none=True,
        ),
        ROUND_RESULTS,
        FRIENDS_TAKE_BOTS,
    ),
    round_over=round_ends_on("match_won", "no_fit", "tiebreak"),  # a match, no fit, or a tie
    bot_command=place_else_give_way,
)
