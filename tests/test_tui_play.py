"""``partyhost play``: the quick game seats bots of the level asked for, and leaving it quits."""

from __future__ import annotations

import copy
import logging
from pathlib import Path

import pytest
from nethelpers import running_host
from partyhost.cli import build_parser
from partyhost.net.clients.client import build
from partyhost.tui.app import PartyApp
from partyhost.tui.play import (
    PLAY_LOG,
    QuickGame,
    logging_to_file,
    parse_options,
    parting_words,
    play,
    until_interrupted,
)
from partyhost.tui.shared.dialogs import ConfirmScreen
from partyhost.tui.shared.lobbyscreen import LobbyScreen
from partyhost.tui.shared.results import ResultsScreen
from textual.pilot import Pilot
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, screen_text, settle
from tuikit.samples import over_view, sample_room, seat_entry, tshirt_view, view_frame


@pytest.mark.parametrize("level", ["easy", "hard"])
async def test_the_quick_game_seats_bots_of_the_chosen_level(level: str) -> None:
    async with running_host() as host:
        quick = QuickGame("tshirt", 3, level)
        app = PartyApp(
            address=f"127.0.0.1:{host.port}",
            name="Ann",
            animate=False,
            remember=False,
            on_welcome=quick.attach,
        )
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(160):
                if app.room is not None and app.room.get("status") == "playing":
                    break
                await pilot.pause(0.05)
            assert app.room is not None and app.room["status"] == "playing"
            bots = [seat for seat in app.room["seats"] if seat["bot"]]
            assert [seat["bot_level"] for seat in bots] == [level] * 3
            # The game's screen is up before the app closes: one closed while it is still
            # being put up has no parts to fill.
            for _ in range(160):
                if getattr(app.screen, "KIND", None) == "game":
                    break
                await pilot.pause(0.05)
            await settle(pilot)


async def test_the_quick_game_goes_from_connecting_straight_to_the_game() -> None:
    async with running_host() as host:
        quick = QuickGame("tshirt", 3)
        app = PartyApp(
            address=f"127.0.0.1:{host.port}",
            name="Ann",
            animate=False,
            remember=False,
            on_welcome=quick.attach,
            solo=True,
        )
        quick.hold(app)
        shown: list[str] = []
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(160):
                kind = getattr(app.screen, "KIND", None)
                if kind is not None and (not shown or shown[-1] != kind):
                    shown.append(kind)
                if kind == "game":
                    break
                await pilot.pause(0.02)
        assert shown == ["connect", "game"]  # the lobby and the room never flash by


def test_play_takes_a_bot_level_and_refuses_others() -> None:
    parse = build_parser().parse_args
    assert parse(["play"]).level is None
    assert parse(["play", "meme", "--level", "hard"]).level == "hard"
    with pytest.raises(SystemExit):
        parse(["play", "--level", "genius"])


async def test_leaving_a_game_against_bots_alone_quits_instead_of_stranding_you() -> None:
    host = FakeHost()
    app = app_for(host, solo=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await in_game(pilot, host)
        await pilot.press("escape")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert "just you and the bots" in dialog.question and "seat" not in dialog.question
        await pilot.press("y")
        await settle(pilot)
    assert app.return_code == 0
    assert build.leave_room() not in host.last.sent


async def test_after_a_game_against_bots_enter_quits_and_the_levels_are_named() -> None:
    host = FakeHost()
    app = app_for(host, solo=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await in_game(pilot, host, over_view(), status="over")
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        text = screen_text(app)
        assert "Enter to quit" in text and "partyhost play tshirt --level easy" in text
        assert "(or --level hard)" in text  # Bea won: easier bots first for Ann
        assert "lobby" not in text
        command = next(line for line in text.splitlines() if "partyhost play" in line)
        assert command.strip().endswith("--level easy")  # nothing after it to wrap it
        screen.take_keys()
        await pilot.press("enter")
        await settle(pilot)
    assert app.return_code == 0
    assert build.leave_room() not in host.last.sent


async def test_escape_in_the_lobby_of_a_game_against_bots_quits() -> None:
    host = FakeHost()
    app = app_for(host, solo=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("escape")
        await settle(pilot)
    assert app.return_code == 0


async def in_game(
    pilot: Pilot[int],
    host: FakeHost,
    view: dict[str, object] | None = None,
    status: str = "playing",
) -> None:
    await settle(pilot)
    host.room = sample_room(status=status)
    joined = {"t": "joined", "code": "KQZD", "seat": 0, "token": "t"}
    host.last.push(joined, copy.deepcopy(host.room), view_frame(view or tshirt_view()))
    await settle(pilot)


def test_room_options_are_typed_as_name_equals_value() -> None:
    assert parse_options(["target=1000", "submit_timer=off", "rotate=on", "match=best-of-3"]) == {
        "target": 1000,
        "submit_timer": None,
        "rotate": True,
        "match": "best-of-3",
    }
    with pytest.raises(ValueError, match="NAME=VALUE"):
        parse_options(["target"])
    parse = build_parser().parse_args
    assert parse(["play", "--option", "target=500", "--bot-pace", "0.1"]).option == ["target=500"]


def test_play_refuses_an_option_the_game_would_refuse(capsys: pytest.CaptureFixture[str]) -> None:
    assert until_interrupted(play("tshirt", None, "Ann", False, options=["target=5"])) == 2
    assert "at least 500" in capsys.readouterr().err
    assert until_interrupted(play("tshirt", None, "Ann", False, bot_pace=0)) == 2


def test_play_refuses_a_table_the_engine_would_refuse(capsys: pytest.CaptureFixture[str]) -> None:
    assert until_interrupted(play("tshirt", 12, "Ann", False)) == 2
    assert (
        "The T-Shirt Game needs 3 to 10 players, not 13 (you and 12 bots)."
        in capsys.readouterr().err
    )
    assert until_interrupted(play("tshirt", 1, "Ann", False)) == 2
    assert "needs 3 to 10 players, not 2 (you and 1 bot)." in capsys.readouterr().err


def test_scramble_refuses_hints_rather_than_ignoring_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Hints would show where cards fit; arranging unchecked is Scramble's game."""
    assert until_interrupted(play("scramble", None, "Ann", False, options=["hints=on"])) == 2
    assert "Unknown option(s): hints." in capsys.readouterr().err


async def test_a_finished_game_leaves_its_winner_in_the_terminal() -> None:
    host = FakeHost()
    app = app_for(host, solo=True)
    quick = QuickGame("tshirt", 2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        quick.attach(app)
        app.room = sample_room(status="over")
        app.view = {**over_view(), "winners": [1]}
        await settle(pilot)
        app.room = sample_room(status="playing")
        app.view = tshirt_view()  # another game began just before the player quit
        await settle(pilot)
    assert quick.finished is not None
    assert parting_words(*quick.finished, "The T-Shirt Game", "tshirt") == (
        "The T-Shirt Game: Bea won. Play again: partyhost play tshirt --level easy"
        " (or --level hard)"
    )


async def test_a_player_who_beat_normal_bots_is_offered_harder_ones_first() -> None:
    host = FakeHost()
    app = app_for(host, solo=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await in_game(pilot, host, {**over_view(), "winners": [0]}, status="over")
        assert isinstance(app.screen, ResultsScreen)
        text = screen_text(app)
        assert "partyhost play tshirt --level hard" in text and "(or --level easy)" in text


def test_the_built_in_hosts_complaints_go_to_play_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The game owns the terminal: a host warning lands in the state folder's play.log,
    never on the screen, and the logging is as it was afterwards."""
    monkeypatch.setenv("PARTYHOST_STATE_DIR", str(tmp_path / "state"))
    logger = logging.getLogger("partyhost.net.rooms.room")
    with logging_to_file():
        logger.warning("room ABCD failed handling %r", "play")
        logger.info("room ABCD closed")  # below the log's level
    text = (tmp_path / "state" / PLAY_LOG).read_text(encoding="utf-8")
    assert "WARNING partyhost.net.rooms.room: room ABCD failed handling 'play'" in text
    assert "closed" not in text
    assert capsys.readouterr().err == ""
    assert logging.getLogger("partyhost").propagate
    assert not any(
        isinstance(h, logging.FileHandler) for h in logging.getLogger("partyhost").handlers
    )


@pytest.mark.parametrize(
    ("played", "offered"),
    [
        ("easy", "normal (or --level hard)"),
        ("normal", "hard (or --level easy)"),
        ("hard", "normal (or --level easy)"),
    ],
)
def test_after_a_game_the_levels_offered_are_the_ones_not_just_played(
    played: str, offered: str
) -> None:
    seats = [seat_entry(0, "Ann"), *(seat_entry(n, f"Bot {n}", bot=True) for n in (1, 2))]
    for seat in seats[1:]:
        seat["bot_level"] = played
    room = sample_room(status="over", seats=seats)
    words = parting_words({"winners": [1]}, room, "The T-Shirt Game", "tshirt")
    assert words.endswith(f"partyhost play tshirt --level {offered}")
