"""Deck text made harmless before any game or screen sees it.

A deck may come from a friend's laptop, so every text in it is cleaned the way
chat is (:func:`partyhost.engine.playertext.strip_controls`: escape
sequences, control characters and bidi controls removed), line by line, so
the line breaks of ASCII drawings stay.
"""

from __future__ import annotations

from typing import Any

from partyhost.engine.playertext import strip_controls


def clean_deck_text(text: str) -> str:
    """``text`` cleaned like a chat line, except that its line breaks stay."""
    if text.isprintable():
        return text
    return "\n".join(strip_controls(line) for line in text.split("\n"))


def clean_deck_data(value: Any) -> Any:
    """``value`` (parsed deck data) with every text cleaned; numbers kept as they are.

    Keys are left alone: the games accept only known words or two-digit
    numbers as keys, and report any other key with ``repr``, which shows a
    control character as an escape instead of obeying it.
    """
    if isinstance(value, str):
        return clean_deck_text(value)
    if isinstance(value, list):
        return [clean_deck_data(item) for item in value]
    if isinstance(value, dict):
        return {key: clean_deck_data(item) for key, item in value.items()}
    return value
