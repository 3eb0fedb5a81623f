"""Deck syntax mistakes are told in plain words at the line that needs the fix.

PyYAML reports where its parser got lost, often a line late and always in
parser words; each test breaks a deck the way a person does and checks the
line, the column and the words, with PyYAML's text kept as a second line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from partyhost.decks.files import DeckFileError, build_from_text

SHIPPED = Path(__file__).resolve().parent.parent / "decks" / "the-t-shirt-game.yaml"


def _only_error(text: str) -> str:
    with pytest.raises(DeckFileError) as caught:
        build_from_text(text, "deck.yaml")
    assert len(caught.value.errors) == 1, caught.value.errors
    return str(caught.value.errors[0])


def _shipped_with(line_number: int, replacement: str) -> str:
    """The shipped T-Shirt deck with its line ``line_number`` (from 1) replaced."""
    lines = SHIPPED.read_text(encoding="utf-8").split("\n")
    lines[line_number - 1] = replacement
    return "\n".join(lines)


def _shipped_line(starting: str) -> int:
    """The number (from 1) of the shipped deck's first line starting with ``starting``."""
    lines = SHIPPED.read_text(encoding="utf-8").split("\n")
    return next(i for i, line in enumerate(lines, 1) if line.startswith(starting))


SLOGAN = _shipped_line("  - ") + 2
"""A slogan line of the shipped deck (its third slogan)."""
VERDICT = _shipped_line("    verdict: ")


def test_an_unclosed_quote_is_named_at_its_own_line_not_the_next() -> None:
    text = _shipped_with(SLOGAN, '  - "Powered by snacks and poor decisions')
    error = _only_error(text)
    first, second = error.split("\n")
    assert first == (
        f"deck.yaml:{SLOGAN}:5: this text starts with a quote that never closes;"
        " add the closing quote"
    )
    assert second.startswith("  (YAML: ") and "expected '-' indicator" in second


def test_an_unclosed_quote_after_a_key_and_at_the_end_of_the_file() -> None:
    assert _only_error(_shipped_with(VERDICT, '    verdict: "The world shrugs.')).startswith(
        f"deck.yaml:{VERDICT}:14: this text starts with a quote that never closes"
    )
    assert _only_error("game: tshirt\nname: 'Office\n").startswith(
        "deck.yaml:2:7: this text starts with a quote that never closes"
    )


def test_a_tab_is_called_a_tab() -> None:
    error = _only_error(_shipped_with(SLOGAN, '\t- "Powered by snacks"'))
    assert error.startswith(f"deck.yaml:{SLOGAN}:1: a tab; indent with spaces\n  (YAML: ")
    error = _only_error(_shipped_with(VERDICT, '\tverdict: "Fine."'))
    assert error.startswith(f"deck.yaml:{VERDICT}:1: a tab; indent with spaces")
    assert _only_error("slogans:\n  -\tone\n").startswith("deck.yaml:2:4: a tab;")


def test_an_over_indented_key_is_named() -> None:
    error = _only_error(_shipped_with(VERDICT, '      verdict: "The world shrugs."'))
    assert error.startswith(
        f"deck.yaml:{VERDICT}:7: `verdict:` is indented more than the lines above it"
    )
    assert "mapping values are not allowed" in error.split("\n")[1]


@pytest.mark.parametrize(
    "line", ['  "Powered by snacks and poor decisions"', "  Powered by snacks and poor decisions"]
)
def test_a_list_item_without_its_dash(line: str) -> None:
    error = _only_error(_shipped_with(SLOGAN, line))
    assert error.startswith(f"deck.yaml:{SLOGAN}:3: a list item needs a `- ` in front\n")


def test_a_mapping_item_without_its_dash() -> None:
    text = 'hot_or_not:\n  - points: 1\n    verdict: "a"\n  points: 2\n  verdict: "b"\n'
    assert _only_error(text).startswith("deck.yaml:4:3: a list item needs a `- ` in front")


def test_a_colon_inside_unquoted_text() -> None:
    error = _only_error(_shipped_with(VERDICT, "    verdict: The world shrugs: nobody noticed"))
    assert error.startswith(
        f"deck.yaml:{VERDICT}:14: this text has `: ` inside; put the text in quotes\n"
    )
    assert _only_error("game: tshirt\nname: Office: party\n").startswith(
        "deck.yaml:2:7: this text has `: ` inside; put the text in quotes"
    )


def test_a_colon_inside_an_unquoted_list_item() -> None:
    error = _only_error(_shipped_with(SLOGAN, "  - Warning: may start talking about bread"))
    assert error == (
        f"deck.yaml:{SLOGAN}:5: expected slogan 3 as text, but YAML read the `: ` inside it"
        " as a key and its value: put the text in quotes"
    )


def test_a_number_where_text_belongs() -> None:
    error = _only_error(_shipped_with(SLOGAN, "  - 42"))
    assert error == f"deck.yaml:{SLOGAN}:5: 42 is a number; slogan 3 is text: put it in quotes"
    # Quoted, the same characters are a slogan.
    build_from_text(_shipped_with(SLOGAN, '  - "42"'), "deck.yaml")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("game: tshirt\nslogans: [\n", "deck.yaml:2:10: this `[` never closes with `]`"),
        ("a: {x: 1\nb: 2\n", "deck.yaml:1:4: this `{` never closes with `}`"),
        ("slogans:\n  - @home\n", "deck.yaml:2:5: text cannot start with `@`; put the text in"),
        ("slogans:\n  - `x`\n", "deck.yaml:2:5: text cannot start with a backtick"),
        ("slogans:\n  - * star\n", "deck.yaml:2:5: text cannot start with `*`"),
        ('slogans:\n  - "Nice" shirt\n', "deck.yaml:2:12: text goes on after the closing quote"),
        ("a:\n  b: 1\n c: 2\n", "deck.yaml:3:2: this line is indented differently"),
        ("game: tshirt\n---\nname: x\n", "deck.yaml:2:1: a `---` line starts a second deck"),
        ("s:\n  01: a\n02: b\n  03: c\n", "deck.yaml:3:1: this line is indented less than"),
        ("s:\n  01: a\n  - 02: b\n", "deck.yaml:3:3: this line starts with `- `, but the"),
        ("s:\n  - a\n- b\n", "deck.yaml:3:1: this line does not line up with the list"),
        (
            "c:\n  - name: blue\n   term: blue\n",
            "deck.yaml:3:4: this line is indented differently from the lines above it",
        ),
        (
            "art: |\n    ( o.o )\n|  > ^ <\n",
            "deck.yaml:3:1: this line is indented less than the drawing above it",
        ),
        ("art: |x\n  drawing\n", "deck.yaml:1:6: after `|` nothing may follow on its line"),
    ],
)
def test_other_syntax_mistakes_in_plain_words(text: str, expected: str) -> None:
    error = _only_error(text)
    assert error.startswith(expected)
    assert "\n  (YAML: " in error


def test_quotes_in_earlier_lines_that_close_are_not_blamed() -> None:
    text = 'slogans:\n  - "It\'s fine"\n  - \'Say "hi"\'\n  - "a" b\n'
    assert _only_error(text).startswith("deck.yaml:4:9: text goes on after the closing quote")


def test_any_broken_copy_of_a_shipped_deck_gets_words_and_a_line_in_the_file() -> None:
    """Random edits of the shipped decks: every syntax error is explained, none escapes."""
    import random

    decks = sorted((SHIPPED.parent).glob("*.yaml"))
    texts = [path.read_text(encoding="utf-8") for path in decks]
    pieces = ['"', "'", "\t", ": ", "  ", "- ", "[", "{", "#", "\n", "@", "|", "`", "---\n"]
    chance = random.Random(27)
    explained = 0
    for _ in range(300):
        text = chance.choice(texts)
        at = chance.randrange(len(text))
        text = text[:at] + chance.choice(pieces) + text[at + chance.randrange(2) :]
        try:
            build_from_text(text, "deck.yaml")
        except DeckFileError as caught:
            first = caught.errors[0]
            assert 1 <= first.line <= text.count("\n") + 2
            words = first.message.split("\n")[0]
            assert "while parsing" not in words and "while scanning" not in words
            explained += "\n  (YAML: " in first.message
    assert explained > 50  # many of the edits broke the YAML itself
