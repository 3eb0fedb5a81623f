"""What Do You Meme? as the host sees it: metadata, room options and the contract's wiring.

No rules live here; each method hands over to the module that owns its job.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partyhost.engine.core import ROUND_RESULTS, Command, Event, Game, RuleOption, SeatResult, View
from partyhost.engine.meme import bot, rules, setup, views
from partyhost.engine.meme.deck import COLOR_COUNT, MemeDeck, build_deck
from partyhost.engine.meme.evolve import evolve
from partyhost.engine.meme.state import MemeState, Phase
from partyhost.engine.rng import Rng

PICKING_SECONDS = 60
"""The picking timer's default: a roll, a scenario to read and seven memes to weigh."""
BETTING_SECONDS = 45
"""The betting timer's default: the guesses to read and a few tokens to place."""


class MemeGame(Game):
    """What Do You Meme?, registered as ``meme``."""

    id = "meme"
    name = "What Do You Meme?"
    min_players = 2
    max_players = COLOR_COUNT
    deck_game = "meme"
    default_deck = "what-do-you-meme"
    joins_mid_game = False
    options = (
        RuleOption(
            "custom_scenarios",
            "Own scenarios",
            "bool",
            False,
            "The reactor may type their own scenario instead of rolling for one.",
        ),
        RuleOption(
            "picking_timer",
            "Picking timer (s)",
            "int",
            PICKING_SECONDS,
            "Time to roll and pick a meme. On expiry the host rolls for the reactor; a "
            "reactor who has not picked loses the turn; a guesser who has not guessed sits "
            "the turn out.",
            minimum=10,
            maximum=600,
            allow_none=True,
        ),
        RuleOption(
            "betting_timer",
            "Betting timer (s)",
            "int",
            BETTING_SECONDS,
            "Time for each betting. On expiry the reactor's missing minimum bet goes on a "
            "random guess; the others bet nothing.",
            minimum=5,
            maximum=600,
            allow_none=True,
        ),
        RuleOption(
            "away_wait",
            "Extra wait for away players (s)",
            "int",
            0,
            "How long the table still waits for a player the host marked away (no bot "
            "plays for them) before going on without them. 0: not at all.",
            minimum=0,
            maximum=600,
        ),
        ROUND_RESULTS,
    )

    def round_over(self, events: Sequence[Event]) -> bool:
        """Each turn ends with a reveal and its payouts."""
        return any(event.kind == "turn_over" for event in events)

    def build_deck(self, data: Any) -> MemeDeck:
        return build_deck(data)

    def setup(
        self, deck: MemeDeck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
    ) -> MemeState:
        resolved = self.rules_for(rules)
        self.check_seats(seats)
        return setup.setup(deck, seats, resolved, seed)

    def decide(self, state: MemeState, seat: int, command: Command, now: float) -> list[Event]:
        return rules.decide(state, seat, command, now)

    def evolve(self, state: MemeState, event: Event) -> MemeState:
        return evolve(state, event)

    def view(self, state: MemeState, seat: int | None) -> View:
        return views.view(state, seat)

    def legal(self, state: MemeState, seat: int) -> list[Command]:
        return views.legal(state, seat)

    def tick(self, state: MemeState, now: float) -> list[Event]:
        return rules.tick(state, now)

    def deadline(self, state: MemeState) -> float | None:
        return rules.deadline(state)

    def is_over(self, state: MemeState) -> bool:
        return state.phase is Phase.OVER

    def replay_view(self, state: MemeState) -> View:
        return views.replay_view(state)

    def results(self, state: MemeState) -> list[SeatResult]:
        return views.results(state)

    def bot_command(self, view: View, rng: Rng, now: float) -> Command | None:
        return bot.bot_command(view, rng, now)
