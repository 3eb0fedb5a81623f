"""Deck files for The T-Shirt Game: every problem reported at once, with its path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from partyhost.decks.files import load_deck_file
from partyhost.engine.core import DeckInvalid
from partyhost.engine.tshirt.deck import HotOrNotCard, TShirtCard, TShirtDeck
from tshirtplay import GAME, deck_data

SHIPPED = Path(__file__).resolve().parent.parent / "decks" / "the-t-shirt-game.yaml"


def _problems(data: Any) -> dict[tuple[str | int, ...], str]:
    with pytest.raises(DeckInvalid) as invalid:
        GAME.build_deck(data)
    return {problem.path: problem.message for problem in invalid.value.problems}


def test_a_valid_deck_builds_into_frozen_cards() -> None:
    deck = GAME.build_deck(deck_data())
    assert isinstance(deck, TShirtDeck) and deck.name == "Test deck"
    assert len(deck.slogans) == 40
    assert deck.tshirts[0] == TShirtCard("Shirt 0")
    assert deck.hot_or_not[0] == HotOrNotCard(100, "Verdict 0")


def test_every_problem_is_reported_at_once_with_its_path() -> None:
    data = deck_data()
    data["slogans"][3] = "x" * 121
    data["slogans"][7] = "Slogan 2"
    data["tshirts"][1] = {"picture": "Shirt", "colour": "red"}
    data["hot_or_not"][2] = {"points": 9000, "verdict": "Too hot"}
    problems = _problems(data)
    assert set(problems) == {
        ("slogans", 3),
        ("slogans", 7),
        ("tshirts", 1, "colour"),
        ("hot_or_not", 2, "points"),
    }
    assert "at most 120" in problems[("slogans", 3)]
    assert "repeats entry 3" in problems[("slogans", 7)]
    assert "between -5000 and 5000" in problems[("hot_or_not", 2, "points")]


def test_each_deck_needs_enough_cards() -> None:
    problems = _problems(deck_data(slogans=39, tshirts=4, hot=[{"points": 1, "verdict": "v"}]))
    assert "at least 40" in problems[("slogans",)]
    assert "at least 5" in problems[("tshirts",)]
    assert "at least 5" in problems[("hot_or_not",)]


def test_an_unreadable_slogan_is_not_also_called_a_repeat() -> None:
    data = deck_data()
    data["slogans"][0] = True
    data["slogans"][1] = None
    problems = _problems(data)
    assert set(problems) == {("slogans", 0), ("slogans", 1)}


def test_art_is_at_most_eight_lines_of_thirty_columns() -> None:
    data = deck_data()
    data["tshirts"][0]["art"] = "\n".join(["#" * 30] * 9)
    data["tshirts"][1]["art"] = "界" * 16
    data["tshirts"][2]["art"] = "zero\u200bwidth space"
    problems = _problems(data)
    assert "9 lines" in problems[("tshirts", 0, "art")]
    assert "32 columns" in problems[("tshirts", 1, "art")]
    assert "cannot be shown" in problems[("tshirts", 2, "art")]


def test_art_keeps_its_leading_spaces_and_drops_the_final_newline() -> None:
    data = deck_data()
    data["tshirts"][0]["art"] = "   /\\\n  (oo)\n" + "é" * 30 + "\n"
    art = GAME.build_deck(data).tshirts[0].art
    assert art == "   /\\\n  (oo)\n" + "é" * 30


def test_only_a_booyah_card_may_leave_out_its_points() -> None:
    data = deck_data()
    data["hot_or_not"].append({"booyah": True, "verdict": "Booyah!"})
    assert GAME.build_deck(data).hot_or_not[-1] == HotOrNotCard(400, "Booyah!", True)
    data["hot_or_not"].append({"verdict": "No points"})
    assert "missing key 'points'" in _problems(data)[("hot_or_not", 6)]


def test_points_must_be_whole_numbers() -> None:
    data = deck_data()
    data["hot_or_not"][0]["points"] = 1.5
    data["hot_or_not"][1]["booyah"] = "yes"
    problems = _problems(data)
    assert "whole number" in problems[("hot_or_not", 0, "points")]
    assert "true or false" in problems[("hot_or_not", 1, "booyah")]


def test_the_deck_must_be_for_this_game() -> None:
    data = deck_data()
    data["game"] = "meme"
    assert "expected 'tshirt'" in _problems(data)[("game",)]
    assert "`key: value` lines" in _problems(["not", "a", "deck"])[()]


def test_the_shipped_deck_loads_and_has_a_booyah_card() -> None:
    if not SHIPPED.exists():
        pytest.skip("the shipped deck file is not written yet")
    deck = load_deck_file(SHIPPED).deck
    assert isinstance(deck, TShirtDeck)
    assert len(deck.slogans) >= 40 and len(deck.tshirts) >= 5
    assert any(card.booyah for card in deck.hot_or_not)
