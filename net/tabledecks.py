"""What a room deals from: one deck or several played together, shared by every room.

A :class:`TableDeck` is read-only once built. Rooms that play the same cards
refer to the same one (:class:`TableDecks` finds it by content), so a host
with a hundred T-Shirt rooms holds the T-Shirt deck, and everything the game
derives from it, once.

In the journal a room keeps its deck's *data*, so a restarted host never needs
the file (or the laptop it was uploaded from) again: the data of a single deck
from this host's folders as it is (the form older journals have), anything
else as ``{"decks": [{"name", "title", "source", "data"}, ...]}``.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgpack
from partyhost.decks.combine import combine_decks
from partyhost.decks.files import LoadedDeck
from partyhost.engine.core import Game

UPLOAD = "upload"
"""The source of a deck a player sent with the room request."""


@dataclass(frozen=True)
class DeckPart:
    """One deck of a room's cards, as the room names it."""

    name: str
    title: str
    source: str
    """``shipped``, ``host`` (a deck folder of the host) or ``upload``."""

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "source": self.source}


@dataclass(frozen=True, eq=False)
class TableDeck:
    """A room's cards: the decks in play, their journal form and the game's deck object."""

    parts: tuple[DeckPart, ...]
    data: dict[str, Any]
    """The journal form (see the module's docstring); shared, never changed."""
    deck: Any
    digest: str

    @property
    def name(self) -> str:
        return " + ".join(part.name for part in self.parts)

    def describe(self) -> list[dict[str, Any]]:
        return [part.describe() for part in self.parts]


def part_of(loaded: LoadedDeck, source: str) -> DeckPart:
    title = loaded.data.get("name")
    return DeckPart(loaded.name, title if isinstance(title, str) else loaded.name, source)


def journal_form(parts: Sequence[DeckPart], datas: Sequence[dict[str, Any]]) -> dict[str, Any]:
    if len(parts) == 1 and parts[0].source != UPLOAD:
        return datas[0]
    return {
        "decks": [
            {**part.describe(), "data": data} for part, data in zip(parts, datas, strict=True)
        ]
    }


def _is_combined(data: dict[str, Any]) -> bool:
    return "game" not in data and isinstance(data.get("decks"), list)


def parts_in(deck_name: str, data: dict[str, Any]) -> list[tuple[DeckPart, dict[str, Any]]]:
    """The decks (and their data) of a room's journal form."""
    if not _is_combined(data):
        title = data.get("name")
        return [(DeckPart(deck_name, title if isinstance(title, str) else deck_name, "host"), data)]
    found = []
    for item in data["decks"]:
        part = DeckPart(str(item["name"]), str(item["title"]), str(item["source"]))
        found.append((part, item["data"]))
    return found


def decks_in_play(deck_name: str, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``decks`` a room message names: ``[{name, title, source}, ...]``."""
    return [part.describe() for part, _ in parts_in(deck_name, data)]


def _digest(game: Game, journal: dict[str, Any]) -> str:
    packed = msgpack.packb([game.deck_game, journal], use_bin_type=True)
    return hashlib.sha256(packed).hexdigest()


class TableDecks:
    """Every table deck some room still uses, by content: equal cards are built once.

    Safe to call from worker threads; a deck no room refers to any more is
    forgotten by itself (weak references).
    """

    def __init__(self) -> None:
        self._by_digest: weakref.WeakValueDictionary[str, TableDeck] = weakref.WeakValueDictionary()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._by_digest)

    def _shared(
        self,
        game: Game,
        parts: tuple[DeckPart, ...],
        datas: Sequence[dict[str, Any]],
        journal: dict[str, Any],
        single: Callable[[], Any],
    ) -> TableDeck:
        """The table deck with this journal form: found by its digest, else built.

        ``single`` builds the deck of one part; several are combined
        (:func:`~partyhost.decks.combine.combine_decks`, which raises ``CombineError``).
        """
        digest = _digest(game, journal)
        with self._lock:
            found = self._by_digest.get(digest)
        if found is not None:
            return found
        if len(parts) == 1:
            deck = single()
        else:
            _, deck = combine_decks(game, [part.name for part in parts], datas)
        built = TableDeck(parts, journal, deck, digest)
        with self._lock:
            return self._by_digest.setdefault(digest, built)

    def of(self, game: Game, decks: Sequence[tuple[LoadedDeck, str]]) -> TableDeck:
        """The table deck of these (already valid) decks and their sources."""
        parts = tuple(part_of(loaded, source) for loaded, source in decks)
        datas = [loaded.data for loaded, _ in decks]
        journal = journal_form(parts, datas)
        return self._shared(game, parts, datas, journal, lambda: decks[0][0].deck)

    def restore(self, game: Game, deck_name: str, data: dict[str, Any]) -> TableDeck:
        """The table deck of a journaled room (shared with any room playing the same cards)."""
        found = parts_in(deck_name, data)
        parts = tuple(part for part, _ in found)
        datas = [part_data for _, part_data in found]
        return self._shared(game, parts, datas, data, lambda: game.build_deck(datas[0]))
