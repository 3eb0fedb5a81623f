"""Several decks of one game played as one: the shipped T-shirts plus a friend's slogans.

Combined as data, for every game: lists are joined (a card already taken is skipped),
mappings merged key by key, anything else must agree; the game then builds the combination
like any deck, and each problem is traced back to the deck and entry it came from.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.decks.files import DataPath, DeckError, DeckFileError, parse_deck_text
from partyhost.engine.core import DeckInvalid, Game

HEADER_KEYS = frozenset({"game", "version", "name", "description", "author"})
"""Keys that describe a deck rather than hold cards: the first deck's are kept."""

Origin = tuple[int, DataPath]
"""Which deck (its index among the parts) and where in it."""


@dataclass(frozen=True)
class CombineProblem:
    """A problem of the combination, at an entry of one of its decks."""

    part: int
    path: DataPath
    message: str


class CombineError(Exception):
    """Decks that cannot be played together, with every problem found."""

    def __init__(self, problems: list[CombineProblem]) -> None:
        super().__init__("\n".join(problem.message for problem in problems))
        self.problems = problems


def _fingerprint(value: Any) -> str:
    """Equal plain data gives equal text, whatever the order of its keys."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)


class _Merger:
    def __init__(self, names: Sequence[str]) -> None:
        self.names = names
        self.merged: dict[str, Any] = {}
        self.origins: dict[DataPath, Origin] = {}
        self.problems: list[CombineProblem] = []
        self._seen: dict[str, set[str]] = {}

    def add(self, part: int, data: dict[str, Any]) -> None:
        for key, value in data.items():
            if part and key in HEADER_KEYS:
                continue
            if key not in self.merged:
                self.origins[(key,)] = (part, (key,))
                self.merged[key] = type(value)() if isinstance(value, list | dict) else value
            if isinstance(value, list) and isinstance(self.merged[key], list):
                self._join_list(part, key, value)
            elif isinstance(value, dict) and isinstance(self.merged[key], dict):
                self._join_mapping(part, key, value)
            elif _fingerprint(value) != _fingerprint(self.merged[key]):
                self._clash(part, (key,))

    def _join_list(self, part: int, key: str, items: list[Any]) -> None:
        target: list[Any] = self.merged[key]
        seen = self._seen.setdefault(key, set())
        for index, item in enumerate(items):
            fingerprint = _fingerprint(item)
            if fingerprint in seen:
                continue
            seen.add(fingerprint)
            self.origins[(key, len(target))] = (part, (key, index))
            target.append(item)

    def _join_mapping(self, part: int, key: str, entries: dict[str, Any]) -> None:
        target: dict[str, Any] = self.merged[key]
        for name, value in entries.items():
            if name not in target:
                self.origins[(key, name)] = (part, (key, name))
                target[name] = value
            elif _fingerprint(value) != _fingerprint(target[name]):
                self._clash(part, (key, name))

    def _clash(self, part: int, path: DataPath) -> None:
        earlier, _ = self.origin_of(path)
        where = ".".join(str(step) for step in path)
        self.problems.append(
            CombineProblem(
                part,
                path,
                f"{where} differs from deck {self.names[earlier]!r}, played in the same room;"
                " decks played together must agree on it",
            )
        )

    def origin_of(self, path: DataPath) -> Origin:
        """The deck and entry a path of the combination comes from (the first deck's root)."""
        for cut in range(len(path), 0, -1):
            found = self.origins.get(path[:cut])
            if found is not None:
                part, where = found
                return part, (*where, *path[cut:])
        return 0, path


def combine_decks(
    game: Game, names: Sequence[str], parts: Sequence[dict[str, Any]]
) -> tuple[dict[str, Any], Any]:
    """The combined data of ``parts`` (valid decks of ``game``, called ``names``) and its deck."""
    merger = _Merger(names)
    for part, data in enumerate(parts):
        merger.add(part, data)
    if merger.problems:
        raise CombineError(merger.problems)
    try:
        deck = game.build_deck(merger.merged)
    except DeckInvalid as invalid:
        problems = []
        for problem in invalid.problems:
            part, path = merger.origin_of(problem.path)
            problems.append(CombineProblem(part, path, problem.message))
        raise CombineError(problems) from None
    return merger.merged, deck


def located(
    problems: Sequence[CombineProblem], files: Sequence[str], texts: Sequence[str | None]
) -> list[DeckError]:
    """Problems as ``file:line:column`` errors, found in each deck's text (line 1 if none)."""
    positions: dict[int, Any] = {}
    errors = []
    for problem in problems:
        text = texts[problem.part]
        if problem.part not in positions and text is not None:
            try:
                positions[problem.part] = parse_deck_text(text, files[problem.part])[1]
            except DeckFileError:
                positions[problem.part] = None
        converter = positions.get(problem.part)
        line, column = converter.position_of(problem.path) if converter is not None else (1, 1)
        errors.append(DeckError(files[problem.part], line, column, problem.message))
    return errors
