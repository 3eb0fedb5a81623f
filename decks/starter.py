"""Starter decks: a commented deck for each game (``starters/``), valid as written, to edit."""

from __future__ import annotations

import json
import re
from importlib import resources

from partyhost.decks.files import build_from_text
from partyhost.engine.core import Game

DECK_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,59}")
"""What a deck's file name (without ``.yaml``) may be: it is also its name in the lobby."""
_NAME_LINE = re.compile(r"^name: .*$", re.MULTILINE)


def title_for(name: str) -> str:
    """``office-party`` -> ``Office party``: the title a new deck starts with."""
    words = name.replace("_", " ").replace("-", " ").split()
    title = " ".join(words) or name
    return title[:1].upper() + title[1:]


def starter_deck(game: Game, name: str) -> str:
    """The starter text for ``game``, named after ``name`` and checked as any deck; raises
    ValueError if there is none."""
    template = resources.files("partyhost.decks").joinpath("starters", f"{game.deck_game}.yaml")
    if not template.is_file():
        raise ValueError(f"There is no starter deck for {game.name} yet.")
    title = f"name: {json.dumps(title_for(name))}"
    text = _NAME_LINE.sub(lambda _: title, template.read_text(encoding="utf-8"), count=1)
    build_from_text(text, f"{name}.yaml")
    return text
