"""Typed reading of parsed deck data, recording every problem with its path, not just the first."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from partyhost.engine.core import DeckInvalid, DeckProblem
from partyhost.engine.playertext import looks_blank, strip_invisible

Path = tuple[str | int, ...]
Key = TypeVar("Key")

DECK_FORMAT_VERSION = 1
MAX_CARDS_PER_LIST = 2000
_BASIC = ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white")
TERM_COLORS = frozenset([*_BASIC, *(f"bright_{name}" for name in _BASIC)])
"""The 16 ANSI color names every terminal can show, for decks that color their cards."""


_KINDS: tuple[tuple[type, str], ...] = (
    (bool, "a yes/no value (true/false)"),  # before int: a bool is an int too
    (int, "a whole number"),
    (float, "a decimal number"),
    (str, "text"),
    (list, "a list"),
    (dict, "`key: value` lines"),
    (type(None), "nothing (an empty value)"),
)


def _kind_of(value: Any) -> str:
    return next((name for kind, name in _KINDS if isinstance(value, kind)), type(value).__name__)


class DeckReader:
    """Reads fields of a deck, recording a :class:`DeckProblem` for each fault."""

    def __init__(self) -> None:
        self.problems: list[DeckProblem] = []

    def problem(self, path: Path, message: str) -> None:
        self.problems.append(DeckProblem(path, message))

    def raise_if_any(self) -> None:
        if self.problems:
            raise DeckInvalid(self.problems)

    def mapping(self, value: Any, path: Path, what: str) -> dict[str, Any] | None:
        if isinstance(value, dict):
            return value
        self.problem(path, f"expected {what} as `key: value` lines, found {_kind_of(value)}")
        return None

    def listing(
        self,
        value: Any,
        path: Path,
        what: str,
        *,
        minimum: int = 0,
        maximum: int = MAX_CARDS_PER_LIST,
    ) -> list[Any]:
        if not isinstance(value, list):
            self.problem(path, f"expected {what} (a list of '- ' items), found {_kind_of(value)}")
            return []
        if len(value) < minimum:
            self.problem(path, f"{what}: needs at least {minimum} entries, has {len(value)}")
        if len(value) > maximum:
            self.problem(path, f"{what}: at most {maximum} entries allowed, has {len(value)}")
            return value[:maximum]
        return value

    def entries(
        self,
        items: list[Any],
        section: str,
        entry: str,
        required: Sequence[str],
        optional: Sequence[str] = (),
    ) -> Iterator[tuple[int, Path, dict[str, Any]]]:
        """Each of a section's ``items`` that is a mapping, its keys checked, with its index
        and path; ``entry`` names one in a problem (``{}`` in it: its number from 1)."""
        for index, item in enumerate(items):
            path: Path = (section, index)
            found = self.mapping(item, path, entry.format(index + 1))
            if found is not None:
                self.keys(found, path, required=required, optional=optional)
                yield index, path, found

    def text(
        self,
        value: Any,
        path: Path,
        what: str,
        *,
        max_length: int,
        allow_empty: bool = False,
        one_line: bool = False,
    ) -> str:
        """``value`` if it is text a table can show; else a problem is recorded.

        Text that shows nothing (only invisible, filler or combining characters) counts
        as empty: a blank card looks like a bug. ``one_line``: a line break is a problem.
        """
        if isinstance(value, bool):
            self.problem(
                path,
                f"expected {what} as text, but YAML read a yes/no word as true/false: "
                "put the text in quotes",
            )
            return ""
        if isinstance(value, (int, float)):  # YAML may have changed it: 3.10 reads as 3.1
            self.problem(path, f"{value} is a number; {what} is text: put it in quotes")
            return ""
        if isinstance(value, dict) and len(value) == 1:  # `- Warning: hot` reads as a key
            self.problem(
                path,
                f"expected {what} as text, but YAML read the `: ` inside it as a key and its"
                " value: put the text in quotes",
            )
            return ""
        if not isinstance(value, str):
            self.problem(path, f"expected {what} as text, found {_kind_of(value)}")
            return ""
        if not value.strip() and not allow_empty:
            self.problem(path, f"{what} is empty")
        elif looks_blank(value) and not allow_empty:
            self.problem(
                path,
                f"{what} shows nothing: it is only invisible, filler or combining characters",
            )
        if one_line and any(ch in value for ch in "\n\r\u2028\u2029\x85"):
            self.problem(path, f"{what} must be one line: remove the line break")
        if len(value) > max_length:
            self.problem(path, f"{what} is {len(value)} characters long; at most {max_length}")
        if any(ord(ch) < 32 and ch not in "\n" for ch in value) or "\x7f" in value:
            self.problem(path, f"{what} contains control characters; use plain text")
        return value

    def integer(self, value: Any, path: Path, what: str, *, minimum: int, maximum: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(path, f"expected {what} as a whole number, found {_kind_of(value)}")
            return 0
        if not minimum <= value <= maximum:
            self.problem(path, f"{what} must be between {minimum} and {maximum}, is {value}")
        return value

    def boolean(self, value: Any, path: Path, what: str) -> bool:
        if isinstance(value, bool):
            return value
        self.problem(path, f"expected {what} as true or false, found {_kind_of(value)}")
        return False

    def keys(
        self,
        mapping: dict[str, Any],
        path: Path,
        *,
        required: Sequence[str],
        optional: Sequence[str],
    ) -> None:
        """Report missing required keys and unknown keys (likely typos)."""
        for key in required:
            if key not in mapping:
                self.problem(path, f"missing key {key!r}")
        known = set(required) | set(optional)
        for key in mapping:
            if key not in known:
                hint = ", ".join(sorted(known))
                self.problem((*path, key), f"unknown key {key!r}; expected one of: {hint}")

    def header(self, data: Any, game_id: str, extra_keys: Sequence[str]) -> dict[str, Any]:
        """Check the keys every deck has; a deck that is not a mapping stops here."""
        root = self.mapping(data, (), "the deck")
        if root is None:
            raise DeckInvalid(self.problems)
        self.keys(
            root,
            (),
            required=("game", "version", "name", *extra_keys),
            optional=("description", "author"),
        )
        if "game" in root and root["game"] != game_id:
            self.problem(("game",), f"this deck is for game {root['game']!r}, expected {game_id!r}")
        if "version" in root:
            version = root["version"]
            if isinstance(version, bool) or version != DECK_FORMAT_VERSION:
                self.problem(
                    ("version",),
                    f"unsupported deck format version {version!r}; this partyhost reads "
                    f"version {DECK_FORMAT_VERSION}",
                )
        if "name" in root:
            self.text(root["name"], ("name",), "the deck's name", max_length=60, one_line=True)
        if "description" in root:
            self.text(root["description"], ("description",), "the description", max_length=400)
        if "author" in root:
            self.text(root["author"], ("author",), "the author", max_length=80, one_line=True)
        return root

    def unique(
        self, texts: Mapping[Key, str], repeats: Callable[[Key, Key], tuple[Path, str]]
    ) -> None:
        """Report each text that repeats an earlier one (case, spacing, invisibles ignored);
        ``repeats(key, first)`` gives where and what to tell the deck's author.
        """
        first: dict[str, Key] = {}
        for key, text in texts.items():
            folded = " ".join(strip_invisible(text).casefold().split())
            if folded in first:
                self.problem(*repeats(key, first[folded]))
            else:
                first[folded] = key
