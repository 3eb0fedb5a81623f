"""Four Corners as the host sees it: metadata, room options and the functions of each job."""

from __future__ import annotations

from partyhost.engine.core import FRIENDS_TAKE_BOTS, RuleOption
from partyhost.engine.gsm.bot import place_else_give_way
from partyhost.engine.gsm.four_corners import rules, state, views, wire
from partyhost.engine.gsm.four_corners.state import GAME_ID, NAME
from partyhost.engine.gsm.game import HINTS, ROTATE, gsm_game
from partyhost.engine.gsm.views import winners_only

GAME = gsm_game(
    (state, rules, views, wire),
    id=GAME_ID,
    name=NAME,
    min_players=2,
    max_players=2,
    options=(
        ROTATE,
        HINTS,
        RuleOption(
            "stall_seconds",
            "Stall timer (s)",
            "int",
            120,
            help="If no hand gets smaller for this long, fewer cards wins.",
            minimum=10,
            maximum=3600,
            allow_none=True,
        ),
        FRIENDS_TAKE_BOTS,
    ),
    results=winners_only,
    bot_command=place_else_give_way,
)
