"""What Do You Meme? (the betting game): react to a scenario, guess, bet, cash in.

Each turn one player, the reactor, rolls a scenario and picks a reaction meme
face down; the others guess it with a meme of their own; then both sides bet
on the guesses. Three rounds with tokens that earn $1 when right, then a
final round betting cash at even odds. The rules as refereed are in
``docs/rules.md``; the modules here split them as deck, state, evolve, flow
(phases and timers), rules (decide), betting, views and bot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partyhost.engine.core import (
    Command,
    Event,
    Game,
    IllegalMove,
    RuleOption,
    SeatResult,
    View,
)
from partyhost.engine.meme import bot, rules, views
from partyhost.engine.meme.deck import COLOR_COUNT, MemeDeck, build_deck
from partyhost.engine.meme.evolve import evolve
from partyhost.engine.meme.flow import next_deadline
from partyhost.engine.meme.state import MemeState, Phase, Rules
from partyhost.engine.registry import register
from partyhost.engine.rng import Rng

__all__ = ["MemeGame", "MemeState", "Phase", "game"]


class MemeGame(Game):
    """The registered game object; every rule lives in the modules it delegates to."""

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
            None,
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
            None,
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
    )

    def build_deck(self, data: Any) -> MemeDeck:
        return build_deck(data)

    def setup(
        self, deck: MemeDeck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
    ) -> MemeState:
        if not self.min_players <= len(seats) <= self.max_players:
            raise IllegalMove(
                "bad_player_count",
                f"{self.name} needs {self.min_players} to {self.max_players} players.",
            )
        if len(set(seats)) != len(seats):
            raise IllegalMove("bad_seats", "Every seat may play only once.")
        resolved = self.rules_for(rules)
        order = tuple(sorted(seats))
        return MemeState(
            deck=deck,
            rules=Rules(**resolved),
            seats=order,
            rng=Rng(seed).next_u64(),
            money={seat: 0 for seat in order},
            rolloff_pending=frozenset(order),
        )

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
        if state.phase is Phase.OVER:
            return None
        return next_deadline(state)

    def is_over(self, state: MemeState) -> bool:
        return state.phase is Phase.OVER

    def replay_view(self, state: MemeState) -> View:
        return views.replay_view(state)

    def results(self, state: MemeState) -> list[SeatResult]:
        return views.results(state)

    def bot_command(self, view: View, rng: Rng, now: float) -> Command | None:
        return bot.bot_command(view, rng, now)


game = MemeGame()
register(game)
