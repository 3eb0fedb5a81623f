"""Gridiron as the host sees it; turns, not a race, so its bots keep the host's pace."""

from __future__ import annotations

from partyhost.engine.core import FRIENDS_TAKE_BOTS, RuleOption
from partyhost.engine.gsm.bot import place_else_give_way
from partyhost.engine.gsm.game import HINTS, ROTATE, gsm_game
from partyhost.engine.gsm.gridiron import rules, state, views, wire
from partyhost.engine.gsm.gridiron.state import GAME_ID, NAME
from partyhost.engine.gsm.views import winners_only

GAME = gsm_game(
    (state, rules, views, wire),
    id=GAME_ID,
    name=NAME,
    min_players=2,
    max_players=6,
    versioned_commands=frozenset({"place", "draw", "pass"}),
    options=(
        ROTATE,
        HINTS,
        RuleOption(
            "first_seat",
            "First player (seat)",
            "int",
            None,
            help="Who starts; off (or a seat not playing): a random seat, announced.",
            minimum=0,
            maximum=63,
            allow_none=True,
        ),
        FRIENDS_TAKE_BOTS,
    ),
    results=winners_only,
    bot_command=place_else_give_way,
)
