"""What The T-Shirt Game's and What Do You Meme?'s tables share, checked on both.

The card racks (which cards the arrows walk, which highlight survives a new
view), the deadline clock in the status line, and leaving the table: one
implementation serves both games, so each test runs on each.
"""

from __future__ import annotations

import copy
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from partyhost.net.clients.client import build
from partyhost.tui.app import PartyApp
from partyhost.tui.shared import results
from partyhost.tui.shared.base import show_text
from partyhost.tui.shared.dialogs import ConfirmScreen
from partyhost.tui.shared.gametable import TableScreen
from partyhost.tui.shared.results import ResultsScreen
from partyhost.tui.tshirt.cards import SloganCard
from rich.text import Text
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Footer, Static
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, settle
from tuikit.samples import HAND, sample_room, tshirt_view, view_frame
from tuikit.samples_meme import meme_room, meme_view

Frame = dict[str, Any]
SHORT = (80, 14)
"""A terminal too short for the table beside the cards: it scrolls."""
SIZE = (120, 40)
CLOCK = re.compile(r"^ (\d+) s left ")


def tshirt_playable(numbers: list[int]) -> Frame:
    """Ann submitting, with only the slogans at these 1-based places playable."""
    view = tshirt_view("submitting")
    view["legal"] = [{"type": "submit", "card": HAND[n - 1]["card"]} for n in numbers]
    return view


def meme_playable(numbers: list[int]) -> Frame:
    """Ann guessing, with only the memes at these 1-based places among the choices."""
    view = meme_view("picking")
    chosen = [view["memes"][n - 1]["meme"] for n in numbers]
    view["legal"] = [{**t, "choices": chosen} for t in view["legal"] if t["meme"] in chosen]
    return view


@dataclass(frozen=True)
class Game:
    name: str
    room: Callable[[], Frame]
    view: Callable[[list[int]], Frame]
    playable: list[int]
    """Two places, not next to each other, so a walk must skip the cards between."""
    question: str


GAMES = [
    Game(
        "tshirt",
        lambda: sample_room(status="playing"),
        tshirt_playable,
        [1, 3],
        "Leave this game? Your seat and points stay behind.",
    ),
    Game(
        "meme",
        meme_room,
        meme_playable,
        [2, 5],
        "Leave this game? Your money stays on the table, but you cannot win.",
    ),
]


@dataclass
class Seat:
    app: PartyApp
    host: FakeHost
    pilot: Pilot[int]
    version: int = 100

    @property
    def screen(self) -> TableScreen:
        assert isinstance(self.app.screen, TableScreen), self.app.screen
        return self.app.screen

    async def settle(self) -> None:
        await settle(self.pilot)

    async def press(self, *keys: str) -> None:
        await self.pilot.press(*keys)
        await self.settle()

    async def push(self, view: Frame) -> None:
        """Deliver ``view`` as the host's next one (a newer version each time)."""
        self.version += 1
        view["version"] = self.version
        self.host.last.push(view_frame(view))
        await self.settle()

    def highlights(self) -> tuple[int | None, list[int]]:
        """The rack's highlighted number and the numbers of the cards drawn as selected."""
        rack = self.screen.picks()
        return rack.highlighted, [card.number for card in rack.cards if card.selected]

    def status(self) -> str:
        return str(self.screen.query_one("#status", Static).content)


@asynccontextmanager
async def seated(game: Game, view: Frame, size: tuple[int, int] = SIZE) -> AsyncIterator[Seat]:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=size) as pilot:
        seat = Seat(app, host, pilot)
        await seat.settle()
        host.room = game.room()
        joined = {"t": "joined", "code": "KQZD", "seat": 0, "token": "t"}
        host.last.push(joined, copy.deepcopy(host.room), view_frame(view))
        await seat.settle()
        assert seat.screen.picks() is not None
        yield seat


@pytest.mark.parametrize("size", [SIZE, SHORT], ids=["fits", "overflows"])
@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
async def test_the_arrows_walk_only_the_playable_cards_round_and_round(
    game: Game, size: tuple[int, int]
) -> None:
    """Also on a terminal so short the table scrolls: a focused table took the arrows."""
    first, last = game.playable
    async with seated(game, game.view(game.playable), size) as seat:
        assert seat.highlights() == (None, [])
        walk = []
        for key in ("down", "down", "down", "up", "up"):
            await seat.press(key)
            walk.append(seat.highlights())
        assert walk == [
            (first, [first]),
            (last, [last]),
            (first, [first]),
            (last, [last]),
            (first, [first]),
        ]
        await seat.press(str(first + 1))  # a card that cannot be played now
        assert seat.highlights() == (first, [first])


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
async def test_a_highlight_stays_while_its_card_is_playable_and_goes_after(game: Game) -> None:
    first, last = game.playable
    async with seated(game, game.view(game.playable)) as seat:
        await seat.press(str(last))
        assert seat.highlights() == (last, [last])
        await seat.push(game.view(game.playable))
        assert seat.highlights() == (last, [last])
        await seat.push(game.view([first]))
        assert seat.highlights() == (None, [])
        await seat.press("up")
        assert seat.highlights() == (first, [first])


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
async def test_the_deadline_counts_down_in_the_status_line_and_stops_with_it(
    game: Game,
) -> None:
    async with seated(game, game.view(game.playable)) as seat:
        assert CLOCK.search(seat.status()) is None
        timed = game.view(game.playable)
        timed["deadline"] = time.time() + 30
        await seat.push(timed)
        shown = CLOCK.search(seat.status())
        assert shown is not None and 28 <= int(shown.group(1)) <= 30, seat.status()
        await seat.push(game.view(game.playable))
        assert CLOCK.search(seat.status()) is None


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
async def test_leaving_asks_the_games_own_question_and_only_yes_gives_up_the_seat(
    game: Game,
) -> None:
    async with seated(game, game.view(game.playable)) as seat:
        for answer in ("n", "y"):
            await seat.press("escape")
            dialog = seat.app.screen
            assert isinstance(dialog, ConfirmScreen) and dialog.question == game.question
            await seat.press(answer)
            left = [frame for frame in seat.host.last.sent if frame.get("t") == "leave_room"]
            assert left == ([] if answer == "n" else [build.leave_room()])


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
async def test_keys_at_the_games_end_are_not_moves_and_the_results_wait_a_moment(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keys meant for the table that just ended neither play, leave, nor start a game."""
    monkeypatch.setattr(results, "KEY_PAUSE", 600.0)  # the pause ends when the test says
    async with seated(game, game.view(game.playable)) as seat:
        await seat.press(str(game.playable[0]))
        over = game.view(game.playable)
        over["phase"] = "over"
        seat.host.last.push(view_frame(over), {**game.room(), "status": "over"})
        await seat.settle()
        sent = len(seat.host.last.sent)
        assert seat.app.play(game.view(game.playable)["legal"][0]) is False
        await seat.pilot.press("enter", "s", "r", "escape")
        refusal = {"t": "error", "code": "not_playing", "message": "No game is running."}
        seat.host.last.push(refusal)
        await seat.settle()
        assert seat.host.last.sent[sent:] == []
        assert isinstance(seat.app.screen, ResultsScreen)
        assert [n.message for n in seat.app._notifications] == []
        assert isinstance(seat.app.screen, ResultsScreen)
        seat.app.screen.take_keys()
        await seat.press("enter")
        assert build.leave_room() in seat.host.last.sent[sent:]


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
async def test_the_footer_is_rebuilt_only_when_a_view_changes_its_keys(game: Game) -> None:
    """Rebuilding the footer lays the whole screen out again: most views change no key."""
    async with seated(game, game.view(game.playable)) as seat:
        footer = seat.screen.query_one(Footer)
        keys = list(footer.children)
        await seat.push(game.view(game.playable))
        assert list(footer.children) == keys
        assert all(new is old for new, old in zip(footer.children, keys, strict=True))
        watching = game.view(game.playable)
        watching["legal"] = []
        await seat.push(watching)
        assert not any(new is old for new, old in zip(footer.children, keys, strict=False))


async def test_a_played_slogan_takes_its_card_away_and_the_others_stay() -> None:
    """Cards are kept by place: one slogan fewer removes one card, not the whole rack."""
    async with seated(GAMES[0], tshirt_playable([1, 2, 3])) as seat:
        rack = seat.screen.picks()
        cards = rack.cards
        played = tshirt_playable([])
        played["hand"] = played["hand"][1:]
        played["your_submission"] = {"text": HAND[0]["text"]}
        await seat.push(played)
        assert len(rack.cards) == 2
        assert all(new is old for new, old in zip(rack.cards, cards[:2], strict=True))
        assert not cards[2].is_attached
        shown = [card.line.plain for card in rack.cards if isinstance(card, SloganCard)]
        assert [line.split("  (")[0] for line in shown] == [c["text"] for c in HAND[1:]]
        await seat.push(tshirt_playable([1, 2, 3]))
        assert len(rack.cards) == 3 and rack.cards[:2] == cards[:2]
        assert len(list(rack.query(SloganCard))) == 3


async def test_a_line_is_written_again_only_when_it_reads_or_looks_different() -> None:
    """Every update lays the screen out again; a line's own style is part of how it looks."""
    updates: list[object] = []

    class Line(Static):
        def update(self, content: Any = "", *, layout: bool = True) -> None:
            updates.append(content)
            super().update(content, layout=layout)

    class OneLine(App[None]):
        def compose(self) -> ComposeResult:
            yield Line(Text("Your slogans", "bold"))

    async with OneLine().run_test() as pilot:
        line = pilot.app.query_one(Line)
        show_text(line, Text("Your slogans", "bold"))
        show_text(line, Text("Your slogans", "dim"))
        show_text(line, Text("Your slogans", "dim"))
        show_text(line, "Your slogans")
        show_text(line, "Your slogans")
        assert updates == [Text("Your slogans", "dim"), "Your slogans"]
