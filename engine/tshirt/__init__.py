"""The T-Shirt Game: match slogans to T-shirts; the judge's favourite wins Hot or Not cards.

This module only wires the contract of :class:`partyhost.engine.core.Game` to
the package's modules (deck, start, commands, evolve, views, bot, audit) and
registers the game as ``tshirt``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partyhost.engine.core import Command, Event, Game, SeatResult, View
from partyhost.engine.registry import register
from partyhost.engine.rng import Rng
from partyhost.engine.tshirt import audit, bot, commands, views
from partyhost.engine.tshirt.deck import TShirtDeck, build_deck
from partyhost.engine.tshirt.evolve import evolve
from partyhost.engine.tshirt.start import OPTIONS, new_game
from partyhost.engine.tshirt.state import MAX_SEATS, MIN_ACTIVE, Phase, TShirtState


class TShirtGame(Game):
    """The T-Shirt Game as the host sees it."""

    id = "tshirt"
    name = "The T-Shirt Game"
    min_players = MIN_ACTIVE
    max_players = MAX_SEATS
    deck_game = "tshirt"
    default_deck = "the-t-shirt-game"
    options = OPTIONS
    versioned_commands = frozenset({"pick"})
    joins_mid_game = True

    def build_deck(self, data: Any) -> TShirtDeck:
        return build_deck(data)

    def setup(
        self, deck: TShirtDeck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
    ) -> TShirtState:
        return new_game(deck, seats, rules, seed)

    def decide(self, state: TShirtState, seat: int, command: Command, now: float) -> list[Event]:
        return commands.decide(state, seat, command, now)

    def evolve(self, state: TShirtState, event: Event) -> TShirtState:
        return evolve(state, event)

    def view(self, state: TShirtState, seat: int | None) -> View:
        return views.view(state, seat)

    def legal(self, state: TShirtState, seat: int) -> list[Command]:
        return views.legal(state, seat)

    def tick(self, state: TShirtState, now: float) -> list[Event]:
        return commands.tick(state, now)

    def deadline(self, state: TShirtState) -> float | None:
        return state.deadline

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
        return audit.card_locations(state)

    def hidden_texts(self, state: TShirtState, seat: int | None) -> set[str]:
        """Texts ``seat`` must not find in its view (optional hook for leak checks)."""
        return audit.hidden_texts(state, seat)


GAME = register(TShirtGame())
