"""Deck files: exact file:line:column errors, every problem at once, nothing built from tags."""

from __future__ import annotations

import codecs
from collections.abc import Callable
from pathlib import Path

import pytest
from partyhost.cli import main
from partyhost.deckcommands import find_deck
from partyhost.decks.files import (
    MAX_DECK_BYTES,
    DeckFileError,
    build_from_text,
    decode_deck_bytes,
    load_deck_file,
)
from partyhost.engine.registry import get_game
from partyhost.net.deckshelf import DeckShelf

SHIPPED = Path(__file__).resolve().parent.parent / "decks" / "the-t-shirt-game.yaml"


def _errors(text: str) -> list[str]:
    with pytest.raises(DeckFileError) as caught:
        build_from_text(text, "deck.yaml")
    return [str(error) for error in caught.value.errors]


def _small_deck(slogans: int = 40) -> str:
    lines = ["game: tshirt", "version: 1", "name: Tiny", "slogans:"]
    lines += [f'  - "Slogan number {i}"' for i in range(slogans)]
    lines.append("tshirts:")
    lines += [f'  - picture: "Picture {i}"' for i in range(5)]
    lines.append("hot_or_not:")
    for i in range(5):
        lines += [f"  - points: {100 * (i + 1)}", f'    verdict: "Verdict {i}"']
    return "\n".join(lines) + "\n"


def test_shipped_deck_validates_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["decks", "validate", str(SHIPPED)]) == 0
    assert "ok" in capsys.readouterr().out


def test_small_deck_is_valid() -> None:
    game, data, _deck = build_from_text(_small_deck(), "deck.yaml")
    assert game.deck_game == "tshirt"
    assert data["name"] == "Tiny"


def test_broken_copy_lists_every_problem_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = SHIPPED.read_text(encoding="utf-8").splitlines()
    slogans_at = lines.index("slogans:")
    first_slogan = slogans_at + 1
    lines[first_slogan] = "  - no"  # read as false by YAML
    lines.insert(slogans_at, "nmae: Typo")  # unknown key, just above slogans
    broken = tmp_path / "broken.yaml"
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    points_line = next(i for i, line in enumerate(lines) if line.strip().startswith("- points:"))
    lines[points_line] = lines[points_line].replace("points:", "points: lots #")
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")

    assert main(["decks", "validate", str(broken)]) == 1
    out = capsys.readouterr().out
    assert f"{broken}:{slogans_at + 1}:1: unknown key 'nmae'" in out
    assert f"{broken}:{first_slogan + 2}:5:" in out and "quotes" in out
    assert f"{broken}:{points_line + 1}:" in out and "whole number" in out
    assert "3 problem(s)" in out


def test_yaml_syntax_error_names_line_and_column() -> None:
    errors = _errors("game: tshirt\nversion: 1\nslogans:\n  - [unclosed\n")
    assert len(errors) == 1
    plain, yaml_text = errors[0].split("\n")
    assert plain.startswith("deck.yaml:4:5: this `[` never closes with `]`")
    assert yaml_text.startswith("  (YAML: while parsing a flow sequence")


def test_duplicate_keys_are_errors() -> None:
    text = _small_deck().replace("name: Tiny\n", "name: Tiny\nname: Again\n")
    errors = _errors(text)
    assert errors == ["deck.yaml:4:1: duplicate key 'name' (first at line 3); keep only one"]


def test_yes_no_where_text_belongs_says_quote_it() -> None:
    text = _small_deck().replace('"Slogan number 3"', "yes")
    (error,) = _errors(text)
    assert error.startswith("deck.yaml:8:5:") and "put the text in quotes" in error


def test_tags_are_refused_and_never_constructed() -> None:
    text = _small_deck().replace('"Slogan number 0"', '!!python/object/apply:os.system ["true"]')
    errors = _errors(text)
    assert any(
        "tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed" in e for e in errors
    )


def test_anchors_and_aliases_are_refused() -> None:
    text = _small_deck().replace('"Slogan number 0"', '&a "Slogan number 0"')
    text = text.replace('"Slogan number 1"', "*a")
    errors = _errors(text)
    assert any("anchors and aliases" in error for error in errors)


def test_missing_sections_and_wrong_game_are_reported() -> None:
    errors = _errors("game: tshirt\nversion: 2\nname: Nothing\n")
    joined = "\n".join(errors)
    assert "missing key 'slogans'" in joined
    assert "unsupported deck format version 2" in joined
    assert _errors("game: chess\nversion: 1\n")[0].startswith("deck.yaml:1:1: unknown game 'chess'")


def test_oversized_file_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("game: tshirt\n" + "#" * MAX_DECK_BYTES, encoding="utf-8")
    with pytest.raises(DeckFileError, match="larger than"):
        load_deck_file(path)


def test_non_utf8_file_names_its_position(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"game: tshirt\nname: caf\xe9\n")
    with pytest.raises(DeckFileError) as caught:
        load_deck_file(path)
    assert str(caught.value.errors[0]).endswith(":2:10: not UTF-8 text: save the file as UTF-8")


ACCENTED = "name: Caf\u00e9 night\nwords: [cr\u00e8me, ol\u00e9, na\u00efve, \u2018quoted\u2019]\n"


@pytest.mark.parametrize(
    ("text", "encode"),
    [
        (ACCENTED, lambda text: text.encode("utf-8")),
        (ACCENTED.replace("\n", "\r\n"), lambda text: text.encode("utf-8")),
        (ACCENTED, lambda text: codecs.BOM_UTF8 + text.encode("utf-8")),
        (ACCENTED.replace("\n", "\r\n"), lambda text: text.encode("utf-16")),  # with a BOM
        (ACCENTED, lambda text: codecs.BOM_UTF16_BE + text.encode("utf-16-be")),
    ],
    ids=["utf8", "utf8-crlf", "utf8-bom", "utf16-crlf", "utf16-be"],
)
def test_utf8_with_or_without_a_bom_and_utf16_with_one_are_read(
    text: str, encode: Callable[[str], bytes]
) -> None:
    assert decode_deck_bytes(encode(text), "deck.yaml") == text


def test_a_cp1252_file_is_refused_at_its_first_byte_that_is_not_utf8() -> None:
    raw = "game: tshirt\r\nname: na\u00efve \u201cquotes\u201d\r\n".encode("cp1252")
    with pytest.raises(DeckFileError) as caught:
        decode_deck_bytes(raw, "deck.yaml")
    assert [str(error) for error in caught.value.errors] == [
        "deck.yaml:2:9: not UTF-8 text: save the file as UTF-8"
    ]


def test_the_column_counts_characters_not_bytes() -> None:
    raw = "name: d\u00e9j\u00e0 ".encode() + b"\x93"
    with pytest.raises(DeckFileError) as caught:
        decode_deck_bytes(raw, "deck.yaml")
    assert str(caught.value.errors[0]).startswith("deck.yaml:1:12:")  # 14 in bytes


def test_a_bom_without_text_of_its_encoding_is_refused() -> None:
    with pytest.raises(DeckFileError, match=r"deck\.yaml:1:1: not UTF-8 text"):
        decode_deck_bytes(codecs.BOM_UTF16_LE + b"\x00\xd8", "deck.yaml")  # a lone surrogate


def test_a_notepad_unicode_deck_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "cafe.yaml"
    text = _small_deck().replace("name: Tiny", "name: Caf\u00e9 night")
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-16"))
    loaded = load_deck_file(path)
    assert loaded.data["name"] == "Caf\u00e9 night"


def test_empty_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("# only a comment\n", encoding="utf-8")
    with pytest.raises(DeckFileError, match="empty"):
        load_deck_file(path)


def test_user_decks_are_found_by_name_and_cannot_shadow_shipped_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARTYHOST_CONFIG_DIR", str(tmp_path))
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "office-party.yaml").write_text(_small_deck(), encoding="utf-8")
    (folder / "the-t-shirt-game.yaml").write_text(_small_deck(), encoding="utf-8")
    (folder / "broken.yaml").write_text("game: [\n", encoding="utf-8")

    assert find_deck("office-party").source == "user"
    assert find_deck("the-t-shirt-game").source == "shipped"
    shelf = DeckShelf()
    shelf.scan()
    listings = {(entry.name, entry.source): entry for entry in shelf.entries}
    assert listings[("the-t-shirt-game", "user")].shadowed_by == "shipped"
    assert listings[("broken", "user")].version.loaded is None
    offered = [deck["name"] for deck in shelf.for_game(get_game("tshirt"))]
    assert offered == ["the-t-shirt-game", "office-party"]


def test_unknown_deck_name_says_where_it_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARTYHOST_CONFIG_DIR", str(tmp_path))
    with pytest.raises(DeckFileError, match="no deck named 'nope'"):
        find_deck("nope")


def test_decks_list_and_show_commands(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARTYHOST_CONFIG_DIR", str(tmp_path))
    assert main(["decks", "list"]) == 0
    listing = capsys.readouterr().out
    assert "the-t-shirt-game" in listing and "160 slogans" in listing
    assert main(["decks", "show", "the-t-shirt-game"]) == 0
    shown = capsys.readouterr().out
    assert "slogans (160):" in shown and "hot_or_not (70):" in shown
