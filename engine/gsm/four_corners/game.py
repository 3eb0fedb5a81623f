"""Four Corners as the host sees it: metadata, room options and the contract's wiring."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partyhost.engine.core import Command, Event, RuleOption, SeatResult, View
from partyhost.engine.gsm.cards import Deck
from partyhost.engine.gsm.four_corners import bot, rules, setup, views
from partyhost.engine.gsm.four_corners.evolve import evolve
from partyhost.engine.gsm.four_corners.state import GAME_ID, FourCornersState, card_locations
from partyhost.engine.gsm.game import HINTS, ROTATE, GsmGame
from partyhost.engine.rng import Rng


class FourCorners(GsmGame):
    """Four Corners, registered as ``four-corners``."""

    id = GAME_ID
    name = "Game, Set, Match! - Four Corners"
    min_players = 2
    max_players = 2
    options = (
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
    )

    def setup(
        self, deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
    ) -> FourCornersState:
        resolved = self.rules_for(rules)
        self.check_seats(seats)
        return setup.setup(deck, seats, resolved, seed)

    def decide(
        self, state: FourCornersState, seat: int, command: Command, now: float
    ) -> list[Event]:
        return rules.decide(state, seat, command, now)

    def tick(self, state: FourCornersState, now: float) -> list[Event]:
        return rules.tick(state, now)

    def deadline(self, state: FourCornersState) -> float | None:
        return rules.deadline(state)

    def evolve(self, state: FourCornersState, event: Event) -> FourCornersState:
        return evolve(state, event)

    def view(self, state: FourCornersState, seat: int | None) -> View:
        return views.view(state, seat)

    def legal(self, state: FourCornersState, seat: int) -> list[Command]:
        return views.legal(state, seat)

    def replay_view(self, state: FourCornersState) -> View:
        return views.replay_view(state)

    def results(self, state: FourCornersState) -> list[SeatResult]:
        return views.results(state)

    def bot_command(self, view: View, rng: Rng, now: float) -> Command | None:
        return bot.bot_command(view, rng, now)

    def card_locations(self, state: FourCornersState) -> list[tuple[int, str]]:
        """Where every card is (for the invariant tests)."""
        return card_locations(state)
