"""The What Do You Meme? deck: seat colors, reaction memes and numbered scenarios.

Scenarios are keyed by their two-digit number (``28: "..."``): the dice give a
number, and a deck maker should see it next to the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from partyhost.engine.deckcheck import TERM_COLORS, DeckReader

COLOR_COUNT = 6
MEME_COUNT = 7
SCENARIO_COUNT = 100
MAX_CAPTION = 16
FACE_WIDTH = 16
FACE_LINES = 6
MAX_SCENARIO_TEXT = 200
MAX_KEYWORDS = 40
MAX_KEYWORD = 24

_HEX_COLOR = re.compile(r"#[0-9a-fA-F]{6}")
_SCENARIO_KEY = re.compile(r"[0-9]{2}")
_KEYWORD = re.compile(r"[a-z][a-z'-]*")


@dataclass(frozen=True)
class SeatColor:
    """A player's color: its name and how a terminal draws it."""

    name: str
    terminal: str


@dataclass(frozen=True)
class Meme:
    """One reaction card, held by every player in their own color; ``keywords`` hint bots only."""

    caption: str
    face: str
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class MemeDeck:
    """A validated deck: ``scenarios[n]`` is scenario number ``n`` (0-99)."""

    name: str
    colors: tuple[SeatColor, ...]
    memes: tuple[Meme, ...]
    scenarios: tuple[str, ...]


def build_deck(data: Any) -> MemeDeck:
    """Validate parsed deck data; raise DeckInvalid listing every problem."""
    reader = DeckReader()
    root = reader.header(data, "meme", ("colors", "memes", "scenarios"))
    colors = _colors(reader, root["colors"]) if "colors" in root else ()
    memes = _memes(reader, root["memes"]) if "memes" in root else ()
    scenarios = _scenarios(reader, root["scenarios"]) if "scenarios" in root else ()
    reader.raise_if_any()
    return MemeDeck(str(root["name"]), colors, memes, scenarios)


def _colors(reader: DeckReader, value: Any) -> tuple[SeatColor, ...]:
    items = reader.listing(
        value, ("colors",), "the colors", minimum=COLOR_COUNT, maximum=COLOR_COUNT
    )
    colors: list[SeatColor] = []
    names: dict[int, str] = {}
    for index, path, entry in reader.entries(items, "colors", "a color", ("name", "terminal")):
        name = reader.text(
            entry.get("name", ""), (*path, "name"), "the color's name", max_length=12
        )
        names[index] = name
        terminal = entry.get("terminal", "")
        if isinstance(terminal, str) and (
            terminal in TERM_COLORS or _HEX_COLOR.fullmatch(terminal)
        ):
            colors.append(SeatColor(name, terminal))
            continue
        if "terminal" in entry:
            reader.problem(
                (*path, "terminal"),
                f"terminal color {terminal!r} is not known: use a basic color name "
                "(red, green, yellow, blue, magenta, cyan, white, black, or bright_ before "
                'one of them) or a hex color in quotes like "#ff8700"',
            )
    _unique(reader, names, "colors", "name")
    return tuple(colors)


def _memes(reader: DeckReader, value: Any) -> tuple[Meme, ...]:
    items = reader.listing(value, ("memes",), "the memes", minimum=MEME_COUNT, maximum=MEME_COUNT)
    memes: list[Meme] = []
    captions: dict[int, str] = {}
    known = ("caption", "face"), ("keywords",)
    for index, path, entry in reader.entries(items, "memes", "a meme", *known):
        caption = reader.text(
            entry.get("caption", ""), (*path, "caption"), "the caption", max_length=MAX_CAPTION
        )
        _check_printable(reader, caption, (*path, "caption"), "the caption")
        face = _face(reader, entry.get("face", ""), (*path, "face"))
        keywords = _keywords(reader, entry.get("keywords", []), (*path, "keywords"))
        memes.append(Meme(caption.strip(), face, keywords))
        captions[index] = caption
    _unique(reader, captions, "memes", "caption")
    return tuple(memes)


def _unique(reader: DeckReader, texts: dict[int, str], section: str, key: str) -> None:
    """Report a repeated name or caption (case and spacing ignored) where it repeats."""
    reader.unique(
        texts,
        lambda index, first: (
            (section, index, key),
            f"the {key} {texts[index]!r} is already used by entry {first + 1}; each must differ",
        ),
    )


def _face(reader: DeckReader, value: Any, path: tuple[str | int, ...]) -> str:
    face = reader.text(value, path, "the face", max_length=FACE_LINES * (FACE_WIDTH + 1) + 1)
    lines = [line.rstrip() for line in face.rstrip("\n").split("\n")]
    if len(lines) > FACE_LINES:
        reader.problem(path, f"the face has {len(lines)} lines; at most {FACE_LINES}")
    for number, line in enumerate(lines, start=1):
        if len(line) > FACE_WIDTH:
            reader.problem(
                path, f"line {number} of the face is {len(line)} columns wide; at most {FACE_WIDTH}"
            )
    _check_printable(reader, "".join(lines), path, "the face")
    return "\n".join(lines)


def _check_printable(reader: DeckReader, text: str, path: tuple[str | int, ...], what: str) -> None:
    odd = sorted({ch for ch in text if not " " <= ch <= "~"})
    if odd:
        shown = ", ".join(repr(ch) for ch in odd[:5])
        reader.problem(path, f"{what} may use plain printable ASCII only; found {shown}")


def _keywords(reader: DeckReader, value: Any, path: tuple[str | int, ...]) -> tuple[str, ...]:
    items = reader.listing(value, path, "the keywords", maximum=MAX_KEYWORDS)
    words: list[str] = []
    for index, item in enumerate(items):
        word = reader.text(item, (*path, index), "a keyword", max_length=MAX_KEYWORD)
        if word and not _KEYWORD.fullmatch(word):
            reader.problem(
                (*path, index),
                f"keyword {word!r} must be one lowercase word (letters, ' and - only)",
            )
        words.append(word)
    return tuple(words)


def _scenarios(reader: DeckReader, value: Any) -> tuple[str, ...]:
    entries = reader.mapping(value, ("scenarios",), "the scenarios, keyed 00 to 99")
    if entries is None:
        return ()
    texts: dict[int, str] = {}
    keys: dict[int, Any] = {}
    """The key each scenario was found under, to point at a repeat where it is."""
    for key, text in entries.items():
        path = ("scenarios", key)
        number = _scenario_number(key)
        if number is None:
            reader.problem(path, f"scenario number {key!r} must be two digits, 00 to 99")
            continue
        if number in texts:
            reader.problem(path, f"scenario {number:02d} appears twice; keep only one")
            continue
        keys[number] = key
        texts[number] = reader.text(
            text, path, f"scenario {number:02d}", max_length=MAX_SCENARIO_TEXT
        ).strip()
        if "\n" in texts[number]:
            reader.problem(path, f"scenario {number:02d} must be one line of text")
    missing = [f"{n:02d}" for n in range(SCENARIO_COUNT) if n not in texts]
    if missing:
        shown = ", ".join(missing[:20]) + (" ..." if len(missing) > 20 else "")
        reader.problem(
            ("scenarios",),
            f"there must be exactly {SCENARIO_COUNT} scenarios, numbered 00 to 99; "
            f"missing {len(missing)}: {shown}",
        )
    reader.unique(
        texts,
        lambda number, first: (
            ("scenarios", keys[number]),
            f"scenario {number:02d} repeats scenario {first:02d}",
        ),
    )
    return tuple(texts.get(n, "") for n in range(SCENARIO_COUNT))


def _scenario_number(key: Any) -> int | None:
    """``"07"`` from a file, or a plain int from data built in code."""
    if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < SCENARIO_COUNT:
        return key
    if isinstance(key, str) and _SCENARIO_KEY.fullmatch(key):
        return int(key)
    return None
