"""The lobby's memory of the night: tonight's standings, the past games, and their replays.

Against the fake host, which keeps a finished T-Shirt Game (number 1, a real
replay) and a meme game still being played (number 2).
"""

from __future__ import annotations

from partyhost.tui.replay.screen import ReplayScreen
from partyhost.tui.shared.pastgamesscreen import PastGamesScreen
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, screen_text, settle
from tuikit.samples_history import sample_replay

SIZE = (100, 32)


async def test_the_lobby_shows_tonights_standings_with_names_as_typed() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Tonight" in text and "By game (won/played)" in text
        assert "[red]Bob" in text, "player text is shown literally"
        assert "Scramble 1/1" in text and "$14" in text
        assert "get_standings" in host.last.sent_types()


async def test_a_finished_game_opens_page_by_page_and_steps_to_the_end() -> None:
    host = FakeHost()
    app = app_for(host)
    _, steps = sample_replay()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, PastGamesScreen)
        text = screen_text(app)
        assert "playing" in text and "Dana, Eli" in text
        await pilot.press("down", "enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert len(screen.steps) == len(steps) > 40, "every page was asked for and added"
        pages = [m for m in host.last.sent if m["t"] == "get_replay"]
        assert [m.get("first") for m in pages] == [None, *range(40, len(steps), 40)]
        await pilot.press("end")
        await settle(pilot)
        assert "The end." in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, PastGamesScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert "Tonight" in screen_text(app)


async def test_a_replay_is_asked_for_with_the_seat_token_held_for_its_room() -> None:
    host = FakeHost()
    app = app_for(host)
    _, steps = sample_replay()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.seats.joined("KQZD", "token-of-anns-seat")  # Ann played the finished game's room
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ReplayScreen) and len(app.screen.steps) == len(steps)
        pages = [m for m in host.last.sent if m["t"] == "get_replay"]
        assert len(pages) > 1 and {m.get("token") for m in pages} == {"token-of-anns-seat"}


async def test_a_running_games_replay_is_refused_by_the_host_and_nothing_opens() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("enter")  # the first row: the meme game still being played
        await settle(pilot)
        assert isinstance(app.screen, PastGamesScreen)
        assert not any(isinstance(screen, ReplayScreen) for screen in app.screen_stack)
        shown = [note.message for note in app._notifications]  # the toasts (no public list)
        assert shown == ["Game 2 (What Do You Meme? in room HTWX) is still being played."]
