"""What a deck holds at a glance: how many cards of each kind, and a few of them.

A *card section* is a top-level list, or a mapping of cards (not of settings, whose values
are all numbers).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from partyhost.decks.combine import HEADER_KEYS

SAMPLES_PER_SECTION = 2
MAX_SAMPLES = 6
SAMPLE_LENGTH = 60


def card_sections(data: dict[str, Any]) -> dict[str, list[Any]]:
    """Each card section's cards, in file order."""
    sections: dict[str, list[Any]] = {}
    for key, value in data.items():
        if isinstance(value, dict) and not all(
            isinstance(item, (int, float, bool)) for item in value.values()
        ):
            value = list(value.values())
        if key not in HEADER_KEYS and isinstance(value, list):
            sections[key] = value
    return sections


def card_counts(data: dict[str, Any]) -> dict[str, int]:
    """Cards per section, in file order: ``{"slogans": 160, "tshirts": 70, ...}``."""
    return {key: len(cards) for key, cards in card_sections(data).items()}


def describe_counts(data: dict[str, Any]) -> str:
    """The deck's card counts in words: ``160 slogans, 70 tshirts``."""
    return ", ".join(f"{count} {section}" for section, count in card_counts(data).items())


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= SAMPLE_LENGTH else line[: SAMPLE_LENGTH - 1].rstrip() + "…"


def card_text(card: Any) -> str:
    """A card as one short line: its text, or the first text it holds."""
    if isinstance(card, str):
        return _one_line(card)
    if isinstance(card, dict):
        for value in card.values():
            if isinstance(value, str) and value.strip() and "\n" not in value.strip():
                return _one_line(value)
    return _one_line(str(card))


def sample_cards(data: dict[str, Any], first: Sequence[str] = ()) -> list[str]:
    """A few cards from each section, spread over it, at most :data:`MAX_SAMPLES` in all:
    the sections named in ``first`` (the game's :attr:`~partyhost.engine.core.Game.deck_preview`)
    before the others, which follow in file order."""
    sections = list(card_sections(data).items())
    order = {key: place for place, key in enumerate(first)}
    sections.sort(key=lambda section: order.get(section[0], len(order)))  # stable: file order
    samples: list[str] = []
    for _, cards in sections:
        step = max(1, len(cards) // SAMPLES_PER_SECTION)
        samples.extend(card_text(card) for card in cards[::step][:SAMPLES_PER_SECTION])
    return samples[:MAX_SAMPLES]
