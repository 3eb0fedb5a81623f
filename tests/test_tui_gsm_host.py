"""Game, Set, Match! against a real host on loopback: a person's keys versus in-host bots.

The rooms turn the ``hints`` option on, so the test can read a fit from the
view and then play it the way a person would: number key, cursor keys, ``r``
if the fit is turned, Enter.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from partyhost.net.hosting.host import Host
from partyhost.tui.app import PartyApp
from partyhost.tui.gsm import moves
from partyhost.tui.gsm.screen import GridironScreen, GsmScreen, StealingHomeScreen
from partyhost.tui.gsm.text import mine
from partyhost.tui.party import legal_of
from partyhost.tui.play import QuickGame
from textual.pilot import Pilot
from tuihost import ann_app, loopback_host, wait_until
from tuikit.pilot import screen_text

Frame = dict[str, Any]


class HintedGame(QuickGame):
    """A quick game whose room shows where cards fit, so the test can play like a person."""

    def __init__(self, game: str, bots: int, options: Frame) -> None:
        super().__init__(game, bots)
        self.options = options

    def attach(self, app: PartyApp) -> None:
        app.requests.create_room(self.game, options=self.options)
        app.watch(app, "room", lambda room: self._room_changed(app, room), init=False)


@pytest.fixture
async def host() -> AsyncIterator[Host]:
    async with loopback_host(bot_delay=(0.05, 0.1)) as running:
        yield running


async def steer(pilot: Pilot[int], screen: GsmScreen, number: int, fit: Frame) -> None:
    """Choose card ``number``, walk the cursor to the fit's slot, turn it as the fit says, place."""
    await pilot.press(str(number % 10))
    assert screen.cursor is not None
    dx, dy = fit["x"] - screen.cursor[0], fit["y"] - screen.cursor[1]
    keys = ["l" if dx > 0 else "h"] * abs(dx) + ["j" if dy > 0 else "k"] * abs(dy)
    await pilot.press(*keys)
    if screen.turned != bool(fit["turned"]):  # choosing it may have turned it already
        await pilot.press("r")
    await pilot.press("enter")


def first_fit(view: Frame, kind: str) -> tuple[int, Frame] | None:
    """A listed fit (hints are on in these rooms) and the number key of its card."""
    template = moves.template(view, kind)
    if template is None or not template.get("fits"):
        return None
    fit = template["fits"][0]
    cards: list[Frame] = view["face_up"] if kind == "match" else view["hand"]
    number = 1 + [entry["id"] for entry in cards].index(fit["card"])
    return number, fit


def seen(app: PartyApp) -> Frame:
    """The view the app shows now (empty before the first one)."""
    return app.view or {}


async def test_gridiron_against_bots_on_a_real_host(host: Host) -> None:
    app = ann_app(host.port, HintedGame("gridiron", 2, {"hints": True, "first_seat": 0}))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GridironScreen) and app.view)
        screen = app.screen
        assert isinstance(screen, GridironScreen)
        turns = 0
        while turns < 3 and seen(app).get("phase") != "over":
            await wait_until(pilot, lambda: seen(app)["legal"] or seen(app)["phase"] == "over")
            view = seen(app)
            if view.get("phase") == "over":
                break
            version, hand = view["version"], len(view["hand"])
            found = first_fit(view, "place")
            if found is None:
                await pilot.press("d" if legal_of(view, "draw") else "p")
            else:
                await steer(pilot, screen, *found)
            await wait_until(pilot, lambda: seen(app)["version"] != version)  # noqa: B023
            if found is not None:
                own = [e for e in seen(app)["board"] if e.get("owner") == 0]
                assert any(e["card"] == found[1]["card"] for e in own)
                assert len(seen(app)["hand"]) in (hand - 1, 0)
            turns += 1
        assert "Ann places a card" in screen_text(app)


async def test_stealing_home_claims_against_a_bot_on_a_real_host() -> None:
    async with loopback_host(bot_delay=(30.0, 40.0), host_name="t") as slow:
        options = {"hints": True, "tie_window_ms": 50, "round_seconds": 5}
        app = ann_app(slow.port, HintedGame("stealing-home", 1, options))
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, StealingHomeScreen))
            screen = app.screen
            assert isinstance(screen, StealingHomeScreen)
            won = 0
            for _ in range(2):
                await wait_until(pilot, lambda: legal_of(seen(app), "match"), read_results=True)
                view = seen(app)
                found = first_fit(view, "match")
                if found is None:  # no fit: vote, and the round timer ends the round
                    await pilot.press("n")
                    await wait_until(
                        pilot,
                        lambda: seen(app)["round"] != view["round"],  # noqa: B023
                        10,
                        read_results=True,
                    )
                    continue
                await steer(pilot, screen, *found)
                await wait_until(
                    pilot,
                    lambda: mine(seen(app))["cards"] > won,  # noqa: B023
                    read_results=True,
                )
                won += 1
                if seen(app)["face_up"]:  # the next round is dealt: the news is last round's
                    assert "Last round: Ann matched first." in screen_text(app)
                else:
                    assert "Accepted!" in screen_text(app)
                placed = moves.board_cards(seen(app))[(found[1]["x"], found[1]["y"])]
                assert placed["card"] == found[1]["card"] and placed["owner"] == 0
            assert won == 0 or "Ann matched and keeps the" in screen_text(app)
    await asyncio.sleep(0)
