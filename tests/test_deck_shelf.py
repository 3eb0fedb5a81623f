"""The host's deck shelf: each file read once per version, shared by rooms, kept current."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from partyhost.engine.registry import get_game
from partyhost.net.config import HostConfig
from partyhost.net.deckshelf import DeckNotFound, DeckShelf, DeckUpload
from partyhost.paths import user_decks_dir
from test_deck_combine import SHIPPED, tshirt_text

TSHIRT = get_game("tshirt")


def shelf_with(folder: Path, files: dict[str, str]) -> DeckShelf:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    shelf = DeckShelf((folder,) if folder != user_decks_dir() else ())
    shelf.scan()
    return shelf


def rewrite(path: Path, text: str) -> None:
    """Write ``text`` and move the modification time on (filesystems with coarse clocks)."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before + 10**9, before + 10**9))


def entry(shelf: DeckShelf, name: str) -> dict[str, object]:
    return next(item for item in shelf.listing() if item["name"] == name)


def test_rooms_of_one_file_version_share_one_deck(tmp_path: Path) -> None:
    shelf = shelf_with(tmp_path / "decks", {"office.yaml": tshirt_text("Office")})
    first = shelf.table_deck(TSHIRT, ["office"])
    second = shelf.table_deck(TSHIRT, ["office"])
    assert first is second and first.deck is second.deck
    assert shelf.table_deck(TSHIRT, []).deck is shelf.table_deck(TSHIRT, []).deck


def test_a_changed_file_is_read_again_and_older_rooms_keep_their_cards(tmp_path: Path) -> None:
    folder = tmp_path / "decks"
    shelf = shelf_with(folder, {"office.yaml": tshirt_text("Office")})
    before = shelf.table_deck(TSHIRT, ["office"])
    rewrite(folder / "office.yaml", tshirt_text("Changed"))
    after = shelf.table_deck(TSHIRT, ["office"])
    assert after.deck.slogans[0] == "Changed number 0"
    assert before.deck.slogans[0] == "Office number 0"


def test_a_journaled_room_shares_the_deck_of_a_room_made_from_the_file(tmp_path: Path) -> None:
    shelf = shelf_with(tmp_path / "decks", {})
    fresh = shelf.table_deck(TSHIRT, ["the-t-shirt-game"])
    restored = shelf.restore(TSHIRT, fresh.name, dict(fresh.data))
    assert restored is fresh
    other = DeckShelf()
    assert other.restore(TSHIRT, fresh.name, fresh.data) is other.restore(
        TSHIRT, fresh.name, dict(fresh.data)
    )


def test_the_poll_notices_new_changed_and_removed_files(tmp_path: Path) -> None:
    folder = tmp_path / "decks"
    shelf = shelf_with(folder, {})
    assert not shelf.scan()
    rewrite(folder / "office.yaml", tshirt_text("Office", name="Office party"))
    assert shelf.scan()
    assert entry(shelf, "office")["title"] == "Office party"
    assert not shelf.scan()
    rewrite(folder / "office.yaml", tshirt_text("Office", name="Office picnic"))
    assert shelf.scan()
    assert entry(shelf, "office")["title"] == "Office picnic"
    (folder / "office.yaml").unlink()
    assert shelf.scan()
    assert all(item["name"] != "office" for item in shelf.listing())
    with pytest.raises(DeckNotFound) as missing:
        shelf.table_deck(TSHIRT, ["office"])
    assert missing.value.code == "unknown_deck"


def test_a_broken_deck_is_listed_with_its_first_problem_and_refused(tmp_path: Path) -> None:
    broken = tshirt_text().replace('"Slogan number 2"', "no").replace("version: 1", "version: 9")
    shelf = shelf_with(tmp_path / "decks", {"broken.yaml": broken})
    listed = entry(shelf, "broken")
    assert listed["game"] == "tshirt"
    assert listed["problem"] == (
        "broken.yaml:2:1: unsupported deck format version 9; this partyhost reads version 1"
        " (and 1 more)"
    )
    assert all(item["name"] != "broken" for item in shelf.for_game(TSHIRT))
    with pytest.raises(DeckNotFound) as refused:
        shelf.table_deck(TSHIRT, ["broken"])
    assert refused.value.code == "bad_deck"
    assert [(e.file, e.line, e.column) for e in refused.value.problems] == [
        ("broken.yaml", 2, 1),
        ("broken.yaml", 7, 5),
    ]


def test_a_file_that_does_not_parse_is_listed_under_the_game_it_names(tmp_path: Path) -> None:
    shelf = shelf_with(tmp_path / "decks", {"half.yaml": "game: tshirt\nslogans: [\n"})
    listed = entry(shelf, "half")
    assert listed["game"] == "tshirt"
    assert str(listed["problem"]).startswith("half.yaml:2:10: this `[` never closes")


def test_a_meme_decks_preview_starts_with_its_scenarios(tmp_path: Path) -> None:
    """What the deck is about first (its game says so), not its six colors."""
    shelf = shelf_with(tmp_path / "decks", {})
    samples = entry(shelf, "what-do-you-meme")["samples"]
    assert samples[0] not in {"blue", "purple"} and len(samples[0].split()) > 3
    assert entry(shelf, "the-t-shirt-game")["samples"][0] == "I survived the group chat"


def test_the_listing_previews_each_deck_without_the_hosts_folders(tmp_path: Path) -> None:
    folder = tmp_path / "secret-folder"
    shelf = shelf_with(folder, {"office.yaml": tshirt_text("Office")})
    listed = entry(shelf, "office")
    assert listed["cards"] == {"slogans": 40, "tshirts": 5, "hot_or_not": 5}
    assert "Office number 0" in listed["samples"]
    assert listed["source"] == "host" and listed["problem"] is None
    assert entry(shelf, "the-t-shirt-game")["source"] == "shipped"
    assert "secret-folder" not in repr(shelf.listing())


def test_a_user_deck_named_like_a_shipped_one_is_listed_with_why() -> None:
    shelf = shelf_with(user_decks_dir(), {"the-t-shirt-game.yaml": tshirt_text()})
    copies = [item for item in shelf.listing() if item["name"] == "the-t-shirt-game"]
    assert [item["source"] for item in copies] == ["shipped", "host"]
    assert copies[0]["problem"] is None
    assert "a shipped deck has the same name" in str(copies[1]["problem"])
    assert shelf.table_deck(TSHIRT, ["the-t-shirt-game"]).deck.slogans[0] != "Slogan number 0"


def test_an_upload_is_checked_like_a_file_and_every_problem_has_its_line() -> None:
    text = tshirt_text().replace('"Slogan number 2"', "yes").replace("points: 300", "points: x")
    with pytest.raises(DeckNotFound) as refused:
        DeckShelf().table_deck(TSHIRT, [], [DeckUpload("C:\\Users\\ann\\office.yaml", text)])
    assert refused.value.code == "bad_deck"
    found = [(e.file, e.line, e.column) for e in refused.value.problems]
    assert found == [("office.yaml", 7, 5), ("office.yaml", 56, 5)]
    assert refused.value.frame()["problems"][0] == {
        "file": "office.yaml",
        "line": 7,
        "column": 5,
        "message": "expected slogan 3 as text, but YAML read a yes/no word as true/false:"
        " put the text in quotes",
    }


def test_an_upload_for_another_game_is_refused() -> None:
    meme = (SHIPPED / "what-do-you-meme.yaml").read_text(encoding="utf-8")
    with pytest.raises(DeckNotFound, match="for another game"):
        DeckShelf().table_deck(TSHIRT, [], [DeckUpload("meme.yaml", meme)])


def test_a_shipped_deck_and_an_upload_play_together_and_are_both_named() -> None:
    upload = DeckUpload("friends.yaml", tshirt_text("Friend", name="Friends"))
    table = DeckShelf().table_deck(TSHIRT, ["the-t-shirt-game"], [upload])
    assert table.describe() == [
        {"name": "the-t-shirt-game", "title": "Classic", "source": "host"},
        {"name": "friends", "title": "Friends", "source": "upload"},
    ]
    assert len(table.deck.slogans) == 160 + 40
    assert table.name == "the-t-shirt-game + friends"


def test_clashing_meme_decks_point_at_the_clash_in_the_upload() -> None:
    text = (SHIPPED / "what-do-you-meme.yaml").read_text(encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith("  07:"))
    changed = text.replace("\n  07: ", '\n  07: "A brand new seventh scenario." #', 1)
    meme = get_game("meme")
    with pytest.raises(DeckNotFound) as refused:
        DeckShelf().table_deck(meme, ["what-do-you-meme"], [DeckUpload("mine.yaml", changed)])
    (problem,) = refused.value.problems
    assert (problem.file, problem.line, problem.column) == ("mine.yaml", line, 3)
    assert "scenarios.07 differs from deck 'what-do-you-meme'" in problem.message


def test_too_many_decks_for_one_room_are_refused() -> None:
    uploads = [DeckUpload(f"d{i}.yaml", tshirt_text(f"D{i}")) for i in range(4)]
    names = ["the-t-shirt-game"] + [f"x{i}" for i in range(5)]
    with pytest.raises(DeckNotFound, match="at most 8 decks"):
        DeckShelf().table_deck(TSHIRT, names, uploads)


def test_uploads_are_read_at_a_bounded_rate_and_a_text_sent_again_is_not_read_again() -> None:
    shelf = DeckShelf()
    burst = HostConfig().upload_address_burst  # one sender: its address's budget ends first
    texts = [tshirt_text(f"Deck{n}") for n in range(burst + 1)]
    first = shelf.table_deck(TSHIRT, [], [DeckUpload("d0.yaml", texts[0])])
    for n in range(1, burst):
        shelf.table_deck(TSHIRT, [], [DeckUpload(f"d{n}.yaml", texts[n])])
    with pytest.raises(DeckNotFound) as refused:
        shelf.table_deck(TSHIRT, [], [DeckUpload("late.yaml", texts[-1])])
    assert refused.value.code == "rate_limited"
    again = shelf.table_deck(TSHIRT, [], [DeckUpload("d0.yaml", texts[0])])
    assert again is first
    broken = "game: tshirt\nslogans: [\n"
    with pytest.raises(DeckNotFound) as bad:
        shelf.table_deck(TSHIRT, [], [DeckUpload("d1.yaml", broken)])
    assert bad.value.code == "rate_limited"
