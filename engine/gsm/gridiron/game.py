"""Gridiron as the host sees it: metadata, room options and the contract's wiring."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partyhost.engine.core import Command, Event, RuleOption, SeatResult, View
from partyhost.engine.gsm.cards import Deck
from partyhost.engine.gsm.game import HINTS, ROTATE, GsmGame
from partyhost.engine.gsm.gridiron import bot, rules, setup, views
from partyhost.engine.gsm.gridiron.evolve import evolve
from partyhost.engine.gsm.gridiron.state import GAME_ID, GridironState, card_locations
from partyhost.engine.rng import Rng


class Gridiron(GsmGame):
    """Gridiron, registered as ``gridiron``."""

    id = GAME_ID
    name = "Game, Set, Match! - Gridiron"
    min_players = 2
    max_players = 6
    versioned_commands = frozenset({"place", "draw", "pass"})
    options = (
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
    )

    def setup(
        self, deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
    ) -> GridironState:
        resolved = self.rules_for(rules)
        self.check_seats(seats)
        return setup.setup(deck, seats, resolved, seed)

    def decide(self, state: GridironState, seat: int, command: Command, now: float) -> list[Event]:
        return rules.decide(state, seat, command, now)

    def evolve(self, state: GridironState, event: Event) -> GridironState:
        return evolve(state, event)

    def view(self, state: GridironState, seat: int | None) -> View:
        return views.view(state, seat)

    def legal(self, state: GridironState, seat: int) -> list[Command]:
        return views.legal(state, seat)

    def replay_view(self, state: GridironState) -> View:
        return views.replay_view(state)

    def results(self, state: GridironState) -> list[SeatResult]:
        return views.results(state)

    def bot_command(self, view: View, rng: Rng, now: float) -> Command | None:
        return bot.bot_command(view, rng, now)

    def bot_delay(self, level: str) -> tuple[float, float] | None:
        """Turns, not a race: the host's own pace (scaled by level) suits it."""
        return None

    def card_locations(self, state: GridironState) -> list[tuple[int, str]]:
        """Where every card is (for the invariant tests)."""
        return card_locations(state)
