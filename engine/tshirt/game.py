"""The T-Shirt Game as the host sees it: metadata, room options and the contract's wiring.

No rules live here; each method hands over to the module that owns its job.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partyhost.engine.core import ROUND_RESULTS, Command, Event, Game, RuleOption, SeatResult, View
from partyhost.engine.rng import Rng
from partyhost.engine.tshirt import bot, rules, setup, views
from partyhost.engine.tshirt.deck import TShirtDeck, build_deck
from partyhost.engine.tshirt.evolve import evolve
from partyhost.engine.tshirt.state import (
    MAX_SEATS,
    MIN_ACTIVE,
    Phase,
    TShirtState,
    card_locations,
)

SUBMIT_SECONDS = 90
"""The slogan timer's default: enough to read the shirt and three slogans, twice."""
JUDGE_SECONDS = 60
"""The judging (and Booyah) timer's default: enough to read every slogan aloud."""

OPTIONS = (
    RuleOption(
        "hand_size",
        "Hand size",
        "int",
        3,
        help="Slogan cards each player holds.",
        minimum=1,
        maximum=7,
    ),
    RuleOption(
        "target",
        "Points to win",
        "int",
        3000,
        help="The first player to reach this score wins.",
        minimum=500,
        maximum=20000,
    ),
    RuleOption(
        "submit_timer",
        "Slogan timer (s)",
        "int",
        SUBMIT_SECONDS,
        allow_none=True,
        minimum=10,
        maximum=600,
        help="Seconds to play a slogan; players who miss it sit the round out. Blank: no "
        "timer (one player can then hold up the round).",
    ),
    RuleOption(
        "judge_timer",
        "Judging timer (s)",
        "int",
        JUDGE_SECONDS,
        allow_none=True,
        minimum=10,
        maximum=600,
        help="Seconds for the judge to pick (then the host picks at random) and for a "
        "Booyah choice (then the card is kept).",
    ),
    RuleOption(
        "first_judge",
        "First judge (seat)",
        "int",
        None,
        allow_none=True,
        minimum=0,
        help="The seat that judges first; off picks a random seat.",
    ),
    ROUND_RESULTS,
)
ROUND_ENDS = frozenset({"drew", "round_void"})
"""Events that settle a round: a Hot or Not card drawn for the winner, or a round called off."""


class TShirtGame(Game):
    """The T-Shirt Game, registered as ``tshirt``."""

    id = "tshirt"
    name = "The T-Shirt Game"
    min_players = MIN_ACTIVE
    max_players = MAX_SEATS
    deck_game = "tshirt"
    default_deck = "the-t-shirt-game"
    options = OPTIONS
    versioned_commands = frozenset({"pick"})
    joins_mid_game = True

    def round_over(self, events: Sequence[Event]) -> bool:
        return any(event.kind in ROUND_ENDS for event in events)

    def build_deck(self, data: Any) -> TShirtDeck:
        return build_deck(data)

    def setup(
        self, deck: TShirtDeck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
    ) -> TShirtState:
        resolved = self.rules_for(rules)
        self.check_seats(seats)
        return setup.setup(deck, seats, resolved, seed)

    def decide(self, state: TShirtState, seat: int, command: Command, now: float) -> list[Event]:
        return rules.decide(state, seat, command, now)

    def evolve(self, state: TShirtState, event: Event) -> TShirtState:
        return evolve(state, event)

    def view(self, state: TShirtState, seat: int | None) -> View:
        return views.view(state, seat)

    def legal(self, state: TShirtState, seat: int) -> list[Command]:
        return views.legal(state, seat)

    def tick(self, state: TShirtState, now: float) -> list[Event]:
        return rules.tick(state, now)

    def deadline(self, state: TShirtState) -> float | None:
        return rules.deadline(state)

    def is_over(self, state: TShirtState) -> bool:
        return state.phase is Phase.OVER

    def replay_view(self, state: TShirtState) -> View:
        return views.replay_view(state)

    def results(self, state: TShirtState) -> list[SeatResult]:
        return views.results(state)

    def bot_command(self, view: View, rng: Rng, now: float) -> Command | None:
        return bot.bot_command(view, rng, now)

    def card_locations(self, state: TShirtState) -> list[tuple[tuple[str, int], str]]:
        """Every card and where it lies (optional hook for conservation checks)."""
        return card_locations(state)

    def hidden_texts(self, state: TShirtState, seat: int | None) -> set[str]:
        """Texts ``seat`` must not find in its view (optional hook for leak checks)."""
        return views.hidden_texts(state, seat)
