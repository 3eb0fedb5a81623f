"""Reading deck files: YAML-style text to validated game decks, with exact errors.

Parsed with ``yaml.compose`` so every node keeps its position; nothing is built from a tag,
anchors and aliases are refused (exponential blow-ups), keys must be unique. A deck may come
from a friend's laptop, so its texts are cleaned as chat is before any game or screen sees it.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from partyhost.decks.yamlwords import explain, yaml_words
from partyhost.engine.core import DeckInvalid, Game
from partyhost.engine.playertext import strip_controls
from partyhost.engine.registry import all_games

MAX_DECK_BYTES = 512 * 1024
MAX_DEPTH = 16
MAX_NUMBER_DIGITS = 15
"""Deck numbers stay below 10**15: far beyond any card's points, well inside what
every layer (msgpack, the journal, a float) holds exactly."""
_MAX_NUMBER_TEXT = 40
"""A number written longer than this is refused before it is converted (conversion of a
huge decimal integer is slow, and Python refuses past 4,300 digits)."""

_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_STANDARD = "tag:yaml.org,2002:"
_SCALAR_TAGS = {f"{_STANDARD}{name}" for name in ("str", "int", "float", "bool", "null")}
_NUMBER_TAGS = {f"{_STANDARD}{name}" for name in ("int", "float")}

DataPath = tuple[str | int, ...]


@dataclass(frozen=True)
class DeckError:
    """One problem in a deck file, at a 1-based line and column."""

    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


class DeckFileError(Exception):
    """A deck file that cannot be used, with every problem found."""

    def __init__(self, errors: list[DeckError]) -> None:
        super().__init__("\n".join(str(error) for error in errors))
        self.errors = errors

    @classmethod
    def one(cls, file: str, message: str, line: int = 1, column: int = 1) -> DeckFileError:
        """A file with a single problem, at its start unless placed."""
        return cls([DeckError(file, line, column, message)])


@dataclass(frozen=True)
class LoadedDeck:
    """A deck file that passed validation: its data and the game's deck object."""

    name: str
    path: str
    source: str
    """Where it was found: ``shipped``, ``user`` or ``file``."""
    deck_game: str
    """The deck's ``game:`` key (shared by a game's variants)."""
    data: dict[str, Any]
    deck: Any


def _position(node: yaml.Node) -> tuple[int, int]:
    """Where a node starts, as people count: line and column from 1."""
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Converter:
    """Turns a composed node tree into plain data, remembering positions."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.errors: list[DeckError] = []
        self.positions: dict[DataPath, tuple[int, int]] = {}
        self._constructor = yaml.constructor.SafeConstructor()
        self._seen: set[int] = set()

    def error(self, node: yaml.Node, message: str) -> None:
        self.errors.append(DeckError(self.file, *_position(node), message))

    def convert(self, node: yaml.Node, path: DataPath, depth: int = 0) -> Any:
        self.positions[path] = _position(node)
        if id(node) in self._seen:
            self.error(node, "anchors and aliases (& and *) are not allowed in deck files")
            return None
        self._seen.add(id(node))
        if depth > MAX_DEPTH:
            self.error(node, f"nested deeper than {MAX_DEPTH} levels")
            return None
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path, depth)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != f"{_STANDARD}seq":
                self.error(node, f"tag {node.tag!r} is not allowed; remove it")
            return [self.convert(item, (*path, i), depth + 1) for i, item in enumerate(node.value)]
        assert isinstance(node, yaml.ScalarNode)
        if node.tag == f"{_STANDARD}timestamp":  # a date, read as the text it is written as
            return str(node.value)
        if node.tag not in _SCALAR_TAGS:
            self.error(node, f"tag {node.tag!r} is not allowed; write plain text, numbers or lists")
            return None
        if node.tag in _NUMBER_TAGS:
            return self._number(node)
        return self._constructor.construct_object(node)

    def _number(self, node: yaml.ScalarNode) -> int | float | None:
        """The number, or None with an error when it is out of range or unreadable."""
        text = str(node.value)
        value: Any = None
        if len(text) <= _MAX_NUMBER_TEXT:
            try:
                value = self._constructor.construct_object(node)
            except (ValueError, OverflowError, yaml.YAMLError) as exc:
                self.error(node, f"cannot read the number {text!r}: {exc}")
                return None
        if isinstance(value, int | float) and abs(value) < 10**MAX_NUMBER_DIGITS:  # not NaN
            return value
        shown = text if len(text) <= 24 else f"{text[:20]}... ({len(text)} characters)"
        self.error(
            node,
            f"the number {shown} is out of range: deck numbers are finite, with at most"
            f" {MAX_NUMBER_DIGITS} digits",
        )
        return None

    def _mapping(self, node: yaml.MappingNode, path: DataPath, depth: int) -> dict[str, Any]:
        if node.tag != f"{_STANDARD}map":
            self.error(node, f"tag {node.tag!r} is not allowed; remove it")
        result: dict[str, Any] = {}
        first_seen: dict[str, yaml.Node] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == f"{_STANDARD}merge":
                self.error(key_node, "keys must be plain words (no lists, mappings or '<<' merges)")
                continue
            key = str(key_node.value)
            if key in first_seen:
                earlier = first_seen[key].start_mark
                self.error(
                    key_node,
                    f"duplicate key {key!r} (first at line {earlier.line + 1}); keep only one",
                )
                continue
            first_seen[key] = key_node
            result[key] = self.convert(value_node, (*path, key), depth + 1)
            # Point problems about an entry at its key, where a person looks first.
            self.positions[(*path, key)] = _position(key_node)
        return result

    def position_of(self, path: DataPath) -> tuple[int, int]:
        """The position of ``path`` or of its nearest ancestor that exists."""
        while path and path not in self.positions:
            path = path[:-1]
        return self.positions.get(path, (1, 1))


def parse_deck_text(text: str, file: str) -> tuple[Any, _Converter]:
    """Parse deck text into plain data; raise DeckFileError on any syntax problem."""
    try:
        node = yaml.compose(text, Loader=_SafeLoader)
    except yaml.MarkedYAMLError as exc:
        found = explain(exc, text)
        message = f"{found.words}\n  (YAML: {yaml_words(exc)})"
        raise DeckFileError.one(file, message, found.line, found.column) from None
    except yaml.YAMLError as exc:
        message = f"YAML cannot read this file\n  (YAML: {yaml_words(exc)})"
        raise DeckFileError.one(file, message) from None
    converter = _Converter(file)
    if node is None:
        raise DeckFileError.one(file, "the file is empty")
    data = converter.convert(node, ())
    if converter.errors:
        raise DeckFileError(converter.errors)
    return data, converter


def read_deck_text(path: Path) -> str:
    """The file's text (see :func:`decode_deck_bytes`), refusing oversized files."""
    file = str(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_DECK_BYTES + 1)
    except OSError as exc:
        raise DeckFileError.one(file, f"cannot read file: {exc.strerror}") from None
    if len(raw) > MAX_DECK_BYTES:
        raise DeckFileError.one(file, f"file is larger than {MAX_DECK_BYTES // 1024} KiB")
    return decode_deck_bytes(raw, file)


NOT_UTF8 = "not UTF-8 text: save the file as UTF-8"


def decode_deck_bytes(raw: bytes, file: str) -> str:
    """A deck file's bytes as text: UTF-8 with or without a BOM, or UTF-16 with a BOM (what
    Windows Notepad saves); anything else is refused at its first byte that is not UTF-8."""
    utf16 = raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    try:
        return raw.decode("utf-16" if utf16 else "utf-8-sig")  # either drops the BOM
    except UnicodeDecodeError as exc:
        if utf16:
            raise DeckFileError.one(file, NOT_UTF8) from None
        unread = exc.object  # the bytes after a UTF-8 BOM
        line = unread[: exc.start].count(b"\n") + 1
        line_start = unread.rfind(b"\n", 0, exc.start) + 1
        column = len(unread[line_start : exc.start].decode("utf-8")) + 1  # characters, not bytes
        raise DeckFileError.one(file, NOT_UTF8, line, column) from None


def clean_deck_data(value: Any) -> Any:
    """``value`` (parsed deck data) with every text cleaned like a chat line, its line breaks
    kept. Keys are left alone: the games accept only known keys and report any other with
    ``repr``, which escapes controls."""
    if isinstance(value, str) and not value.isprintable():
        return "\n".join(strip_controls(line) for line in value.split("\n"))
    if isinstance(value, list):
        return [clean_deck_data(item) for item in value]
    if isinstance(value, dict):
        return {key: clean_deck_data(item) for key, item in value.items()}
    return value


def game_for_deck(data: Any, file: str, converter: _Converter) -> Game:
    """The registered game named by the deck's ``game:`` key."""
    games = {game.deck_game: game for game in all_games()}
    known = ", ".join(sorted(games))
    if not isinstance(data, dict) or "game" not in data:
        raise DeckFileError.one(file, f"missing key 'game' (one of: {known})")
    game_id = data["game"]
    if not isinstance(game_id, str) or game_id not in games:
        message = f"unknown game {game_id!r}; expected one of: {known}"
        raise DeckFileError.one(file, message, *converter.position_of(("game",)))
    return games[game_id]


def build_from_text(text: str, file: str) -> tuple[Game, dict[str, Any], Any]:
    """Parse and validate deck text; returns the game, the plain data and the deck."""
    data, converter = parse_deck_text(text, file)
    data = clean_deck_data(data)
    game = game_for_deck(data, file, converter)
    try:
        deck = game.build_deck(data)
    except DeckInvalid as invalid:
        errors = [
            DeckError(file, *converter.position_of(problem.path), problem.message)
            for problem in invalid.problems
        ]
        errors.sort(key=lambda error: (error.line, error.column))
        raise DeckFileError(errors) from None
    except Exception as exc:  # a shape the game's checks missed: still this file's problem
        message = f"the game cannot use this deck ({type(exc).__name__}: {exc})"
        raise DeckFileError.one(file, message) from None
    return game, data, deck


def load_deck_file(path: Path, source: str = "file") -> LoadedDeck:
    """Load and validate one deck file."""
    text = read_deck_text(path)
    game, data, deck = build_from_text(text, str(path))
    return LoadedDeck(path.stem, str(path), source, game.deck_game, data, deck)


def load_deck_text(text: str, file: str, name: str, source: str) -> LoadedDeck:
    """Load and validate deck text that did not come from a file here (a player's upload)."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_DECK_BYTES:
        raise DeckFileError.one(file, f"deck is larger than {MAX_DECK_BYTES // 1024} KiB")
    game, data, deck = build_from_text(text, file)
    return LoadedDeck(name, file, source, game.deck_game, data, deck)
