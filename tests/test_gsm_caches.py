"""Game, Set, Match! caches change speed only: bots and views answer as if built afresh.

Bots cache neighbour tables (and Scramble solutions) by the cards they saw;
views share a state's public part between seats and a card's rows between
views. Each test here compares the cached path with a fresh build over many
seeded game states, including cases built to trip a cache with a weak key.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from gsmplay import make_deck, play_bots, shipped_cards, shipped_deck
from partyhost.engine.core import Event, Game, apply
from partyhost.engine.gsm import bot as shared_bot
from partyhost.engine.gsm.board import CardTable
from partyhost.engine.gsm.deck import Deck
from partyhost.engine.gsm.four_corners.game import GAME as FOUR_CORNERS
from partyhost.engine.gsm.gridiron.game import GAME as GRIDIRON
from partyhost.engine.gsm.scramble import bot as scramble_bot
from partyhost.engine.gsm.scramble.game import GAME as SCRAMBLE
from partyhost.engine.gsm.stealing_home.game import GAME as STEALING_HOME
from partyhost.engine.rng import Rng

DECK = shipped_deck()
MIRROR = make_deck(shipped_cards()[::-1])
"""The shipped cards in reverse order: the same ids stand for other cards."""

TABLES: list[tuple[Game, list[int], dict[str, Any]]] = [
    (STEALING_HOME, [0, 1, 2, 3], {}),
    (STEALING_HOME, [0, 1, 2], {"hints": True, "rotate": False}),
    (SCRAMBLE, [0, 1, 2, 3], {"match": "best-of-3"}),
    (GRIDIRON, [0, 1, 2, 3], {}),
    (GRIDIRON, [0, 1], {"hints": True}),
    (FOUR_CORNERS, [0, 1], {}),
]


def states_of(
    game: Game, deck: Deck, seats: list[int], rules: dict[str, Any], seed: int
) -> list[Any]:
    """Every state of one bot-played game, in order."""
    found = [game.start(deck, seats, rules, seed)]

    def keep(state: Any, _events: list[Event]) -> None:
        found.append(state)

    play_bots(game, found[0], seed, check=keep)
    return found


def table_states(step: int = 1) -> Iterator[tuple[Game, Any]]:
    for game, seats, rules in TABLES:
        for seed in range(2):
            for state in states_of(game, DECK, seats, rules, seed)[::step]:
                yield game, state


def uncached_answer(
    game: Game, view: dict[str, Any], seed: int, monkeypatch: pytest.MonkeyPatch
) -> Any:
    """The bot's answer with every cache bypassed: tables and solutions built afresh."""
    with monkeypatch.context() as patch:
        patch.setattr(shared_bot, "cached_table", CardTable)
        patch.setattr(scramble_bot, "solution", scramble_bot.solution.__wrapped__)
        return game.bot_command(view, Rng(seed), 0.0)


def clear_bot_caches() -> None:
    shared_bot.cached_table.cache_clear()
    scramble_bot.solution.cache_clear()


# --- bots ----------------------------------------------------------------------


def test_cached_bot_answers_equal_fresh_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_bot_caches()
    compared = 0
    for game, state in table_states(step=2):
        for seat in state.seats:
            view = game.view(state, seat)
            cached = game.bot_command(view, Rng(compared), 0.0)
            again = game.bot_command(view, Rng(compared), 0.0)  # surely from the cache now
            fresh = uncached_answer(game, view, compared, monkeypatch)
            assert cached == again == fresh, (game.id, state.version, seat)
            compared += 1
    assert compared > 500
    assert shared_bot.cached_table.cache_info().hits > 200
    assert scramble_bot.solution.cache_info().hits > 50


def test_the_same_ids_with_other_cells_get_their_own_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two decks deal the same card ids with other cells: a key of ids alone would mix them."""
    clear_bot_caches()
    checked = 0
    for seed in range(6):
        shipped = GRIDIRON.start(DECK, [0, 1], {"first_seat": 0}, seed)
        mirror = GRIDIRON.start(MIRROR, [0, 1], {"first_seat": 0}, seed)
        assert shipped.hands == mirror.hands and shipped.board == mirror.board
        for state in (shipped, mirror):
            view = GRIDIRON.view(state, 0)
            answer = GRIDIRON.bot_command(view, Rng(seed), 0.0)
            assert answer == uncached_answer(GRIDIRON, view, seed, monkeypatch)
            assert answer is not None
            apply(GRIDIRON, state, 0, answer, 0.0)  # legal on its own deck
            checked += 1
    assert checked == 12
    assert shared_bot.cached_table.cache_info().currsize == 12


def test_a_scramble_solution_is_for_the_cells_and_turning_it_was_found_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same seven ids on another deck, or with turning off, need their own solution."""
    clear_bot_caches()
    moves = 0
    for seed in range(4):
        for deck, rotate in ((DECK, True), (DECK, False), (MIRROR, True)):
            rules = {"solvable_deals": False, "rotate": rotate}
            state = SCRAMBLE.start(deck, [0, 1], rules, seed)
            for _ in range(20):
                view = SCRAMBLE.view(state, 0)
                command = SCRAMBLE.bot_command(view, Rng(0), 0.0)
                assert command == uncached_answer(SCRAMBLE, view, 0, monkeypatch)
                if command is None or command["type"] in ("call_game", "stuck"):
                    break
                state, _ = apply(SCRAMBLE, state, 0, command, 0.0)
                moves += 1
    assert moves > 50
    assert scramble_bot.solution.cache_info().hits > moves / 2


def test_bot_caches_are_bounded() -> None:
    clear_bot_caches()
    pairs = [(a, b) for a in DECK.cards for b in DECK.cards if a.id < b.id]
    for k, pair in enumerate(pairs[: shared_bot.TABLE_CACHE_SIZE + 20]):
        shared_bot.cached_table(2, 2, tuple((card.id, card.cells) for card in pair))
        assert shared_bot.cached_table.cache_info().currsize == min(
            k + 1, shared_bot.TABLE_CACHE_SIZE
        )


# --- views ---------------------------------------------------------------------


def rows_of(deck: Deck, card: int, turned: bool) -> list[list[list[int]]]:
    """A card's rows as a view shows them, worked out from the deck directly."""
    cells = list(deck.cards[card].cells)
    if turned:
        cells.reverse()
    return [
        [list(cell) for cell in cells[r * deck.cols : (r + 1) * deck.cols]]
        for r in range(deck.rows)
    ]


def test_views_equal_views_built_first_on_a_fresh_state() -> None:
    """A seat's view after every other seat's equals its view built alone: no part leaks."""
    checked = 0
    for game, state in table_states():
        seats = [*state.seats, None, 99]
        built = {seat: game.view(state, seat) for seat in seats}
        for seat in seats:
            alone = game.view(dataclasses.replace(state), seat)
            assert alone == built[seat], (game.id, state.version, seat)
            checked += 1
        for view in built.values():
            for entry in [*view["board"], *view.get("hand", ()), *view.get("face_up", ())]:
                assert entry["cells"] == rows_of(
                    state.deck, entry["id"], entry.get("turned", False)
                )
    assert checked > 2000


def test_building_more_views_never_changes_one_already_built() -> None:
    for game, state in table_states(step=5):
        first = game.view(state, state.seats[0])
        kept = copy.deepcopy(first)
        for seat in (*state.seats, None, *state.seats):
            game.view(state, seat)
        assert first == kept


def test_seats_share_the_public_parts_of_a_state() -> None:
    """Shared objects are what makes views cheap (and the host packs them once)."""
    state = STEALING_HOME.start(DECK, [0, 1, 2], {}, seed=2)
    one, two, watcher = (STEALING_HOME.view(state, seat) for seat in (0, 1, None))
    for key in ("board", "face_up", "scores", "legend", "rules"):
        assert one[key] is two[key] is watcher[key]
    assert one["legal"][0] is two["legal"][0]  # the "match" template, alike for every claimant
    gridiron = GRIDIRON.start(DECK, [0, 1], {}, seed=2)
    mine, theirs = GRIDIRON.view(gridiron, 0), GRIDIRON.view(gridiron, 1)
    assert mine["board"] is theirs["board"] and mine["hand"] != theirs["hand"]
    assert mine["hand"][0]["cells"] is DECK.cell_rows[2 * gridiron.hands[0][0]]


def test_a_changed_state_never_shows_the_old_views() -> None:
    state = GRIDIRON.start(DECK, [0, 1], {"first_seat": 0}, seed=5)
    before = GRIDIRON.view(state, 1)
    command = GRIDIRON.bot_command(GRIDIRON.view(state, 0), Rng(1), 0.0)
    assert command is not None
    after, _ = apply(GRIDIRON, state, 0, command, 1.0)
    later = GRIDIRON.view(after, 1)
    assert len(later["board"]) == len(before["board"]) + 1
    assert later["version"] == before["version"] + 1
    assert later["turn"] == 1 and later["legal"] and not before["legal"]
    assert dataclasses.replace(state).shared_views == {}


def test_shared_parts_are_left_out_of_state_equality() -> None:
    state = FOUR_CORNERS.start(DECK, [0, 1], {}, seed=3)
    twin = copy.deepcopy(state)
    FOUR_CORNERS.view(state, 0)
    assert state.shared_views and not twin.shared_views
    assert state == twin
    assert "shared_views" not in repr(state)
