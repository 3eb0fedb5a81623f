"""``partyhost decks new`` and ``decks validate --watch``: a deck of your own in a minute."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from partyhost import deckcommands
from partyhost.cli import main
from partyhost.decks.files import load_deck_file
from partyhost.engine.registry import all_games
from partyhost.paths import user_decks_dir

SHIPPED_GAMES = sorted(
    game.id for game in all_games() if game.setup.__module__.startswith("partyhost.engine.")
)


@pytest.mark.parametrize("game_id", SHIPPED_GAMES)
def test_a_new_deck_for_every_game_passes_validate_as_written(
    game_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["decks", "new", game_id, f"my-{game_id}"]) == 0
    path = user_decks_dir() / f"my-{game_id}.yaml"
    assert str(path) in capsys.readouterr().out
    assert main(["decks", "validate", str(path)]) == 0
    assert f"{path}: ok" in capsys.readouterr().out
    text = path.read_text(encoding="utf-8")
    assert f'name: "My {game_id.replace("-", " ")}"' in text
    comments = [line for line in text.splitlines() if line.lstrip().startswith("#")]
    assert len(comments) >= 15 and "partyhost decks validate" in text


def test_the_starters_cover_every_shipped_game() -> None:
    assert {"tshirt", "meme", "stealing-home", "scramble", "gridiron", "four-corners"} <= set(
        SHIPPED_GAMES
    )


def test_a_new_deck_is_listed_as_the_users_own(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["decks", "new", "meme", "office-memes"]) == 0
    capsys.readouterr()
    assert main(["decks", "list"]) == 0
    listed = capsys.readouterr().out
    line = next(row for row in listed.splitlines() if "office-memes" in row)
    assert "user" in line and "Office memes" in line


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["chess", "mine"], "no game 'chess'; one of: "),
        (["tshirt", "../escape"], "cannot be a deck name"),
        (["tshirt", "the-t-shirt-game"], "is the name of a shipped deck"),
    ],
)
def test_new_refuses_what_would_not_work(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["decks", "new", *args]) == 2
    assert said in capsys.readouterr().out
    assert not user_decks_dir().exists() or not list(user_decks_dir().iterdir())


def test_new_never_overwrites_a_deck(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["decks", "new", "tshirt", "mine"]) == 0
    path = user_decks_dir() / "mine.yaml"
    path.write_text("# my edits\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["decks", "new", "gridiron", "mine"]) == 1
    assert "already exists" in capsys.readouterr().out
    assert path.read_text(encoding="utf-8").startswith("# my edits\n")


def test_a_starter_the_checker_refuses_is_told_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "starters").mkdir()
    (tmp_path / "starters" / "tshirt.yaml").write_text(
        'game: tshirt\nname: "Starter"\nslogans: [unclosed\n', encoding="utf-8"
    )
    monkeypatch.setattr(deckcommands, "shipped_decks_dir", lambda: tmp_path)
    assert main(["decks", "new", "tshirt", "mine"]) == 1
    assert "partyhost decks new: " in capsys.readouterr().out
    assert not (user_decks_dir() / "mine.yaml").exists()


def test_watch_checks_again_after_every_save(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["decks", "new", "tshirt", "mine"]) == 0
    path = user_decks_dir() / "mine.yaml"
    good = path.read_text(encoding="utf-8")
    broken = good.replace('"Currently buffering"', "no")
    saves = iter([broken, None, good])
    capsys.readouterr()

    def save_next(seconds: float) -> None:
        text = next(saves)
        if text is not None:
            before = path.stat().st_mtime_ns
            path.write_text(text, encoding="utf-8")
            os.utime(path, ns=(before + 10**9, before + 10**9))

    result = deckcommands.watch_command(str(path), sleep=save_next, max_checks=3)
    out = capsys.readouterr().out
    assert result == 0
    assert out.count(f"{path}: ok") == 2
    problem_line = next(n for n, row in enumerate(broken.splitlines(), 1) if row == "  - no")
    assert f"{path}:{problem_line}:5:" in out and "put the text in quotes" in out
    assert out.count("changed ---") == 2


def test_watch_says_so_when_the_file_goes_away(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["decks", "new", "tshirt", "mine"]) == 0
    path = user_decks_dir() / "mine.yaml"

    def remove(seconds: float) -> None:
        path.unlink(missing_ok=True)

    assert deckcommands.watch_command(str(path), sleep=remove, max_checks=2) == 1
    assert "the file is gone" in capsys.readouterr().out


def test_watch_takes_one_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["decks", "validate", "--watch", "a.yaml", "b.yaml"]) == 2
    assert "--watch takes one file" in capsys.readouterr().err


def test_a_starter_is_a_deck_of_its_game() -> None:
    assert main(["decks", "new", "four-corners", "corners"]) == 0
    loaded = load_deck_file(user_decks_dir() / "corners.yaml")
    assert loaded.deck_game == "game-set-match" and loaded.data["name"] == "Corners"


def test_a_deck_with_a_syntax_slip_is_listed_and_validated_in_plain_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = user_decks_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "slip.yaml"
    path.write_text('game: tshirt\nversion: 1\nname: "Slip\nslogans: []\n', encoding="utf-8")
    assert main(["decks", "list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    row = listed.index(next(line for line in listed if line.lstrip().startswith("slip ")))
    assert "INVALID" in listed[row]
    assert listed[row + 1].strip() == (
        "first: slip.yaml:3:7: this text starts with a quote that never closes;"
        " add the closing quote"
    )
    assert not any("(YAML:" in line for line in listed)  # validate shows the parser's words
    assert main(["decks", "validate", str(path)]) == 1
    shown = capsys.readouterr().out.splitlines()
    assert shown[0].startswith(f"{path}:3:7: this text starts with a quote that never closes")
    assert shown[1].startswith("  (YAML: while scanning a quoted scalar")
