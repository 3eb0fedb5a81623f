"""Every registered game, played to the end by bots many times, checked after every step.

After OpenSpiel's random_sim_test: seeded random tables (seat counts, options,
players drifting away, coming back, joining and leaving) are played through
``apply``/``apply_tick`` only, with the bots choosing from each seat's view.
After every step the test checks what every game promises:

* views and events are plain msgpack data with text keys only;
* no view shows a text the game says that seat cannot know
  (for the T-Shirt Game, ``tshirtplay.hidden_texts``);
* every card is in exactly one place and none appears or vanishes
  (the optional ``card_locations`` declaration);
* a player's shown score equals the points of the face-up cards shown for them;
* replaying the same seed and accepted commands gives an identical final state.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
import pytest
from partyhost.decks.files import load_deck_file
from partyhost.engine.core import (
    SYSTEM_SEAT,
    Command,
    Event,
    Game,
    IllegalMove,
    RuleOption,
    apply,
    apply_tick,
)
from partyhost.engine.registry import all_games
from partyhost.engine.rng import Rng
from tshirtplay import hidden_texts

DECKS = Path(__file__).resolve().parent.parent / "decks"
GAMES_PER_CHUNK = 40
CHUNKS = 5
MAX_STEPS = 3000
MAX_TABLE = 4
DEFAULTS_EVERY = 20
HIDDEN_TEXTS = {"tshirt": hidden_texts}
"""Per game id: the texts a seat must not find in its view."""


@dataclass
class Table:
    """One random game being played, with everything needed to replay it."""

    game: Game
    deck: Any
    seats: list[int]
    rules: dict[str, Any]
    seed: int
    first_seats: tuple[int, ...] = ()
    state: Any = None
    now: float = 0.0
    away: set[int] = field(default_factory=set)
    gone: set[int] = field(default_factory=set)
    journal: list[tuple[int | None, Command | None, float]] = field(default_factory=list)
    """Accepted steps in order: (seat, command, now), or (None, None, now) for a tick."""

    def present(self) -> list[int]:
        return [seat for seat in self.seats if seat not in self.gone]


def _deck(game: Game) -> Any:
    path = DECKS / f"{game.default_deck}.yaml"
    if not path.exists():
        pytest.skip(f"no shipped deck {path.name} for {game.id}")
    return load_deck_file(path).deck


def _random_rules(options: tuple[RuleOption, ...], rng: Rng) -> dict[str, Any]:
    """Each option off, or near the low end of its range.

    The low end keeps games short (small targets, short timers) so hundreds fit
    in a few seconds; every ``DEFAULTS_EVERY``-th game plays the room's defaults.
    """
    rules: dict[str, Any] = {}
    for option in options:
        if option.allow_none and rng.below(2):
            rules[option.name] = None
        elif option.kind == "int" and option.minimum is not None and option.maximum is not None:
            span = (option.maximum - option.minimum) // 16
            rules[option.name] = option.minimum + rng.below(span + 1)
        elif option.kind == "bool":
            rules[option.name] = bool(rng.below(2))
        elif option.kind == "choice":
            rules[option.name] = rng.choice(option.choices)
    return rules


def _packed(value: Any) -> bytes:
    """msgpack bytes of ``value``, checking msgpack carries it and every map key is text."""
    packed = msgpack.packb(value)
    msgpack.unpackb(packed, strict_map_key=True)
    return packed


@functools.cache
def _packed_text(text: str) -> bytes:
    return msgpack.packb(text)


def _check_view(table: Table, seat: int | None) -> dict[str, Any]:
    game, state = table.game, table.state
    view: dict[str, Any] = game.view(state, seat)
    packed = _packed(view)
    hidden = HIDDEN_TEXTS.get(game.id)
    if hidden is not None:
        # A packed text is its length header then its bytes: look for exactly that.
        leaked = [text for text in hidden(state, seat) if _packed_text(text) in packed]
        assert not leaked, f"seat {seat} sees hidden texts {leaked[:3]}"
    for player in view.get("players", []):
        cards = player.get("cards")
        if "score" in player and isinstance(cards, list) and all("points" in c for c in cards):
            assert player["score"] == sum(card["points"] for card in cards), player
    if seat is None:
        assert view.get("legal", []) == []
    return view


def _check_state(table: Table, cards: set[Hashable]) -> dict[int, dict[str, Any]]:
    """Check the invariants; returns each present seat's view (for the bots)."""
    locations = table.game.card_locations
    if locations is not None:
        listed = [card for card, _place in locations(table.state)]
        assert len(listed) == len(set(listed)), "a card is in two places"
        assert set(listed) == cards, "a card appeared or vanished"
    _check_view(table, None)
    return {seat: _check_view(table, seat) for seat in table.present()}


def _check_events(events: list[Event]) -> None:
    """Events go out as plain data: the public part and each seat's private extras."""
    for event in events:
        for seat in (None, *event.private):
            shown = event.for_seat(seat)
            if shown is not None:
                _packed(shown)


def _accept(table: Table, seat: int | None, command: Command | None) -> bool:
    """Apply a command (or a tick when ``seat`` is None); False if it was refused."""
    try:
        if seat is None:
            table.state, events = apply_tick(table.game, table.state, table.now)
        else:
            assert command is not None
            table.state, events = apply(table.game, table.state, seat, command, table.now)
    except IllegalMove:
        return False
    table.journal.append((seat, command, table.now))
    _check_events(events)
    return True


def _system(table: Table, kind: str, seat: int) -> bool:
    return _accept(table, SYSTEM_SEAT, {"type": kind, "seat": seat})


def _seat_change(table: Table, rng: Rng) -> bool:
    """Now and then a player drifts away, comes back, joins or leaves for good."""
    roll = rng.below(200)
    present = table.present()
    here = [seat for seat in present if seat not in table.away]
    if roll < 3 and here:
        seat = rng.choice(here)
        if _system(table, "seat_away", seat):
            table.away.add(seat)
            return True
    elif roll < 8 and table.away:
        seat = rng.choice(sorted(table.away))
        if _system(table, "seat_back", seat):
            table.away.discard(seat)
            return True
    elif roll < 9 and table.game.joins_mid_game and len(present) < table.game.max_players:
        seat = max(table.seats) + 1
        if _system(table, "seat_joined", seat):
            table.seats.append(seat)
            return True
    elif roll < 10 and not table.gone and len(present) > table.game.min_players:
        seat = rng.choice(present)
        if _system(table, "seat_left", seat):
            table.gone.add(seat)
            table.away.discard(seat)
            return True
    return False


def _unstick(table: Table) -> None:
    """Nobody can act and no timer runs: bring someone back so play goes on."""
    if table.away:
        seat = min(table.away)
        assert _system(table, "seat_back", seat)
        table.away.discard(seat)
    else:
        seat = max(table.seats) + 1
        assert table.game.joins_mid_game, "stuck with nobody to act"
        assert _system(table, "seat_joined", seat), "stuck and nobody can join"
        table.seats.append(seat)


def _play(game: Game, deck: Any, seed: int) -> Table:
    rng = Rng(seed)
    top = min(game.max_players, MAX_TABLE)
    seats = list(range(game.min_players + rng.below(top - game.min_players + 1)))
    rules = {} if seed % DEFAULTS_EVERY == 0 else _random_rules(game.options, rng)
    table = Table(game, deck, seats, rules, seed, tuple(seats))
    table.state = game.start(deck, seats, table.rules, seed)
    locations = game.card_locations
    cards = {card for card, _ in locations(table.state)} if locations else set()
    bots = Rng(seed ^ 0x5EED)
    for _ in range(MAX_STEPS):
        if game.is_over(table.state):
            break
        views = _check_state(table, cards)
        table.now += 1.0
        if _seat_change(table, rng):
            continue
        due = game.deadline(table.state)
        if due is not None and (due <= table.now or rng.below(20) == 0):
            table.now = max(table.now, due)
            assert _accept(table, None, None)
            continue
        acting = [seat for seat in table.present() if seat not in table.away]
        moves = [(seat, game.bot_command(views[seat], bots, table.now)) for seat in acting]
        ready = [(seat, command) for seat, command in moves if command is not None]
        if ready:
            seat, command = rng.choice(ready)
            assert _accept(table, seat, command), f"bot command {command} refused"
        elif due is not None:
            table.now = max(table.now, due)
            assert _accept(table, None, None)
        else:
            _unstick(table)
    _check_state(table, cards)
    assert game.is_over(table.state), f"seed {seed}: no end after {MAX_STEPS} steps"
    return table


def _replay(table: Table) -> Any:
    """The final state rebuilt from the seed and the accepted steps alone."""
    game = table.game
    state = game.start(table.deck, table.first_seats, table.rules, table.seed)
    for seat, command, now in table.journal:
        if seat is None:
            state, _ = apply_tick(game, state, now)
        else:
            assert command is not None
            state, _ = apply(game, state, seat, command, now)
    return state


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_random_games_keep_every_promise(game: Game, chunk: int) -> None:
    deck = _deck(game)
    for seed in range(chunk * GAMES_PER_CHUNK, (chunk + 1) * GAMES_PER_CHUNK):
        table = _play(game, deck, seed)
        assert _replay(table) == table.state
