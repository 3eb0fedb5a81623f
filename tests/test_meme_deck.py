"""The What Do You Meme? deck file: the shipped deck is valid and every fault is named."""

from __future__ import annotations

import pytest
from memeplay import SHIPPED, shipped_deck
from partyhost.decks.files import DeckFileError, build_from_text
from partyhost.engine.core import DeckInvalid
from partyhost.engine.meme.deck import FACE_LINES, FACE_WIDTH, MemeDeck, build_deck


def _errors(text: str) -> list[str]:
    with pytest.raises(DeckFileError) as caught:
        build_from_text(text, "deck.yaml")
    return [str(error) for error in caught.value.errors]


def _problems(data: dict[str, object]) -> list[str]:
    with pytest.raises(DeckInvalid) as caught:
        build_deck(data)
    return [f"{'/'.join(map(str, p.path))}: {p.message}" for p in caught.value.problems]


def _data() -> dict[str, object]:
    return {
        "game": "meme",
        "version": 1,
        "name": "Tiny",
        "colors": [{"name": f"c{i}", "terminal": "red"} for i in range(6)],
        "memes": [{"caption": f"M{i}!", "face": "(o_o)\n"} for i in range(7)],
        "scenarios": {f"{n:02d}": f"Scenario number {n}" for n in range(100)},
    }


def test_shipped_deck_has_six_colors_seven_memes_and_a_hundred_scenarios() -> None:
    deck = shipped_deck()
    assert [color.name for color in deck.colors] == [
        "blue",
        "green",
        "orange",
        "purple",
        "red",
        "yellow",
    ]
    assert len(deck.memes) == 7 and len(deck.scenarios) == 100
    assert len({meme.caption for meme in deck.memes}) == 7
    for meme in deck.memes:
        lines = meme.face.split("\n")
        assert len(lines) <= FACE_LINES and all(len(line) <= FACE_WIDTH for line in lines)
        assert all(" " <= ch <= "~" for ch in meme.face.replace("\n", ""))
        assert meme.keywords
    assert all(0 < len(text) <= 200 for text in deck.scenarios)
    assert len(set(deck.scenarios)) == 100


def test_faces_keep_their_leading_spaces() -> None:
    text = SHIPPED.read_text(encoding="utf-8")
    assert "face: |2" in text
    assert any(meme.face.startswith(" ") for meme in shipped_deck().memes)


def test_a_small_deck_built_in_code_is_valid() -> None:
    deck = build_deck(_data())
    assert isinstance(deck, MemeDeck) and deck.scenarios[42] == "Scenario number 42"


def test_every_problem_is_listed_with_its_path() -> None:
    data = _data()
    data["colors"] = [{"name": "c0", "terminal": "orange"}, *data["colors"][1:]]  # type: ignore[index]
    memes = list(data["memes"])  # type: ignore[call-overload]
    memes[1] = {"caption": "M0!", "face": "x" * 17}
    memes[2] = {"caption": "THIS CAPTION IS TOO LONG", "face": "\n".join("o" * 7)}
    memes[3] = {"caption": "CAF\u00c9", "face": "(\u00b0_\u00b0)", "keywords": ["Big Word"]}
    data["memes"] = memes
    scenarios = dict(data["scenarios"])  # type: ignore[call-overload]
    del scenarios["17"]
    scenarios["7"] = "Too short a number"
    scenarios["05"] = "Scenario number 4"
    data["scenarios"] = scenarios
    problems = "\n".join(_problems(data))
    for expected in (
        "colors/0/terminal: terminal color 'orange' is not known",
        "memes/1/face: line 1 of the face is 17 columns wide; at most 16",
        "memes/1/caption: the caption 'M0!' is already used by entry 1; each must differ",
        "memes/2/caption: the caption is 24 characters long; at most 16",
        "memes/2/face: the face has 7 lines; at most 6",
        "memes/3/caption: the caption may use plain printable ASCII only",
        "memes/3/face: the face may use plain printable ASCII only",
        "memes/3/keywords/0: keyword 'Big Word' must be one lowercase word",
        "scenarios/7: scenario number '7' must be two digits, 00 to 99",
        "scenarios: there must be exactly 100 scenarios, numbered 00 to 99; missing 1: 17",
        "scenarios/05: scenario 05 repeats scenario 04",
    ):
        assert expected in problems, f"{expected!r} not in\n{problems}"


def test_wrong_counts_of_colors_and_memes_are_reported() -> None:
    data = _data()
    data["colors"] = data["colors"][:5]  # type: ignore[index]
    data["memes"] = [*data["memes"], {"caption": "EXTRA", "face": "x"}]  # type: ignore[misc]
    problems = "\n".join(_problems(data))
    assert "the colors: needs at least 6 entries, has 5" in problems
    assert "the memes: at most 7 entries allowed, has 8" in problems


def test_deck_file_errors_point_at_lines() -> None:
    text = SHIPPED.read_text(encoding="utf-8").replace('  42: "', '  42: no\n  420: "', 1)
    errors = _errors(text)
    assert any("scenario number '420' must be two digits" in error for error in errors)
    assert any("put the text in quotes" in error for error in errors)
    assert all(error.startswith("deck.yaml:") for error in errors)
    line = text.splitlines().index("  42: no") + 1
    assert any(error.startswith(f"deck.yaml:{line}:") for error in errors)


@pytest.mark.parametrize("section", ["colors", "memes", "scenarios"])
def test_an_empty_section_is_named_not_accepted(section: str) -> None:
    data = {**_data(), section: None}
    assert any(problem.startswith(f"{section}: expected") for problem in _problems(data))
