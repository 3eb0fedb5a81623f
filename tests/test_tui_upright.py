"""A phone held upright (43x40 through the browser door): every part in sight, every key in reach.

Below 60 columns the app is ``-upright``: screens stack their parts, the lobby's
rooms take two lines each, and the footer lays its keys in rows that stay put when
the focus moves. A T-Shirt round (from the lobby's Create on) and a What Do You
Meme? round are played against a real host on loopback with clicks alone, every
click landing on what it aims at, inside the screen.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
import test_tui_meme as meme_pictures
import test_tui_snapshots as tui_pictures
from partyhost.net.hosting.host import Host
from partyhost.tui.app import PartyApp
from partyhost.tui.meme.cards import MemeCard
from partyhost.tui.meme.middle import TableRow
from partyhost.tui.meme.screen import MemeScreen
from partyhost.tui.play import QuickGame
from partyhost.tui.shared.dialogs import CreateRoomScreen
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.shared.gametable import GameScreen
from partyhost.tui.shared.moment import RoundResultScreen
from partyhost.tui.shared.roomscreen import RoomScreen
from partyhost.tui.tshirt.cards import SloganCard
from partyhost.tui.tshirt.dialogs import BooyahScreen
from partyhost.tui.tshirt.screen import TShirtScreen
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button
from textual.widgets._footer import FooterKey
from tuihost import ann_app, loopback_host, wait_until
from tuikit.fakehost import FakeHost
from tuikit.layout import layout_problems
from tuikit.pilot import app_for, legal_kind, screen_text, settle

UPRIGHT_PHONE = (43, 40)
"""The terminal a phone held upright (390x844 CSS pixels) gets through the browser door."""
Build = Callable[[], tuple[PartyApp, Callable[[Pilot[int]], Awaitable[None]]]]


def pictures() -> dict[str, Build]:
    """The client's and What Do You Meme?'s snapshot setups, by name."""
    found: dict[str, Build] = {}
    for name in tui_pictures.SCREENS:
        found[f"tui-{name}"] = lambda name=name: tui_pictures.build(name)
    for name in meme_pictures.PICTURES:
        found[f"meme-{name}"] = lambda name=name: meme_pictures.build(name)
    return found


PICTURES = pictures()


def past_the_edge(app: Any) -> list[str]:
    """Every widget in sight whose box runs past the screen's right edge."""
    width = app.size.width
    found = []
    for widget in app.screen.walk_children(Widget):
        node: Any = widget
        shown = True
        while isinstance(node, Widget):
            shown = shown and node.display and node.visible
            node = node.parent
        if shown and widget.region.height > 0 and widget.region.right > width:
            found.append(f"{type(widget).__name__}#{widget.id}: right edge {widget.region.right}")
    return found


def keys_named(app: Any, description: str) -> list[FooterKey]:
    """The footer keys on top that say ``description``, once laid out."""
    keys = app.screen.query(FooterKey).results(FooterKey)
    return [key for key in keys if key.description == description and key.region.width > 0]


async def tap_key(pilot: Pilot[int], description: str) -> None:
    """Tap the footer's key that says ``description``, once the footer shows it.

    The footer is built again whenever the screen's keys change (a listing the host
    sent): the tap may land on the new key in the old one's place, which is as good.
    """
    await wait_until(pilot, lambda: keys_named(pilot.app, description))
    await settle(pilot)

    def same_key(widget: Widget) -> bool:
        return isinstance(widget, FooterKey) and widget.description == description

    await tap(pilot, keys_named(pilot.app, description)[0], lands=same_key)


async def tap(
    pilot: Pilot[int], target: Widget | str, lands: Callable[[Widget], bool] | None = None
) -> None:
    """Click ``target`` as a finger would: it must be in sight and the click must land on it
    (or on a widget ``lands`` accepts in its place)."""
    widget = pilot.app.screen.query_one(target) if isinstance(target, str) else target
    region = widget.region
    assert region.width > 0 and region.height > 0, f"{widget} is not in sight"
    assert region.right <= pilot.app.size.width, f"{widget} runs past the right edge"
    if not await pilot.click(widget):
        found, _ = pilot.app.screen.get_widget_at(*region.offset)
        assert lands is not None and lands(found), f"the tap on {widget} landed on {found}"
    await pilot.pause()


# --- every screen fits --------------------------------------------------------------


@pytest.mark.parametrize("name", list(PICTURES))
async def test_every_screen_shows_all_its_text_and_keys_upright(name: str) -> None:
    app, run_before = PICTURES[name]()
    async with app.run_test(size=UPRIGHT_PHONE) as pilot:
        await run_before(pilot)
        await settle(pilot)
        assert app.has_class("-upright")
        assert layout_problems(app) == [], screen_text(app)
        assert past_the_edge(app) == [], screen_text(app)


async def test_the_lobby_shows_every_rooms_column_upright() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=UPRIGHT_PHONE) as pilot:
        await settle(pilot)
        text = screen_text(app)
    for word in ("Code", "Game", "Deck", "Players", "Status", "Owner"):
        assert word in text, text
    for word in ("KQZD", "PLMX", "Classic", "Office party", "3/10", "5/10", "waiting", "Bea"):
        assert word in text, text
    assert app.glyphs.lock in text


async def test_the_past_games_show_their_players_upright() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=UPRIGHT_PHONE) as pilot:
        await settle(pilot)
        await tap_key(pilot, "Past games")
        await wait_until(pilot, lambda: "Ann, Bob, Cy*, Bot 1" in screen_text(app))
        text = screen_text(app)
    for word in ("Ended", "Room", "Game", "Players", "KQZD", "The T-Shirt Game", "Dana, Eli"):
        assert word in text, text


async def test_the_results_wrap_each_line_under_its_own_words_upright() -> None:
    """A recap line too long for the phone goes on under its words, not at the edge."""
    app, run_before = tui_pictures.build("results")
    async with app.run_test(size=UPRIGHT_PHONE) as pilot:
        await run_before(pilot)
        await settle(pilot)
        lines = screen_text(app).splitlines()
    first = next(n for n, line in enumerate(lines) if '1. "Certified nap' in line)
    number_at = lines[first].index("1.")
    assert "+1000" not in lines[first], lines[first]  # it does wrap at this width
    goes_on = lines[first + 1]
    assert goes_on[: number_at + 3].strip() == "" and goes_on.strip(), lines[first : first + 3]


async def test_a_replay_puts_the_table_over_the_log_upright() -> None:
    """Side by side, a phone's table and log were a word a line; stacked, each is as wide as
    the screen."""
    app, run_before = tui_pictures.build("replay")
    async with app.run_test(size=UPRIGHT_PHONE) as pilot:
        await run_before(pilot)
        await settle(pilot)
        table = app.screen.query_one("#replay-table-box").region
        log = app.screen.query_one("#replay-log").region
    assert table.width == log.width == UPRIGHT_PHONE[0], (table, log)
    assert log.y >= table.bottom, (table, log)


async def test_the_lobby_goes_back_to_one_line_a_room_when_the_phone_turns() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=UPRIGHT_PHONE) as pilot:
        await settle(pilot)
        await pilot.resize_terminal(93, 18)
        await settle(pilot)
        assert not app.has_class("-upright")
        row = next(line for line in screen_text(app).splitlines() if "KQZD" in line)
        assert "Classic" in row and "3/10" in row and "waiting" in row
        assert app.screen.query_one(KeyFooter).region.height == 1  # one row of keys again


@pytest.mark.parametrize("size", [UPRIGHT_PHONE, (93, 18)], ids=["upright", "sideways"])
async def test_the_footer_keys_keep_their_places_when_the_focus_moves(
    size: tuple[int, int],
) -> None:
    """Join included: the lobby's Enter is the screen's, so it heads the footer whether or
    not the rooms table has the focus (a dialog closing hands the focus back late)."""
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert app.focused is not None  # the rooms table

        def places() -> dict[str, tuple[int, int]]:
            return {
                key.description: tuple(key.region.offset) for key in app.screen.query(FooterKey)
            }

        before = places()
        assert "Widget" not in screen_text(app)  # the blank that fills the focused keys' row
        app.screen.set_focus(None)
        await settle(pilot)
        after = places()
    assert "Join" in before and "Create" in before
    assert after == before


# --- rounds played by taps against a real host -----------------------------------------


@pytest.fixture
async def host() -> AsyncIterator[Host]:
    async with loopback_host(host_name="test") as running:
        yield running


MEME_MOVES = ("roll", "react", "guess", "bet1", "bet2")


def turn_to_act(app: PartyApp, kinds: tuple[str, ...]) -> bool:
    """A round's result is up, or the host asks for one of ``kinds`` and no result is coming."""
    if isinstance(app.screen, RoundResultScreen):
        return True
    table = next((s for s in app.screen_stack if isinstance(s, GameScreen)), None)
    return legal_kind(app) in kinds and table is not None and not table.result_showing()


async def result_came(pilot: Pilot[int], ready: Callable[[], object]) -> bool:
    """Wait for ``ready``, or for a round's result that came first (True: read it first)."""
    await wait_until(pilot, lambda: ready() or isinstance(pilot.app.screen, RoundResultScreen))
    return isinstance(pilot.app.screen, RoundResultScreen)


async def read_result(pilot: Pilot[int]) -> None:
    """A round's result is put away by a tap on its footer's Go on."""
    await tap_key(pilot, "Go on")
    await wait_until(pilot, lambda: not isinstance(pilot.app.screen, RoundResultScreen))


async def test_a_tshirt_round_is_played_upright_by_taps_alone(host: Host) -> None:
    app = ann_app(host.port)
    async with app.run_test(size=UPRIGHT_PHONE) as pilot:
        await wait_until(pilot, lambda: app.link == "online" and app.screen.KIND == "lobby")  # type: ignore[attr-defined]
        await tap_key(pilot, "Create")
        await wait_until(pilot, lambda: isinstance(app.screen, CreateRoomScreen))
        await tap(pilot, "#ok")  # its Create button stays in sight as the dialog scrolls
        await wait_until(pilot, lambda: isinstance(app.screen, RoomScreen))
        for seated in (2, 3):
            await tap_key(pilot, "Add bot")
            await wait_until(pilot, lambda n=seated: len((app.room or {}).get("seats", [])) == n)
        await tap_key(pilot, "Start")
        await wait_until(pilot, lambda: isinstance(app.screen, TShirtScreen))
        done: set[str] = set()
        while done != {"submit", "pick"}:
            await wait_until(pilot, lambda: turn_to_act(app, ("submit", "pick", "booyah")))
            if isinstance(app.screen, RoundResultScreen):
                await read_result(pilot)
                continue
            kind, version = legal_kind(app), (app.view or {}).get("version")
            if kind == "booyah":
                if await result_came(pilot, lambda: isinstance(app.screen, BooyahScreen)):
                    continue
                await tap(pilot, "#choice-0")  # keep it
            else:
                card = app.screen.query(SloganCard).first()
                if card.face is not None and not card.face.face_down:  # read whole, not cut
                    assert " ".join(card.face.text.split()[:2]) in screen_text(app)
                if card.selected:  # still chosen from before: a tap on it plays it
                    await tap(pilot, card)
                else:
                    await tap(pilot, card)  # chooses it
                    chosen = lambda card=card: card.selected and keys_named(app, "Confirm")  # noqa: E731
                    if await result_came(pilot, chosen):
                        continue
                    await tap_key(pilot, "Confirm")  # plays it
                done.add(str(kind))
            await wait_until(pilot, lambda v=version: (app.view or {}).get("version") != v)
        assert "played a slogan" in screen_text(app) or app.view["last_round"]  # type: ignore[index]
        assert past_the_edge(app) == []


async def test_a_meme_round_is_played_upright_by_taps_alone(host: Host) -> None:
    app = ann_app(host.port, QuickGame("meme", 2))
    async with app.run_test(size=UPRIGHT_PHONE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MemeScreen))
        done: set[str] = set()
        while not set(MEME_MOVES) <= done:
            await wait_until(pilot, lambda: turn_to_act(app, MEME_MOVES))
            if isinstance(app.screen, RoundResultScreen):  # the reveal
                await read_result(pilot)
                done.add("reveal")
                continue
            kind, view = legal_kind(app), app.view or {}
            if kind == "roll":
                await tap_key(pilot, "Roll")
                done.add("roll" if view["turn"] else "rolloff")
            elif kind in ("react", "guess"):
                card = app.screen.query(MemeCard).first()
                await tap(pilot, card)  # chooses it
                await tap(pilot, card)  # a second tap plays it
                done.add(str(kind))
            else:
                rows = [row for row in app.screen.query(TableRow) if row.has_class("-bettable")]
                await tap(pilot, rows[0])
                await tap(pilot, app.screen.query_one("#bet-more", Button))
                await tap(pilot, app.screen.query_one("#bet-place", Button))
                done.add(str(kind))
            await wait_until(
                pilot, lambda v=view: (app.view or {}).get("version") != v.get("version")
            )
        assert "reveal" in done and isinstance((app.view or {}).get("last_turn"), dict)
        assert past_the_edge(app) == []


# --- pictures -------------------------------------------------------------------------

SNAPSHOTS = ["tui-lobby", "tui-room", "tui-tshirt_submitting", "meme-reactor_betting"]


@pytest.mark.parametrize("name", SNAPSHOTS)
@pytest.mark.usefixtures("results_hold_their_keys")
def test_upright_screen_looks_right(name: str, snap_compare: Any) -> None:
    app, run_before = PICTURES[name]()
    assert snap_compare(app, terminal_size=UPRIGHT_PHONE, run_before=run_before)
