"""Four Corners as the host sees it: metadata, room options and the functions of each job."""

from __future__ import annotations

from partyhost.engine.core import RuleOption
from partyhost.engine.gsm.bot import BOT_DELAYS, place_else_give_way
from partyhost.engine.gsm.four_corners import rules, state, views
from partyhost.engine.gsm.four_corners.state import GAME_ID, card_locations
from partyhost.engine.gsm.four_corners.wire import WIRE
from partyhost.engine.gsm.game import HINTS, ROTATE, gsm_game
from partyhost.engine.gsm.views import winners_only

GAME = gsm_game(
    id=GAME_ID,
    name="Game, Set, Match! - Four Corners",
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
    ),
    setup=state.setup,
    decide=rules.decide,
    evolve=state.evolve,
    view=views.view,
    legal=views.legal,
    tick=rules.tick,
    deadline=rules.deadline,
    replay_view=views.replay_view,
    results=winners_only,
    bot_command=place_else_give_way,
    bot_delays=BOT_DELAYS[GAME_ID],
    card_locations=card_locations,
    wire=WIRE,
)
