"""The T-Shirt Game's deck: slogans, T-shirts and Hot or Not cards, each known by its index."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from partyhost.engine.deckcheck import DeckReader, Path

GAME_ID = "tshirt"
MIN_SLOGANS = 40
MIN_TSHIRTS = 5
MIN_HOT_OR_NOT = 5
MAX_SLOGAN_LENGTH = 120
MAX_PICTURE_LENGTH = 120
MAX_VERDICT_LENGTH = 200
MAX_ART_LINES = 8
MAX_ART_COLUMNS = 30
MAX_ART_LENGTH = 1000
POINTS_LIMIT = 5000
DEFAULT_BOOYAH_POINTS = 400


@dataclass(frozen=True)
class TShirtCard:
    """A T-shirt picture to write slogans for, with optional ASCII art."""

    picture: str
    art: str = ""


@dataclass(frozen=True)
class HotOrNotCard:
    """What the world thinks of the winning shirt, and what it is worth."""

    points: int
    verdict: str
    booyah: bool = False


@dataclass(frozen=True)
class TShirtDeck:
    """The three decks; a card is its index in one of these tuples."""

    name: str
    slogans: tuple[str, ...]
    tshirts: tuple[TShirtCard, ...]
    hot_or_not: tuple[HotOrNotCard, ...]


def build_deck(data: Any) -> TShirtDeck:
    """Validate parsed deck data, reporting every problem at once (DeckInvalid)."""
    reader = DeckReader()
    root = reader.header(data, GAME_ID, ("slogans", "tshirts", "hot_or_not"))
    slogans = _slogans(reader, root["slogans"]) if "slogans" in root else ()
    tshirts = _tshirts(reader, root["tshirts"]) if "tshirts" in root else ()
    hot_or_not = _hot_or_not(reader, root["hot_or_not"]) if "hot_or_not" in root else ()
    reader.raise_if_any()
    return TShirtDeck(str(root["name"]), slogans, tshirts, hot_or_not)


def _slogans(reader: DeckReader, value: Any) -> tuple[str, ...]:
    items = reader.listing(value, ("slogans",), "slogans", minimum=MIN_SLOGANS)
    texts = [
        reader.text(item, ("slogans", index), f"slogan {index + 1}", max_length=MAX_SLOGAN_LENGTH)
        for index, item in enumerate(items)
    ]
    # A slogan already reported as unreadable comes back empty: it is no repeat.
    reader.unique(
        {index: text for index, text in enumerate(texts) if text},
        lambda index, first: (
            ("slogans", index),
            f"slogan repeats entry {first + 1}: {texts[index]!r}",
        ),
    )
    return tuple(texts)


def _tshirts(reader: DeckReader, value: Any) -> tuple[TShirtCard, ...]:
    items = reader.listing(value, ("tshirts",), "tshirts", minimum=MIN_TSHIRTS)
    cards = []
    for _, path, entry in reader.entries(items, "tshirts", "T-shirt {}", ("picture",), ("art",)):
        picture = ""
        if "picture" in entry:  # else the missing key is reported, not an empty picture too
            picture = reader.text(
                entry["picture"], (*path, "picture"), "the picture", max_length=MAX_PICTURE_LENGTH
            )
        art = _art(reader, entry["art"], (*path, "art")) if "art" in entry else ""
        cards.append(TShirtCard(picture, art))
    return tuple(cards)


def _art(reader: DeckReader, value: Any, path: Path) -> str:
    """Check a drawing's size in terminal columns; keep its leading spaces."""
    art = reader.text(value, path, "the art", max_length=MAX_ART_LENGTH, allow_empty=True)
    art = art.rstrip("\n")
    lines = art.split("\n")
    if len(lines) > MAX_ART_LINES:
        reader.problem(path, f"the art has {len(lines)} lines; at most {MAX_ART_LINES}")
    for number, line in enumerate(lines, start=1):
        width = display_width(line)
        if width > MAX_ART_COLUMNS:
            reader.problem(
                path, f"line {number} of the art is {width} columns wide; at most {MAX_ART_COLUMNS}"
            )
        # ASCII control characters are already reported by DeckReader.text.
        if any(not (char.isprintable() or char.isascii()) for char in line):
            reader.problem(path, f"line {number} of the art has characters that cannot be shown")
    return art


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes: wide characters count 2, combining marks 0."""
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def _hot_or_not(reader: DeckReader, value: Any) -> tuple[HotOrNotCard, ...]:
    items = reader.listing(value, ("hot_or_not",), "hot_or_not", minimum=MIN_HOT_OR_NOT)
    cards = []
    known = ("verdict",), ("points", "booyah")
    for _, path, entry in reader.entries(items, "hot_or_not", "Hot or Not card {}", *known):
        booyah = "booyah" in entry and reader.boolean(entry["booyah"], (*path, "booyah"), "booyah")
        if "points" in entry:
            points = reader.integer(
                entry["points"],
                (*path, "points"),
                "points",
                minimum=-POINTS_LIMIT,
                maximum=POINTS_LIMIT,
            )
        elif booyah:
            points = DEFAULT_BOOYAH_POINTS
        else:
            points = 0
            reader.problem(path, "missing key 'points' (only a Booyah card may leave it out)")
        verdict = ""
        if "verdict" in entry:
            verdict = reader.text(
                entry["verdict"], (*path, "verdict"), "the verdict", max_length=MAX_VERDICT_LENGTH
            )
        cards.append(HotOrNotCard(points, verdict, booyah))
    return tuple(cards)
