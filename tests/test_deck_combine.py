"""Deck data from anyone: cleaned like chat, previewed at a glance, combined with other decks."""

from __future__ import annotations

from pathlib import Path

import pytest
from partyhost.decks.catalog import declared_game
from partyhost.decks.combine import CombineError, combine_decks, located
from partyhost.decks.files import MAX_DECK_BYTES, DeckFileError, build_from_text, load_deck_text
from partyhost.decks.preview import card_counts, card_text, sample_cards
from partyhost.engine.registry import get_game

SHIPPED = Path(__file__).resolve().parent.parent / "decks"


def tshirt_text(prefix: str = "Slogan", slogans: int = 40, name: str = "Tiny") -> str:
    lines = ["game: tshirt", "version: 1", f"name: {name}", "slogans:"]
    lines += [f'  - "{prefix} number {i}"' for i in range(slogans)]
    lines.append("tshirts:")
    lines += [f'  - picture: "{prefix} picture {i}"' for i in range(5)]
    lines.append("hot_or_not:")
    for i in range(5):
        lines += [f"  - points: {100 * (i + 1)}", f'    verdict: "{prefix} verdict {i}"']
    return "\n".join(lines) + "\n"


def test_escape_sequences_and_controls_in_deck_text_are_removed_like_chat() -> None:
    text = tshirt_text().replace(
        '"Slogan number 0"', '"Red \\e[31mflag\\e[0m \\u202eevil \\x9b2Jdone"'
    )
    _, data, deck = build_from_text(text, "deck.yaml")
    assert data["slogans"][0] == "Red flag evil done"
    assert deck.slogans[0] == "Red flag evil done"


def test_line_breaks_of_drawings_survive_cleaning() -> None:
    text = tshirt_text().replace(
        '  - picture: "Slogan picture 0"',
        '  - picture: "Slogan picture 0"\n    art: "(o>\\n//\\\\\\n\\e[2JV_/_"',
    )
    _, data, _ = build_from_text(text, "deck.yaml")
    assert data["tshirts"][0]["art"] == "(o>\n//\\\nV_/_"


def test_a_preview_counts_cards_per_section_and_shows_a_few() -> None:
    _, data, _ = build_from_text(
        (SHIPPED / "what-do-you-meme.yaml").read_text(encoding="utf-8"), "m.yaml"
    )
    assert card_counts(data) == {"colors": 6, "memes": 7, "scenarios": 100}
    samples = sample_cards(data)
    assert 3 <= len(samples) <= 6
    assert "blue" in samples and "NOPE." in samples
    assert samples[0] == "blue"  # file order, unless the game names what comes first
    shown_first = sample_cards(data, ("scenarios", "memes"))
    scenarios = {card_text(card) for card in data["scenarios"].values()}
    assert set(shown_first[:2]) <= scenarios and shown_first[2] == "NOPE."
    assert sorted(shown_first) == sorted(samples)  # the same cards, in another order
    assert all("\n" not in sample and len(sample) <= 60 for sample in samples)


def test_a_card_shape_is_not_counted_as_cards() -> None:
    _, data, _ = build_from_text(
        (SHIPPED / "game-set-match.yaml").read_text(encoding="utf-8"), "g.yaml"
    )
    assert "shape" not in card_counts(data)
    assert card_counts(data)["cards"] == 60


def test_the_game_of_a_broken_file_is_still_read() -> None:
    assert declared_game("# a comment\ngame: 'tshirt'\nslogans: [\n") == "tshirt"
    assert declared_game("slogans: []\n") is None


def test_two_decks_of_one_game_play_as_one_with_repeats_dropped() -> None:
    game = get_game("tshirt")
    _, first, _ = build_from_text(tshirt_text("Ours"), "ours.yaml")
    _, second, _ = build_from_text(tshirt_text("Theirs"), "theirs.yaml")
    merged, deck = combine_decks(game, ["ours", "theirs", "ours again"], [first, second, first])
    assert len(deck.slogans) == 80 and len(deck.tshirts) == 10
    assert merged["name"] == "Tiny"
    assert deck.slogans[40] == "Theirs number 0"


def test_a_repeat_across_decks_is_reported_in_the_deck_that_repeats() -> None:
    game = get_game("tshirt")
    ours_text = tshirt_text("Ours")
    theirs_text = tshirt_text("Theirs").replace('"Theirs number 7"', '"OURS  number 3"')
    _, ours, _ = build_from_text(ours_text, "ours.yaml")
    _, theirs, _ = build_from_text(theirs_text, "theirs.yaml")
    with pytest.raises(CombineError) as caught:
        combine_decks(game, ["ours", "theirs"], [ours, theirs])
    (error,) = located(
        caught.value.problems, ["ours.yaml", "theirs.yaml"], [ours_text, theirs_text]
    )
    assert (error.file, error.line, error.column) == ("theirs.yaml", 12, 5)
    assert "repeats" in error.message


def test_decks_that_disagree_on_a_setting_name_the_setting_and_the_other_deck() -> None:
    game = get_game("stealing-home")
    text = (SHIPPED / "game-set-match.yaml").read_text(encoding="utf-8")
    other = text.replace("  rows: 2\n", "  rows: 3\n", 1)
    _, first, _ = build_from_text(text, "classic.yaml")
    with pytest.raises(DeckFileError):  # a 3-row shape does not fit 2-row cards on its own
        build_from_text(other, "tall.yaml")
    tall = dict(first, shape={"rows": 3, "cols": 2})
    with pytest.raises(CombineError) as caught:
        combine_decks(game, ["classic", "tall"], [first, tall])
    (problem,) = caught.value.problems
    assert problem.part == 1 and problem.path == ("shape", "rows")
    assert "'classic'" in problem.message
    (error,) = located(caught.value.problems, ["classic.yaml", "tall.yaml"], [text, other])
    assert error.file == "tall.yaml" and other.splitlines()[error.line - 1] == "  rows: 3"


def test_an_uploaded_text_is_refused_over_the_size_cap() -> None:
    with pytest.raises(DeckFileError, match="larger than"):
        load_deck_text("game: tshirt\n#" + "x" * MAX_DECK_BYTES, "big.yaml", "big", "upload")
