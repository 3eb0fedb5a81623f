"""Stealing Home as the host sees it: metadata, room options and the contract's wiring."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partyhost.engine.core import ROUND_RESULTS, Command, Event, RuleOption, SeatResult, View
from partyhost.engine.gsm.cards import Deck
from partyhost.engine.gsm.game import HINTS, ROTATE, GsmGame
from partyhost.engine.gsm.stealing_home import bot, rules, setup, views
from partyhost.engine.gsm.stealing_home.evolve import evolve
from partyhost.engine.gsm.stealing_home.state import (
    GAME_ID,
    MAX_PLAYERS,
    StealingHomeState,
    card_locations,
)
from partyhost.engine.rng import Rng


class StealingHome(GsmGame):
    """Stealing Home, registered as ``stealing-home``."""

    id = GAME_ID
    name = "Game, Set, Match! - Stealing Home"
    min_players = 2
    max_players = MAX_PLAYERS
    joins_mid_game = True
    options = (
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
    )

    def round_over(self, events: Sequence[Event]) -> bool:
        """A round ends with a match won, a "no fit", or a tie sent to a tiebreaker."""
        return any(event.kind in ("match_won", "no_fit", "tiebreak") for event in events)

    def setup(
        self, deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
    ) -> StealingHomeState:
        resolved = self.rules_for(rules)
        self.check_seats(seats)
        return setup.setup(deck, seats, resolved, seed)

    def decide(
        self, state: StealingHomeState, seat: int, command: Command, now: float
    ) -> list[Event]:
        return rules.decide(state, seat, command, now)

    def tick(self, state: StealingHomeState, now: float) -> list[Event]:
        return rules.tick(state, now)

    def deadline(self, state: StealingHomeState) -> float | None:
        return rules.deadline(state)

    def evolve(self, state: StealingHomeState, event: Event) -> StealingHomeState:
        return evolve(state, event)

    def view(self, state: StealingHomeState, seat: int | None) -> View:
        return views.view(state, seat)

    def legal(self, state: StealingHomeState, seat: int) -> list[Command]:
        return views.legal(state, seat)

    def replay_view(self, state: StealingHomeState) -> View:
        return views.replay_view(state)

    def results(self, state: StealingHomeState) -> list[SeatResult]:
        return views.results(state)

    def bot_command(self, view: View, rng: Rng, now: float) -> Command | None:
        return bot.bot_command(view, rng, now)

    def card_locations(self, state: StealingHomeState) -> list[tuple[int, str]]:
        """Where every card is (for the invariant tests)."""
        return card_locations(state)
