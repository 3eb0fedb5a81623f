"""Scramble as the host sees it: metadata, room options and the contract's wiring."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partyhost.engine.core import ROUND_RESULTS, Command, Event, RuleOption, SeatResult, View
from partyhost.engine.gsm.cards import Deck
from partyhost.engine.gsm.game import ROTATE, GsmGame
from partyhost.engine.gsm.scramble import bot, rules, setup, views
from partyhost.engine.gsm.scramble.evolve import evolve
from partyhost.engine.gsm.scramble.state import (
    GAME_ID,
    MATCH_WINS,
    ScrambleState,
    card_locations,
)
from partyhost.engine.rng import Rng


class Scramble(GsmGame):
    """Scramble, registered as ``scramble``."""

    id = GAME_ID
    name = "Game, Set, Match! - Scramble"
    min_players = 2
    max_players = 6
    options = (
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
    )

    def round_over(self, events: Sequence[Event]) -> bool:
        """A game of a match ends with a right "Game!" call."""
        return any(event.kind == "game_called" and event.data["valid"] for event in events)

    def setup(
        self, deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
    ) -> ScrambleState:
        resolved = self.rules_for(rules)
        self.check_seats(seats)
        return setup.setup(deck, seats, resolved, seed)

    def decide(self, state: ScrambleState, seat: int, command: Command, now: float) -> list[Event]:
        return rules.decide(state, seat, command, now)

    def evolve(self, state: ScrambleState, event: Event) -> ScrambleState:
        return evolve(state, event)

    def view(self, state: ScrambleState, seat: int | None) -> View:
        return views.view(state, seat)

    def legal(self, state: ScrambleState, seat: int) -> list[Command]:
        return views.legal(state, seat)

    def replay_view(self, state: ScrambleState) -> View:
        return views.replay_view(state)

    def results(self, state: ScrambleState) -> list[SeatResult]:
        return views.results(state)

    def bot_command(self, view: View, rng: Rng, now: float) -> Command | None:
        return bot.bot_command(view, rng, now)

    def card_locations(self, state: ScrambleState) -> list[tuple[int, str]]:
        """Where every card is (for the invariant tests)."""
        return card_locations(state)
