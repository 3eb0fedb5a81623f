"""The create-room dialog and decks: the host's decks with previews and broken ones named,
a deck file from this computer, and the host's problems with their lines and columns."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from partyhost.cli import main
from partyhost.engine.registry import all_games
from partyhost.net import protocol as p
from partyhost.tui.app import PartyApp
from partyhost.tui.hostlink import FrameReader
from partyhost.tui.shared.dialogs import CreateRoomScreen, DeckProblemsScreen
from partyhost.tui.shared.roomscreen import RoomScreen
from textual.widgets import Input, Select, Static
from tuikit.fakehost import FakeHost
from tuikit.pilot import catch_join, screen_text, settle
from tuikit.samples import sample_room, sample_rooms

SIZE = (80, 24)

STARTERS = Path(__file__).resolve().parent.parent / "decks" / "starters"
CLASSIC = {
    "name": "the-t-shirt-game",
    "title": "Classic",
    "description": "The original deck.",
    "game": "tshirt",
    "source": "shipped",
    "cards": {"slogans": 160, "tshirts": 70, "hot_or_not": 70},
    "samples": ["I survived the group chat", "A penguin on a unicycle"],
    "problem": None,
}
BROKEN = {
    **CLASSIC,
    "name": "broken",
    "title": "broken",
    "cards": {},
    "samples": [],
    "problem": "broken.yaml:14:5: expected slogan 3 as text (and 2 more)",
}
UNREADABLE = {
    **BROKEN,
    "name": "half",
    "game": None,
    "problem": "half.yaml:2:10: this `[` never closes\n  (YAML: while parsing a flow node)",
}
MEME_DECK = {**CLASSIC, "name": "what-do-you-meme", "game": "meme", "title": "Memes"}


def app_for(host: FakeHost, **kwargs: object) -> PartyApp:
    return PartyApp(
        host, address="partybox:7000", name="Ann", animate=False, remember=False, **kwargs
    )  # type: ignore[arg-type]


def file_problem(app: PartyApp) -> str:
    """What the dialog says under the deck file field (the whole text, however it wraps)."""
    shown = app.screen.query_one("#deck-file-problem", Static)
    return str(shown.content) if shown.display else ""


def sent(host: FakeHost, kind: str) -> list[dict[str, object]]:
    return [frame for frame in host.last.sent if frame["t"] == kind]


def test_decks_and_deck_problems_become_messages() -> None:
    reader = FrameReader()
    listed = reader.read({"t": "decks", "decks": [CLASSIC, "junk"]})
    assert listed is not None and listed.kind == "decks" and listed.data == (CLASSIC,)
    problem = {"file": "a.yaml", "line": 2, "column": 3, "message": "m"}
    error = reader.read({"t": "error", "code": "bad_deck", "message": "x", "problems": [problem]})
    assert error is not None and error.kind == "error" and error.data["problems"] == [problem]


async def test_the_dialog_previews_host_decks_names_broken_ones_and_follows_changes() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert sent(host, "list_decks")
        host.last.push({"t": p.DECKS, "decks": [CLASSIC, BROKEN, UNREADABLE, MEME_DECK]})
        await pilot.press("c")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, CreateRoomScreen)
        assert dialog.offered == ["the-t-shirt-game"]
        text = screen_text(app)
        assert "160 slogans, 70 T-shirts, 70 Hot or Not cards" in text
        assert '"I survived the group chat"' in text
        assert "Not offered: broken.yaml:14:5: expected slogan 3" in text
        assert "Not offered: half.yaml:2:10: this `[` never closes" in text
        assert "while parsing" not in text  # the parser's words stay for decks validate
        fresh = {**CLASSIC, "name": "fresh", "title": "Fresh", "samples": ["Brand new"]}
        host.last.push({"t": p.DECKS, "decks": [CLASSIC, fresh]})
        await settle(pilot)
        assert dialog.offered == ["the-t-shirt-game", "fresh"]
        assert dialog.query_one("#deck", Select).value == "the-t-shirt-game"
        assert "Not offered" not in screen_text(app)


def test_the_dialog_lists_the_hosts_games_by_name() -> None:
    """The four Game, Set, Match! games stand together, not around What Do You Meme?."""
    welcome_games = [game.describe() for game in all_games()]  # as a host sends them
    names = [game["name"] for game in CreateRoomScreen(welcome_games).games]
    assert names == sorted(names, key=str.casefold)
    variants = [n for n, name in enumerate(names) if name.startswith("Game, Set, Match!")]
    assert variants == list(range(variants[0], variants[0] + 4))


async def test_a_deck_file_from_this_computer_goes_with_the_request(tmp_path: Path) -> None:
    deck = tmp_path / "office.yaml"
    deck.write_text((STARTERS / "tshirt.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, CreateRoomScreen)
        dialog.query_one("#deck-file", Input).value = str(deck)
        await pilot.press("ctrl+s")
        await settle(pilot)
        (create,) = sent(host, "create_room")
        assert create["deck"] == "the-t-shirt-game"
        assert create["deck_files"] == [
            {"name": "office.yaml", "text": deck.read_text(encoding="utf-8")}
        ]
        p.validate_client_message(create)
        assert app.create_choices == {
            "game": "tshirt",
            "deck": "the-t-shirt-game",
            "deck_file": str(deck),
        }


async def test_a_file_that_cannot_be_sent_keeps_the_dialog_open(tmp_path: Path) -> None:
    too_big = tmp_path / "huge.yaml"
    too_big.write_text("game: tshirt\n" + "#" * 70_000, encoding="utf-8")
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        app.screen.query_one("#deck-file", Input).value = str(too_big)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, CreateRoomScreen)
        assert not sent(host, "create_room")
        assert "may total 62 KiB;" in file_problem(app)
        app.screen.query_one("#deck-file", Input).value = str(tmp_path / "missing.yaml")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, CreateRoomScreen)
        assert "missing.yaml: cannot read it" in file_problem(app)


async def test_join_with_a_deck_opens_the_dialog_with_the_file_and_its_game(
    tmp_path: Path,
) -> None:
    deck = tmp_path / "faces.yaml"
    deck.write_text((STARTERS / "meme.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    host = FakeHost()
    welcome = host.welcome
    meme = copy.deepcopy(welcome["games"][0])
    meme.update(id="meme", name="What Do You Meme?", deck_game="meme", decks=[MEME_DECK])
    meme["default_deck"] = "what-do-you-meme"
    welcome["games"].append(meme)
    app = app_for(host, deck_file=str(deck))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, CreateRoomScreen)
        assert dialog.query_one("#game", Select).value == "meme"
        assert dialog.query_one("#deck", Select).value is Select.NULL
        assert "none: only my deck file" in screen_text(app)
        await pilot.press("ctrl+s")
        await settle(pilot)
        (create,) = sent(host, "create_room")
        assert create["game"] == "meme" and "deck" not in create
        assert create["deck_files"] == [
            {"name": "faces.yaml", "text": deck.read_text(encoding="utf-8")}
        ]
        await pilot.press("escape")  # leave the fake host's room: try again from the lobby
        host.last.push({"t": "left", "code": "KQZD", "reason": "left"})
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        assert app.screen.query_one("#deck", Select).value is Select.NULL
        await pilot.press("ctrl+s")
        await settle(pilot)
        again = sent(host, "create_room")[-1]
        assert again["game"] == "meme" and "deck" not in again and again["deck_files"]


async def test_the_hosts_problems_are_shown_with_line_and_column() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        problems = [
            {"file": "mine.yaml", "line": 7, "column": 5, "message": "put the text in quotes"},
            {"file": "mine.yaml", "line": 56, "column": 13, "message": "a whole number"},
        ]
        host.last.push({"t": "error", "code": "bad_deck", "message": "no", "problems": problems})
        await settle(pilot)
        assert isinstance(app.screen, DeckProblemsScreen)
        text = screen_text(app)
        assert "mine.yaml:7:5  put the text in quotes" in text
        assert "mine.yaml:56:13  a whole number" in text
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, DeckProblemsScreen)


async def test_the_room_names_every_deck_in_play() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        room = sample_room()
        room["decks"] = [
            {"name": "the-t-shirt-game", "title": "Classic", "source": "host"},
            {"name": "office", "title": "Office party", "source": "upload"},
        ]
        host.last.push({"t": "joined", "code": "KQZD", "seat": 0, "token": "t"}, room)
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        assert "Classic + Office party (sent) decks" in screen_text(app)


def test_join_refuses_a_deck_file_that_is_not_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["join", "127.0.0.1:1", "--deck", str(tmp_path / "nope.yaml")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_join_checks_a_deck_file_before_connecting_and_says_what_to_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = catch_join(monkeypatch)
    fine = tmp_path / "faces.yaml"
    fine.write_text((STARTERS / "meme.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["join", "127.0.0.1:1", "--deck", str(fine), "--no-remember"]) == 0
    assert [client["deck_file"] for client in opened] == [str(fine)]  # the file handed over
    broken = tmp_path / "office.yaml"
    broken.write_text(
        'game: tshirt\nversion: 1\nname: Office\nslogans:\n  - "Unclosed\n  - "Next"\n',
        encoding="utf-8",
    )
    assert main(["join", "127.0.0.1:1", "--deck", str(broken), "--no-remember"]) == 2
    assert len(opened) == 1  # the broken file never got as far as connecting
    err = capsys.readouterr().err
    assert f"--deck {broken}: 1 problem(s) to fix first" in err
    assert f"{broken}:5:5: this text starts with a quote that never closes" in err
    assert "(YAML: " in err


def test_the_dialog_note_names_what_to_fix_in_a_typed_deck_file(tmp_path: Path) -> None:
    from partyhost.tui.shared.dialogs import deck_file_note

    fine = tmp_path / "faces.yaml"
    fine.write_text((STARTERS / "meme.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert deck_file_note(str(fine)).plain.endswith(": sent with the request")
    broken = tmp_path / "office.yaml"
    broken.write_text("game: tshirt\nversion: 1\nname: Office\nslogans:\n\t- x\n", encoding="utf-8")
    assert deck_file_note(str(broken)).plain == (
        "office.yaml: fix first, line 5, column 1: a tab; indent with spaces"
    )
    assert deck_file_note(str(tmp_path / "none.yaml")).plain.startswith("No file at ")


async def test_the_lobby_marks_a_room_playing_a_sent_deck_whatever_its_title() -> None:
    """A sent copy of the shipped deck, titled like it, is never shown as the host's."""
    host = FakeHost()
    sent_copy = {
        **sample_rooms()[0],
        "code": "WXYR",
        "deck": "the-t-shirt-game (sent)",
        "decks": [{"name": "the-t-shirt-game (sent)", "title": "Classic", "source": "upload"}],
    }
    host.rooms = [sample_rooms()[0], sent_copy]
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lines = screen_text(app).splitlines()
        [shipped_row] = [line for line in lines if "KQZD" in line]
        [sent_row] = [line for line in lines if "WXYR" in line]
        assert "Classic" in shipped_row and "(sent)" not in shipped_row
        assert "Classic (sent)" in sent_row
