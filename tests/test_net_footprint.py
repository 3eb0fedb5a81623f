"""A replay's bytes in memory are counted whole: every object it reaches, once."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from partyhost.engine.rng import Rng
from partyhost.net.store.footprint import footprint
from partyhost.net.store.records import playable_deck
from partyhost.net.store.replaybuilder import build_replay
from test_chaos import kept, played_room


@dataclass(frozen=True, slots=True)
class Slotted:
    cards: tuple[str, ...]


def test_shared_data_counts_once_and_shared_objects_not_at_all() -> None:
    cards = tuple(f"card {n}" for n in range(100))
    alone = footprint(cards)
    assert alone > 100 * sys.getsizeof("card 10")
    twice = [cards, cards]
    assert footprint(twice) == sys.getsizeof(twice) + alone
    assert footprint(Slotted(cards)) == sys.getsizeof(Slotted(cards)) + alone
    assert footprint(twice, shared=[cards]) == sys.getsizeof(twice)
    assert footprint({"rng": Rng(1), "kind": Rng}) > sys.getsizeof({}) + sys.getsizeof(Rng(1))


def test_a_replays_size_holds_its_copy_of_the_deck() -> None:
    stored = played_room("meme", seats=4)
    store = kept(stored, stored.commands)
    game_id = store.game_of_room(stored.room.code, stored.room.seed or 0)
    assert game_id is not None
    archived = store.archived(game_id)
    assert archived is not None
    replay = build_replay(archived)
    deck = footprint(playable_deck(replay.game, archived.deck_data))
    assert replay.size >= deck + sum(sys.getsizeof(command) for command in replay.commands)
    assert abs(replay.size - footprint(replay, shared=[replay.game])) < replay.size / 20
