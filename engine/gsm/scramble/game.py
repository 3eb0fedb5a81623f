"""Scramble as the host sees it: metadata, room options and the functions of each job."""

from __future__ import annotations

from collections.abc import Sequence

from partyhost.engine.core import FRIENDS_TAKE_BOTS, ROUND_RESULTS, Event, RuleOption
from partyhost.engine.gsm.game import ROTATE, gsm_game
from partyhost.engine.gsm.scramble import bot, rules, state, views, wire
from partyhost.engine.gsm.scramble.state import GAME_ID, MATCH_WINS, NAME


def round_over(events: Sequence[Event]) -> bool:
    """A game of a match ends with a right "Game!" call."""
    return any(event.kind == "game_called" and event.data["valid"] for event in events)


GAME = gsm_game(
    (state, rules, views, bot, wire),
    id=GAME_ID,
    name=NAME,
    min_players=2,
    max_players=6,
    options=(
        ROTATE,  # no hints: arranging freely, with nothing checked until Game!, is the game
        RuleOption(
            "solvable_deals",
            "Only solvable hands",
            "bool",
            True,
            help="Deal only hands that can be arranged (checked by the host's solver).",
        ),
        RuleOption(
            "match",
            "Match",
            "choice",
            "single",
            help="One game, or the best of 3 or 5 games.",
            choices=tuple(MATCH_WINS),
        ),
        ROUND_RESULTS,
        FRIENDS_TAKE_BOTS,
    ),
    round_over=round_over,
)
