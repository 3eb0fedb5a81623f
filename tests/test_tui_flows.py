"""The client's flows against a scripted host: every request comes from what the view allows."""

from __future__ import annotations

import copy
import json
import re

import pytest
from partyhost.engine.meme.game import GAME as MEME
from partyhost.net.clients.client import build
from partyhost.tui.app import PartyApp
from partyhost.tui.help import HelpScreen
from partyhost.tui.shared.chat import ChatInput, ChatPanel, ChatScreen
from partyhost.tui.shared.connect import load_remembered, settings_path
from partyhost.tui.shared.dialogs import (
    ConfirmScreen,
    CreateRoomScreen,
    JoinRoomScreen,
    ReconnectingScreen,
)
from partyhost.tui.shared.lobbyscreen import LobbyScreen
from partyhost.tui.shared.options import OptionsForm
from partyhost.tui.shared.results import ResultsScreen
from partyhost.tui.shared.roomscreen import RoomScreen
from partyhost.tui.tshirt.dialogs import BooyahScreen
from partyhost.tui.tshirt.results import TShirtResultsScreen
from partyhost.tui.tshirt.screen import TShirtScreen
from textual.app import App, ComposeResult
from textual.geometry import Size
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Button
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, screen_text, settle
from tuikit.samples import (
    HAND,
    booyah_view,
    over_view,
    sample_room,
    sample_welcome,
    seat_entry,
    tshirt_view,
    view_frame,
)

SIZE = (80, 24)


async def in_room(
    pilot: Pilot[int], host: FakeHost, *frames: dict[str, object], status: str = "lobby"
) -> None:
    """Seat the app in the fake host's room (seat 0, owner), then deliver ``frames``."""
    await settle(pilot)
    host.room = sample_room(status=status)
    host.last.push(
        {"t": "joined", "code": "KQZD", "seat": 0, "token": "t"}, copy.deepcopy(host.room), *frames
    )
    await settle(pilot)


async def pressed(pilot: Pilot[int], *keys: str) -> Screen[object]:
    """Press ``keys``, let the app settle, and return the screen on top."""
    await pilot.press(*keys)
    await settle(pilot)
    return pilot.app.screen


async def in_game(pilot: Pilot[int], host: FakeHost, view: dict[str, object]) -> None:
    await in_room(pilot, host, view_frame(view), status="playing")


def played(host: FakeHost) -> list[dict[str, object]]:
    return [frame["cmd"] for frame in host.last.sent if frame.get("t") == "play"]


async def test_connect_screen_remembers_the_address_and_name() -> None:
    host = FakeHost()
    app = PartyApp(host, animate=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#address")
        await pilot.press(*"partybox:7000")
        app.screen.query_one("#name").value = ""  # type: ignore[attr-defined]
        await pilot.click("#name")
        await pilot.press(*"Zoë", "enter")
        await settle(pilot)
        assert host.calls == [("partybox", 7000, "Zoë")]
        assert isinstance(app.screen, LobbyScreen)
    assert load_remembered().address == "partybox:7000"
    assert json.loads(settings_path().read_text(encoding="utf-8"))["name"] == "Zoë"
    again = PartyApp(FakeHost(), animate=False)
    async with again.run_test(size=SIZE) as pilot:
        assert again.screen.query_one("#address").value == "partybox:7000"  # type: ignore[attr-defined]


async def test_a_refused_connection_is_explained_and_the_app_keeps_running() -> None:
    host = FakeHost(refuse=ConnectionRefusedError(111, "refused"))
    app = app_for(host, address="partybox:7000")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "Nobody is hosting at partybox:7000" in screen_text(app)
        assert app.is_running


async def test_lobby_lists_rooms_and_creates_one_with_deck_options_and_password() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "KQZD" in text and "PLMX" in text and "[red]Mallory" in text
        await pilot.press("c")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, CreateRoomScreen)
        dialog.query_one("#deck").value = "office-party"  # type: ignore[attr-defined]
        dialog.query_one("#option-target").value = "2000"  # type: ignore[attr-defined]
        dialog.query_one("#password").value = "hunter2"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await settle(pilot)
        create = next(f for f in host.last.sent if f["t"] == "create_room")
        assert create == build.create_room(
            "tshirt",
            deck="office-party",
            options={"hand_size": 3, "target": 2000, "submit_timer": None},
            password="hunter2",
        )
        assert isinstance(app.screen, RoomScreen)


async def test_a_room_password_is_three_tabs_from_the_game() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        assert app.focused is not None and app.focused.id == "game"
        await pilot.press("tab", "tab", "tab", *"pw", "ctrl+s")  # deck, deck file, password
        await settle(pilot)
        create = next(f for f in host.last.sent if f["t"] == "create_room")
        assert create["password"] == "pw" and create["options"]["target"] == 3000


async def test_the_create_dialog_opens_again_as_it_was_left_but_with_no_password() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = await pressed(pilot, "c")
        assert isinstance(dialog, CreateRoomScreen)
        dialog.query_one("#deck").value = "office-party"  # type: ignore[attr-defined]
        dialog.query_one("#password").value = "hunter2"  # type: ignore[attr-defined]
        dialog.query_one("#password").focus()
        await pressed(pilot, "escape")
        assert isinstance(app.screen, LobbyScreen)
        await pressed(pilot, "c")
        assert app.screen is dialog  # kept, not built again
        assert dialog.query_one("#deck").value == "office-party"  # type: ignore[attr-defined]
        assert dialog.query_one("#password").value == ""  # type: ignore[attr-defined]
        assert app.focused is not None and app.focused.id == "game"
        await pressed(pilot, "ctrl+s")
        create = next(f for f in host.last.sent if f["t"] == "create_room")
        assert create["deck"] == "office-party" and "password" not in create
        assert isinstance(app.screen, RoomScreen)


async def test_the_join_code_dialog_opens_again_empty() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = await pressed(pilot, "j")
        await pilot.press(*"zz")
        dialog.query_one("#spectate").value = True  # type: ignore[attr-defined]
        await pressed(pilot, "escape")
        await pressed(pilot, "j")
        assert app.screen is dialog
        assert "zz" not in screen_text(app).lower() and "[ ] Just watch" in screen_text(app)
        await pressed(pilot, *"wxyz", "enter")
        join = next(f for f in host.last.sent if f["t"] == "join_room")
        assert join == build.join_room("WXYZ")


async def test_a_host_with_other_games_gets_a_create_dialog_of_its_own() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = await pressed(pilot, "c")
        await pressed(pilot, "escape")
        welcome = sample_welcome()
        meme = copy.deepcopy(welcome["games"][0]) | {"id": "meme", "name": "What Do You Meme?"}
        app.welcome = welcome | {"games": [*welcome["games"], meme]}  # as a new host's
        await settle(pilot)
        dialog = await pressed(pilot, "c")
        assert isinstance(dialog, CreateRoomScreen) and dialog is not first
        assert [game["id"] for game in dialog.games] == ["tshirt", "meme"]
        assert not first.is_attached  # the old one was let go


async def test_a_second_create_queued_behind_the_first_opens_nothing_more() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        lobby.action_create()
        lobby.action_create()  # as a queued call would, with the dialog open already
        await settle(pilot)
        assert isinstance(app.screen, CreateRoomScreen)
        await pressed(pilot, "escape")
        assert app.screen is lobby


async def test_a_kept_dialog_is_laid_out_again_for_a_terminal_that_changed_size() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = await pressed(pilot, "c")
        assert dialog.has_class("-narrow")
        await pressed(pilot, "escape")
        await pilot.resize_terminal(120, 30)  # while it is closed
        await settle(pilot)
        await pressed(pilot, "c")
        assert app.screen is dialog
        assert dialog.has_class("-wide") and not dialog.has_class("-narrow")
        box = dialog.query_one("#create-room").region  # type: ignore[attr-defined]
        assert box.x == (120 - box.width) // 2 > (80 - box.width) // 2  # centred in 120 columns


async def test_a_kept_dialog_is_styled_again_only_when_the_apps_styles_changed() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = await pressed(pilot, "c")
        box = dialog.query_one("#create-room")
        dark = box.styles.background
        await pressed(pilot, "escape")
        restyled: list[object] = []
        update_styles = app.update_styles

        def counted(node: object, animate: bool = True) -> None:
            restyled.append(node)
            update_styles(node, animate=animate)  # type: ignore[arg-type]

        app.update_styles = counted  # type: ignore[method-assign]
        await pressed(pilot, "c")
        assert app.screen is dialog and dialog not in restyled  # nothing it depends on changed
        await pressed(pilot, "escape")
        app.theme = "textual-light"  # while it is closed: Textual restyles only open screens
        await settle(pilot)
        await pressed(pilot, "c")
        assert app.screen is dialog and dialog in restyled
        assert box.styles.background != dark


async def test_a_dialog_opening_lays_out_only_itself_and_a_new_size_lays_out_every_screen() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lobby = app.screen
        laid_out: list[object] = []
        lobby.screen_layout_refresh_signal.subscribe(lobby, laid_out.append)
        dialog = await pressed(pilot, "c")
        assert dialog.outer_size == app.size and laid_out == []  # the lobby's is as it was
        dialog.screen_layout_refresh_signal.subscribe(dialog, laid_out.append)
        wider = Size(SIZE[0] + 20, SIZE[1])
        await pilot.resize_terminal(*wider)
        await settle(pilot)
        assert lobby in laid_out and dialog in laid_out
        assert lobby.outer_size == wider and dialog.outer_size == wider


async def test_the_just_watch_box_shows_whether_it_is_ticked() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j")
        await settle(pilot)
        assert "[ ] Just watch" in screen_text(app)
        app.screen.query_one("#spectate").focus()
        await pilot.press("space")
        await settle(pilot)
        assert "[x] Just watch" in screen_text(app)


async def test_join_by_code_and_join_a_password_room_from_the_list() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j")
        await settle(pilot)
        assert isinstance(app.screen, JoinRoomScreen)
        await pilot.press(*"abcd", "enter")
        await settle(pilot)
        join = next(f for f in host.last.sent if f["t"] == "join_room")
        assert join == build.join_room("ABCD")
        assert isinstance(app.screen, RoomScreen)


async def test_watching_a_room_joins_as_a_spectator() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        join = next(f for f in host.last.sent if f["t"] == "join_room")
        assert join["spectate"] is True and join["code"] == "KQZD"
        assert app.seat is None
        assert "You are watching" in screen_text(app)


async def test_join_room_given_on_the_command_line() -> None:
    host = FakeHost()
    app = app_for(host, room="plmx")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert build.join_room("PLMX") in host.last.sent


async def test_room_owner_adds_a_bot_kicks_and_starts_and_the_game_screen_opens() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("b", "b", "b")
        await settle(pilot)
        assert "Bot 3" in screen_text(app)
        await pilot.press("down", "k")  # yourself: Escape leaves, nothing is sent
        await settle(pilot)
        assert not {"kick", "remove_bot"} & set(host.last.sent_types())
        await pilot.press("down", "k")
        await settle(pilot)
        assert build.remove_bot(1) in host.last.sent
        await pilot.press("r", "s")
        await settle(pilot)
        assert build.set_ready(False) in host.last.sent
        assert isinstance(app.screen, TShirtScreen)


async def test_a_player_who_is_not_the_owner_has_no_owner_controls() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        host.last.push(
            {"t": "joined", "code": "KQZD", "seat": 2, "token": "t"}, sample_room(you=2, owner=0)
        )
        await settle(pilot)
        await pilot.press("s", "b", "k")
        await settle(pilot)
        assert not {"start_game", "add_bot", "kick"} & set(host.last.sent_types())
        footer = screen_text(app).splitlines()[-1]
        assert "Ready" in footer and "Start" not in footer


async def test_submitter_plays_the_legal_command_chosen_with_a_number_key() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await in_game(pilot, host, tshirt_view())
        assert "Your move" in screen_text(app)
        await pilot.press("2", "enter")
        await settle(pilot)
        assert played(host) == [{"type": "submit", "card": 42, "v": 17}]


async def test_a_judge_cannot_submit_and_nothing_is_sent() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await in_game(pilot, host, tshirt_view(you=1, judge=1))
        await pilot.press("1", "enter", "2", "enter")
        await settle(pilot)
        assert played(host) == []
        assert "You judge this round" in screen_text(app)


async def test_judge_picks_a_slogan_with_the_version_it_saw() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await in_game(pilot, host, tshirt_view("judging", you=1, judge=1))
        assert "pick the funniest slogan" in screen_text(app)
        await pilot.press("3", "enter")
        await settle(pilot)
        assert played(host) == [{"type": "pick", "index": 2, "v": 17}]


async def click_the_first_card_twice(pilot: Pilot[int]) -> None:
    """The first click on a card chooses it, the second plays it."""
    for _ in range(2):
        await pilot.click(pilot.app.screen.query("SloganCard")[0])
    await settle(pilot)


async def test_clicking_a_card_twice_plays_it() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await in_game(pilot, host, tshirt_view())
        await click_the_first_card_twice(pilot)
        assert played(host) == [{"type": "submit", "card": 11, "v": 17}]


async def test_a_new_round_starts_with_no_card_chosen_so_one_click_does_not_play() -> None:
    """The card clicked last round leaves no highlight on the new hand: the first click
    on a card only chooses it, as in the first round."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await in_game(pilot, host, tshirt_view())
        await click_the_first_card_twice(pilot)
        assert played(host) == [{"type": "submit", "card": 11, "v": 17}]
        hand = [
            {"card": 5, "text": "Ask me about my pyramid of cans"},
            *copy.deepcopy(HAND[1:]),
        ]
        legal = [{"type": "submit", "card": card["card"]} for card in hand]
        host.last.push(
            view_frame(tshirt_view(round=5, version=18, judge=2, hand=hand, legal=legal))
        )
        await settle(pilot)
        await pilot.click(app.screen.query("SloganCard")[0])
        await settle(pilot)
        assert len(played(host)) == 1
        await pilot.click(app.screen.query("SloganCard")[0])
        await settle(pilot)
        assert played(host)[1:] == [{"type": "submit", "card": 5, "v": 18}]


async def test_booyah_choice_opens_by_itself_and_steals_from_the_chosen_player() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await in_game(pilot, host, booyah_view())
        assert isinstance(app.screen, BooyahScreen)
        await pilot.press("2")
        await settle(pilot)
        assert played(host) == [{"type": "booyah", "choice": "steal", "victim": 2, "v": 17}]
        assert isinstance(app.screen, TShirtScreen)


async def test_booyah_can_wait_and_be_kept_later_with_b() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await in_game(pilot, host, booyah_view())
        await pilot.press("escape")
        await settle(pilot)
        assert "press b to choose" in screen_text(app)
        await pilot.press("b")
        await settle(pilot)
        await pilot.press("k")
        await settle(pilot)
        assert played(host) == [{"type": "booyah", "choice": "keep", "v": 17}]


async def test_chat_is_sent_and_every_line_shows_exactly_as_typed() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(120, 40)) as pilot:
        await in_game(pilot, host, tshirt_view())
        await pilot.press("c", *"[bold]hi", "enter")
        host.last.push(
            {
                "t": "chat_line",
                "seat": 2,
                "name": "[red]x",
                "at": 0.0,
                "text": "\x1b[31mnot red\x1b[0m [link=http://x]y[/link]",
            }
        )
        await settle(pilot)
        assert build.chat("[bold]hi") in host.last.sent
        text = screen_text(app)
        assert "Ann: [bold]hi" in text
        assert "[red]x: ^[[31mnot red^[[0m" in text
        assert "[link=http://x]y[/link]" in text


async def test_names_with_markup_or_escapes_change_nothing_else() -> None:
    host = FakeHost()
    app = app_for(host)
    seats = [
        seat_entry(0, "[b]Ann[/b]"),
        seat_entry(1, "\x1b[2JBea", bot=True),
        seat_entry(2, "Carl"),
        seat_entry(3, "Dev"),
    ]
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        host.last.push(sample_room(seats=seats))
        await settle(pilot)
        text = screen_text(app)
        assert "[b]Ann[/b]" in text and "^[[2JBea" in text
        host.last.push(sample_room(seats=seats, status="playing"), view_frame(tshirt_view()))
        await settle(pilot)
        assert "[b]Ann[/b]" in screen_text(app)


async def test_reconnect_overlay_keeps_the_table_visible_and_leaves_by_itself() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await in_game(pilot, host, tshirt_view())
        host.last.push({"t": "connection", "state": "lost", "detail": "reset"})
        await settle(pilot)
        assert isinstance(app.screen, ReconnectingScreen)
        text = screen_text(app)
        assert "Connection lost" in text and "Scores" in text
        host.last.push({"t": "connection", "state": "reconnecting", "attempt": 1})
        await settle(pilot)
        assert "Trying to reach the host again" in screen_text(app)
        host.last.push(
            {"t": "connection", "state": "restored", "resumed": True},
            view_frame(tshirt_view("judging", you=1, judge=1)),
        )
        await settle(pilot)
        assert isinstance(app.screen, TShirtScreen)
        assert "pick the funniest slogan" in screen_text(app)


async def test_the_reconnect_banner_says_when_a_refused_seat_is_asked_for_again() -> None:
    """The host refused the seat for now and said for how long: the banner counts it."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await in_game(pilot, host, tshirt_view())
        host.last.push(
            {"t": "connection", "state": "lost", "detail": "reset"},
            {"t": "connection", "state": "restored", "resumed": True},
            {"t": "connection", "state": "reconnecting", "retry_after": 600.0, "detail": "wait"},
        )
        await settle(pilot)
        assert isinstance(app.screen, ReconnectingScreen)
        counted = re.search(r"Trying again in (\d+) s", screen_text(app))
        assert counted is not None and 590 <= int(counted.group(1)) <= 600
        host.last.push(
            {"t": "connection", "state": "restored", "resumed": True},
            view_frame(tshirt_view("judging", you=1, judge=1)),
        )
        await settle(pilot)
        assert isinstance(app.screen, TShirtScreen)


async def test_giving_up_on_reconnecting_goes_back_to_the_connect_screen() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await in_game(pilot, host, tshirt_view())
        host.last.push(
            {"t": "connection", "state": "lost"},
            {"t": "connection", "state": "failed", "detail": "Host unreachable."},
        )
        await settle(pilot)
        assert "Host unreachable." in screen_text(app)
        assert app.screen.KIND == "connect"  # type: ignore[attr-defined]


async def test_the_results_screen_names_the_winner_and_goes_back_to_the_lobby() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await in_room(pilot, host, view_frame(over_view()), status="over")
        assert isinstance(app.screen, ResultsScreen)
        text = screen_text(app)
        assert "Bea wins!" in text and "1,600 points" in text
        assert isinstance(app.screen, ResultsScreen)
        app.screen.take_keys()  # as the short pause after the game's end does
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)


@pytest.mark.parametrize("size", [SIZE, (43, 40)])
async def test_a_long_games_won_cards_stay_under_the_name_on_the_results(
    size: tuple[int, int],
) -> None:
    host = FakeHost()
    app = app_for(host)
    view = over_view()
    won = [{"card": 20 + n, "points": -1000 if n == 3 else 250, "verdict": "Meh.", "booyah": False}
           for n in range(12)]  # fmt: skip
    view["players"][1]["cards"] = won
    async with app.run_test(size=size) as pilot:
        await in_room(pilot, host, view_frame(view), status="over")
        lines = screen_text(app).splitlines()
        listed = [line for line in lines if "250, 250" in line]
        assert len(listed) == 3  # twelve cards, five a line
        assert all(line.startswith("      ") and line.lstrip()[0].isdigit() for line in listed)
        assert "-1000" in listed[0]


async def test_a_warning_about_a_move_at_the_table_does_not_stay_over_the_results() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await in_game(pilot, host, tshirt_view())
        app.screen.notify("Choose a slogan first.", severity="warning", timeout=30)
        await settle(pilot)
        assert [note.message for note in app._notifications]  # type: ignore[attr-defined]
        host.room = sample_room(status="over")
        host.last.push(copy.deepcopy(host.room), view_frame(over_view()))
        await settle(pilot)
        assert isinstance(app.screen, ResultsScreen)
        assert [note.message for note in app._notifications] == []  # type: ignore[attr-defined]


async def test_the_results_tell_every_round_with_its_shirt_and_winning_slogan() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(100, 40)) as pilot:
        await in_room(pilot, host, view_frame(over_view()), status="over")
        text = screen_text(app)
        assert "Round by round" in text
        assert '1. "Certified nap technician" by Bea +1000' in text
        assert "on A cat in a tiny hat" in text
        assert "2. called off: nobody played a slogan" in text
        screen = app.screen
        assert isinstance(screen, TShirtResultsScreen)
        recap = screen.recap(app.view or {})
        underlined = [
            recap.plain[s.start : s.end] for s in recap.spans if "underline" in str(s.style)
        ]
        assert underlined == ["Round by round\n"]  # the heading only, not the rounds under it
        assert "underline" not in str(recap.style)


async def test_escape_in_the_chat_box_closes_the_chat_screen_at_once() -> None:
    """Over a narrow table the chat is a screen: one Escape (one tap on the footer's "esc
    Done chatting") goes back to the game. Beside a wide table it hands the keys back."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await in_game(pilot, host, tshirt_view())
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, TShirtScreen)
    app = app_for(host)
    async with app.run_test(size=(120, 40)) as pilot:
        await in_game(pilot, host, tshirt_view())
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.focused, ChatInput)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, TShirtScreen) and app.focused is None


async def test_help_shows_the_rules_and_every_key() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(120, 40)) as pilot:
        await in_game(pilot, host, tshirt_view())
        await pilot.press("f1")
        await settle(pilot)
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        keys = str(help_screen.query_one("#help-keys").render())
        for description in (
            "Choose",
            "Confirm",
            "Booyah",
            "Chat",
            "Create",
            "Join code",
            "Add bot",
            "Kick",
            "Options",
            "Back to lobby",
            "Done chatting",
        ):
            assert description in keys
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, TShirtScreen)


async def test_dialogs_taken_down_as_they_open_do_not_crash() -> None:
    """The random-key run found it: a chat opened just as the game ended (the router took it
    down) mounted without its panel. Such a dialog has nothing to focus and moves on."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=SIZE) as pilot:
        await in_game(pilot, host, tshirt_view())
        for dialog, part in ((ChatScreen(), ChatPanel), (ConfirmScreen("Quit?"), Button)):
            app.push_screen(dialog)
            await settle(pilot)
            for widget in list(dialog.query(part)):
                await widget.remove()
            if isinstance(dialog, ChatScreen):  # a confirm dialog's focus comes with it
                dialog.on_mount()  # as when its mount message comes after the take-down
            dialog.dismiss(None)
            await settle(pilot)
    assert app.return_code in (None, 0)


async def test_an_on_off_room_option_shows_its_whole_box() -> None:
    """A tick box in the create dialog's options reads ``[ ]`` and ``[x]``, never ``[ …``."""

    class Form(App[None]):
        def compose(self) -> ComposeResult:
            yield OptionsForm([option.describe() for option in MEME.options])

    app = Form()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Own scenarios     [ ]" in screen_text(app)
        app.query_one("#option-custom_scenarios").focus()
        await pilot.press("space")
        await pilot.pause()
        assert "Own scenarios     [x]" in screen_text(app)
