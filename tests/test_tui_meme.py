"""What Do You Meme? in the client: every phase against a scripted host, pictures, one real game.

Each command the screen sends must be one of the view's legal templates with
its blank filled in; the pictures are taken at 80x24, 120x40 and in --ascii.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from partyhost.decks.catalog import shipped_decks_dir
from partyhost.decks.files import load_deck_file
from partyhost.engine.core import apply
from partyhost.engine.registry import get_game
from partyhost.net.hosting.host import Host
from partyhost.tui.app import PartyApp
from partyhost.tui.meme import screen as meme_screen_module
from partyhost.tui.meme.cards import MemeCard
from partyhost.tui.meme.dialogs import LastTurnScreen, WriteScenarioScreen
from partyhost.tui.meme.middle import MemeMain
from partyhost.tui.meme.results import MemeResultsScreen
from partyhost.tui.meme.screen import MemeScreen
from partyhost.tui.meme.text import bill_counts, bills_text, describe_event
from partyhost.tui.play import QuickGame
from partyhost.tui.shared.moment import RoundResultScreen
from partyhost.tui.text import UNICODE
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Input
from tuihost import ann_app, loopback_host, wait_until
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, legal_kind, screen_text, settle, settle_logs
from tuikit.samples import seat_entry, view_frame
from tuikit.samples_meme import (
    betting_view,
    meme_events,
    meme_room,
    meme_view,
    over_view,
    rolloff_view,
)

Frame = dict[str, Any]
SMALL, LARGE = (80, 24), (120, 40)
PICK = ("react", "guess")


async def seated(
    pilot: Pilot[int], host: FakeHost, view: Frame, *, room: Frame | None = None
) -> None:
    """Seat Ann (seat 0) in a meme room and deliver ``view`` with the sample log."""
    await settle(pilot)
    host.room = room or meme_room(status="over" if view["phase"] == "over" else "playing")
    host.last.push(
        {"t": "joined", "code": "KQZD", "seat": 0, "token": "t"},
        copy.deepcopy(host.room),
        view_frame(view, meme_events(view["phase"])),
    )
    await settle(pilot)


@dataclass
class Table:
    """Ann at the scripted host's table: keys in, screen text and sent commands out."""

    app: PartyApp
    host: FakeHost
    pilot: Pilot[int]

    async def press(self, *keys: str) -> None:
        await self.pilot.press(*keys)
        await settle(self.pilot)

    async def push(self, view: Frame, events: list[Frame] | None = None) -> None:
        self.host.last.push(view_frame(view, events or []))
        await settle(self.pilot)

    def text(self) -> str:
        return screen_text(self.app)

    def played(self) -> list[Frame]:
        """Game commands sent, without the view version the app adds."""
        sent = [dict(f["cmd"]) for f in self.host.last.sent if f.get("t") == "play"]
        return [{k: v for k, v in command.items() if k != "v"} for command in sent]


@asynccontextmanager
async def at_table(
    view: Frame, *, size: tuple[int, int] = SMALL, room: Frame | None = None, animate: bool = False
) -> AsyncIterator[Table]:
    host = FakeHost()
    app = app_for(host, animate=animate)
    async with app.run_test(size=size) as pilot:
        await seated(pilot, host, view, room=room)
        yield Table(app, host, pilot)


# --- each phase against the scripted host -----------------------------------


async def test_roll_off_sends_the_legal_roll_and_shows_every_roll() -> None:
    view = rolloff_view(your_roll=True)
    async with at_table(view) as table:
        assert isinstance(table.app.screen, MemeScreen)
        assert "Roll the die: press r" in table.text()
        await table.press("r")
        assert table.played() == [view["legal"][0]]
        await table.push(rolloff_view())
        text = table.text()
        assert "[7] [9]" in text and "Tied!" in text and "Waiting for Dev to roll" in text


async def test_the_reactor_rolls_two_dice_into_the_scenario_number() -> None:
    async with at_table(meme_view("scenario", reactor=0)) as table:
        assert "press r to roll" in table.text()
        await table.press("r")
        assert table.played() == [{"type": "roll", "turn": 6}]
        await table.push(meme_view("picking", reactor=0))
        text = table.text()
        assert "Scenario 28" in text and "│ 2 │ │ 8 │" in text
        assert "You find twenty dollars" in text


async def test_a_tap_on_the_dice_rolls_them_when_the_roll_is_yours() -> None:
    async with at_table(meme_view("scenario", reactor=1)) as table:
        await table.pilot.click("#scenario")
        await settle(table.pilot)
        assert table.played() == []  # another player's roll
    async with at_table(meme_view("scenario", reactor=0)) as table:
        assert "tap the dice" in table.text()
        await table.pilot.click("#scenario")
        await settle(table.pilot)
        assert table.played() == [{"type": "roll", "turn": 6}]
    view = rolloff_view(your_roll=True)
    async with at_table(view) as table:
        await table.pilot.click("#rolloff")
        await settle(table.pilot)
        assert table.played() == [view["legal"][0]]


async def test_a_typed_scenario_is_sent_as_typed_and_shown_literally() -> None:
    view = meme_view("scenario", reactor=0, custom=True)
    async with at_table(view) as table:
        await table.press("w")
        dialog = table.app.screen
        assert isinstance(dialog, WriteScenarioScreen)
        assert dialog.query_one(Input).max_length == 280
        await table.press(*"[red]Boss [b]", "enter")
        assert table.played() == [{**view["legal"][1], "text": "[red]Boss [b]"}]
        written = meme_view("picking", reactor=0, custom=True)
        own = {"number": None, "text": "[red]x\x1b[31m", "custom": True}
        written.update(dice=None, scenario=own)
        await table.push(written)
        assert "[red]x^[[31m" in table.text() and "own scenario" in table.text()


async def test_the_reactor_picks_a_reaction_with_number_keys() -> None:
    view = meme_view("picking", reactor=0)
    async with at_table(view) as table:
        await table.press("enter")
        await table.press("9", "5", "enter")
        assert table.played() == [{**view["legal"][0], "meme": 4}]


async def test_every_meme_stays_in_sight_for_a_finger_on_a_short_screen() -> None:
    """A phone held sideways (93x18): the last turn gives way when, above your memes, it
    would push the last ones below the fold, where a finger cannot scroll."""
    for size, reveal_shown in (((93, 18), False), (SMALL, True)):
        async with at_table(meme_view("picking", reactor=0), size=size) as table:
            await settle(table.pilot)
            main = table.app.screen.query_one(MemeMain)
            cards = list(main.query(MemeCard).results())
            assert len(cards) == 7
            assert all(main.region.contains_region(card.region) for card in cards), size
            assert main.query_one("#reveal").display is reveal_shown
            assert ("Last turn (t: details)" in table.text()) is reveal_shown
            assert "t Last turn" in table.text()


async def test_a_guess_can_be_played_with_the_mouse() -> None:
    view = meme_view("picking")
    async with at_table(view, size=LARGE) as table:
        second = list(table.app.screen.query("MemeCard").results())[1]
        await table.pilot.click(second)
        assert table.played() == []
        await table.pilot.click(second)
        await settle(table.pilot)
        assert table.played() == [{**view["legal"][0], "meme": 1}]


async def test_the_reactor_bets_at_least_one_and_at_most_three_tokens() -> None:
    view = betting_view(1)
    async with at_table(view) as table:
        await table.press("enter")
        assert table.played() == [], "the reactor must place at least 1 token"
        await table.press("1", "plus", "plus", "2", "plus", "plus", "3", "plus")
        assert "3 of 3" in table.text()
        await table.press("enter")
        bets = [{"seat": 1, "amount": 2}, {"seat": 2, "amount": 1}]
        assert table.played() == [{**view["legal"][0], "bets": bets}]


async def test_a_guesser_puts_at_most_two_tokens_on_their_own_guess() -> None:
    view = betting_view(2)
    async with at_table(view) as table:
        assert "at most 2 on your own" in table.text()
        await table.press("1", "a", "plus", "down", "down", "plus", "plus")
        await table.press("enter")
        bets = [{"seat": 0, "amount": 2}, {"seat": 3, "amount": 1}]
        assert table.played() == [{**view["legal"][0], "bets": bets}]


async def test_betting_panel_buttons_work_with_the_mouse() -> None:
    view = betting_view(2)
    async with at_table(view) as table:
        await table.pilot.click(list(table.app.screen.query("TableRow").results())[2])
        for button in ("#bet-more", "#bet-more", "#bet-place"):
            await table.pilot.click(button)
        await settle(table.pilot)
        assert table.played() == [{**view["legal"][0], "bets": [{"seat": 2, "amount": 2}]}]


async def test_the_final_round_bets_cash_up_to_what_you_hold() -> None:
    view = betting_view(2, final=True)
    async with at_table(view) as table:
        assert "Round 4 of 4: cash bets" in table.text() and "Cash $0 of $12" in table.text()
        await table.press("2", "pageup", "3", "a", "plus")
        assert "Cash $12 of $12" in table.text()
        await table.press("enter")
        bets = [{"seat": 2, "amount": 10}, {"seat": 3, "amount": 2}]
        assert table.played() == [{**view["legal"][0], "bets": bets}]


async def test_the_guesses_turn_over_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meme_screen_module, "FLIP_SECONDS", 60.0)
    async with at_table(meme_view("betting_1"), animate=True) as table:
        await table.push(betting_view(2), [{"kind": "guesses_revealed", "guesses": []}])
        screen = table.app.screen
        assert isinstance(screen, MemeScreen)
        seen = []
        for _ in range(3):
            seen.append((table.text().count("NAILED IT!"), "WHEEZE!" in table.text()))
            screen._flip_next()
            await settle(table.pilot)
        # Ann's own guess is known to her all along; Carl's, then Dev's turn over.
        assert seen == [(1, False), (1, False), (1, True)]
        assert table.text().count("NAILED IT!") == 2 and screen._flipper is None


async def test_the_reveal_shows_who_was_right_and_payouts_in_bills() -> None:
    async with at_table(meme_view("scenario")) as table:
        text = table.text()
        assert "reacted with AWKWARD..." in text
        assert "✔ ● Ann" in text and "✘ ● Carl" in text
        assert "+$3   $1 $1 $1" in text
        await table.press("t")
        assert isinstance(table.app.screen, LastTurnScreen)


async def test_the_reveal_names_each_bettor_in_full_beside_their_tokens() -> None:
    room = meme_room()
    room["seats"][0] = seat_entry(0, "Charlotte", ready=True)
    async with at_table(meme_view("scenario"), room=room) as table:
        await table.press("t")
        text = table.text()
        assert "bets: Charlotte ●●, Bea ●" in text
        assert "each token on a right guess pays its owner $1" in text


async def test_the_money_table_is_drawn_again_when_the_terminal_widens() -> None:
    async with at_table(meme_view("scenario"), size=(100, 40)) as table:
        money = table.app.screen.query_one("#money")
        assert "+$3" not in money.render().plain  # type: ignore[union-attr]
        await table.pilot.resize_terminal(120, 40)  # the side panel widens: payouts fit
        await settle(table.pilot)
        assert "+$3" in money.render().plain  # type: ignore[union-attr]


async def test_the_header_counts_four_rounds_as_the_rules_do() -> None:
    async with at_table(meme_view("picking")) as table:
        assert "Round 2 of 4" in table.text()


async def test_the_results_list_the_bets_that_won_or_lost() -> None:
    async with at_table(over_view(), size=LARGE) as table:
        text = table.text()
        assert "Bets that won or lost" in text
        assert "Turn  1: Bea reacted with NOPE." in text and "Carl +$1" in text
        recap = MemeResultsScreen.recap(table.app.screen, table.app.view or {})
        underlined = [span for span in recap.spans if "underline" in str(span.style)]
        assert [recap.plain[span.start : span.end] for span in underlined] == [
            "Bets that won or lost\n"
        ]
        assert "underline" not in str(recap.style)  # not the turns under the heading


async def test_the_game_ends_on_a_podium_of_money() -> None:
    async with at_table(over_view()) as table:
        assert isinstance(table.app.screen, MemeResultsScreen)
        text = table.text()
        assert "You win!" in text and "$126" in text
        assert "$100" not in text  # no unlabelled column of bills beside the money


async def test_spectators_and_names_with_markup_are_shown_safely() -> None:
    room = meme_room(you=None)
    room["seats"][2] = seat_entry(2, "[red]Mal\x1b[5m", ready=True)
    async with at_table(meme_view("betting_2", you=None), room=room) as table:
        assert "You are watching" in table.text() and "[red]Mal^[[5m" in table.text()
        await table.press("plus", "enter")
        assert table.played() == []


def test_bills_break_money_into_funny_money() -> None:
    assert bill_counts(126) == [(100, 1), (10, 2), (5, 1), (1, 1)]
    assert bill_counts(0) == []
    assert bills_text(7).plain == "$5 $1 $1"
    assert bills_text(80, width=10).plain == "$10x8"


def plain(text: Text | None) -> str:
    return "" if text is None else text.plain


def test_log_lines_name_players_and_amounts() -> None:
    view = betting_view(2, final=True)

    def name(seat: object) -> Text:
        return Text(f"P{seat}")

    bet = {"kind": "reactor_bet", "seat": 1, "bets": [{"seat": 3, "amount": 5}], "auto": "timer"}
    assert plain(describe_event(bet, view, name, UNICODE)) == "P1 bets $5 on P3 (time ran out)."
    over = {"kind": "turn_over", "turn": 3, "void": "reactor_left"}
    assert plain(describe_event(over, view, name, UNICODE)) == (
        "Turn 3 is called off: the reactor left."
    )
    shown = {"kind": "reaction_revealed", "reactor": 1, "meme": 0, "correct": [2]}
    assert plain(describe_event(shown, view, name, UNICODE)) == (
        "P1's reaction: NOPE. ✔ P2 got it (cash on a right guess doubles, on a wrong one it is"
        " lost)."
    )
    tokens = meme_view("scenario")
    assert plain(describe_event(shown, tokens, name, UNICODE)).endswith(
        "got it (each token on a right guess pays its owner $1)."
    )
    quiet = {"kind": "turn_over", "turn": 2, "void": None, "payouts": []}
    assert plain(describe_event(quiet, tokens, name, UNICODE)) == (
        "Payouts: nobody wins anything (no tokens lay on a right guess)."
    )


def engine_views() -> dict[str, Frame]:
    """Seat 0's first view of each phase in which it has a move, from a real seeded game."""
    game = get_game("meme")
    deck = load_deck_file(shipped_decks_dir() / "what-do-you-meme.yaml").deck
    state = game.start(deck, [0, 1, 2, 3], {}, seed=11)
    views: dict[str, Frame] = {}
    while len(views) < 5:
        seat = next(s for s in state.seats if game.legal(state, s))
        view = game.view(state, seat)
        if seat == 0:
            views.setdefault(view["phase"], view)
        command = dict(view["legal"][0], meme=0)
        if command["type"] == "bet":
            target = command["targets"][0]["seat"]
            command["bets"] = [{"seat": target, "amount": command["min_total"]}]
        state, _ = apply(game, state, seat, command, 0.0)
    return views


def test_sample_views_have_exactly_the_keys_the_engine_sends() -> None:
    samples = {
        "rolloff": rolloff_view(your_roll=True),
        "scenario": meme_view("scenario", reactor=0),
        "picking": meme_view("picking"),
        "betting_1": betting_view(1),
        "betting_2": betting_view(2),
    }
    for phase, engine in engine_views().items():
        sample = samples[phase]
        assert set(sample) == set(engine), phase
        for key in ("table", "rolloff", "options"):
            assert set(sample[key]) == set(engine[key]), (phase, key)
        assert set(sample["players"][0]) == set(engine["players"][0])
        assert set(sample["memes"][0]) == set(engine["memes"][0])
        assert [set(c) for c in sample["legal"]] == [set(c) for c in engine["legal"]], phase
        for mine, real in zip(sample["legal"], engine["legal"], strict=True):
            assert set((mine.get("targets") or [{}])[0]) == set((real.get("targets") or [{}])[0])


# --- pictures ------------------------------------------------------------------

Setup = Callable[[Pilot[int], FakeHost], Awaitable[None]]


def phase(view: Callable[[], Frame], *keys: str) -> Setup:
    async def setup(pilot: Pilot[int], host: FakeHost) -> None:
        await seated(pilot, host, view())
        if keys:
            await pilot.press(*keys)
            await settle(pilot)

    return setup


PICTURES: dict[str, Setup] = {
    "rolloff": phase(rolloff_view),
    "scenario_reveal": phase(lambda: meme_view("scenario", reactor=0)),
    "guessing": phase(meme_view, "3"),
    "reactor_betting": phase(lambda: betting_view(1), "2", "plus", "plus"),
    "guesser_betting": phase(lambda: betting_view(2), "plus", "3", "plus"),
    "final_round_cash": phase(lambda: betting_view(2, final=True), "3", "pageup"),
    "results": phase(over_view),
}
SIZES = [pytest.param(SMALL, id="80x24"), pytest.param(LARGE, id="120x40")]


def build(
    name: str, *, ascii_only: bool = False
) -> tuple[PartyApp, Callable[[Pilot[int]], Awaitable[None]]]:
    host = FakeHost()
    app = app_for(host, ascii_only=ascii_only)

    async def run_before(pilot: Pilot[int]) -> None:
        await PICTURES[name](pilot, host)
        await settle_logs(pilot)

    return app, run_before


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", list(PICTURES))
@pytest.mark.usefixtures("results_hold_their_keys")
def test_meme_screen_looks_right(name: str, size: tuple[int, int], snap_compare: Any) -> None:
    app, run_before = build(name)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_meme_screen_in_ascii(snap_compare: Any) -> None:
    app, run_before = build("guesser_betting", ascii_only=True)
    assert snap_compare(app, terminal_size=SMALL, run_before=run_before)


async def test_ascii_mode_draws_only_ascii() -> None:
    for name in ("scenario_reveal", "reactor_betting", "results"):
        app, run_before = build(name, ascii_only=True)
        async with app.run_test(size=SMALL) as pilot:
            await run_before(pilot)
            strange = sorted({char for char in screen_text(app) if ord(char) > 126})
        assert strange == [], f"{name}: non-ASCII glyphs {strange}"


# --- a real host on loopback -------------------------------------------------------


@pytest.fixture
async def host() -> AsyncIterator[Host]:
    async with loopback_host(host_name="test") as running:
        yield running


def moved_on(app: PartyApp, version: object) -> Callable[[], bool]:
    return lambda: (app.view or {}).get("version") != version


async def test_a_human_plays_against_bots_on_a_real_host(host: Host) -> None:
    app = ann_app(host.port, QuickGame("meme", 2))
    async with app.run_test(size=LARGE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MemeScreen))
        done: set[str] = set()
        while not {"roll", "react", "guess", "bet1", "bet2"} <= done:
            await wait_until(
                pilot,
                lambda: legal_kind(app) is not None or isinstance(app.screen, RoundResultScreen),
            )
            if isinstance(app.screen, RoundResultScreen):  # the reveal: a key goes on
                await pilot.press("enter")
                await wait_until(pilot, lambda: not isinstance(app.screen, RoundResultScreen))
                continue
            kind, view = legal_kind(app), app.view or {}
            if kind == "roll":
                await pilot.press("r")
                done.add("roll" if view["turn"] else "rolloff")
            else:
                await pilot.press(*(("3", "enter") if kind in PICK else ("1", "plus", "enter")))
                done.add(str(kind))
            await wait_until(pilot, moved_on(app, view["version"]))
        assert isinstance((app.view or {}).get("last_turn"), dict)
        assert "Money" in screen_text(app)
