"""Whole games by taps alone at the browser door: headless Chromium as a phone held sideways
(844x390 CSS pixels, touch, a 93x18 terminal) plays What Do You Meme?, Stealing Home and
The T-Shirt Game to their ends against bots, tapping where the page's terminal shows a key,
a card or a slot (the text rebuilt from what the door sent the page).

``PARTYHOST_WEB_VIEWPORTS=all`` plays each game on a tablet (768x1024) and in a laptop's
browser (1280x800) as well. Each tap's screenshot is kept in the test's folder, and the
page's last screen is printed when a test fails.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from cdpdriver import Page, chromium, chromium_path
from partyhost.net.hosting.host import Host
from termscreen import TermScreen
from test_web_door_browser import FIRST_BYTE, Finger, name_yourself, screens, terminal
from webdoorhelpers import page_url, running_web_door

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(chromium_path() is None, reason="needs Debian's chromium package"),
]
__all__ = ["screens", "terminal"]  # the fixtures this module's tests use

SIDEWAYS_PHONE = (844, 390)
VIEWPORTS = [SIDEWAYS_PHONE]
if os.environ.get("PARTYHOST_WEB_VIEWPORTS") == "all":
    VIEWPORTS += [(768, 1024), (1280, 800)]
SIZES = pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda size: f"{size[0]}x{size[1]}")
LOBBY_SECONDS = 30.0
CHANGE_SECONDS = 5.0
"""How long a tap's screen change is waited for before the tap is tried again."""
TAP_TRIES = 3
GAME_SECONDS = 90.0


class Hand(Finger):
    """A finger that checks each tap did something: a tap whose screen did not change (a tap
    lost on a busy machine) is tried again, at most :data:`TAP_TRIES` times."""

    async def tap_until(
        self, words: str, done: Callable[[], bool], *, right: int = 0, down: int = 0
    ) -> None:
        for _ in range(TAP_TRIES):
            await self.tap(words, right=right, down=down)
            if await self.within(CHANGE_SECONDS, done):
                return
        raise AssertionError(f"{TAP_TRIES} taps on {words!r} changed nothing")

    async def tap_to(self, words: str, shown: str, **where: int) -> None:
        """Tap ``words`` until ``shown`` is on screen."""
        await self.tap_until(words, lambda: self.terminal.find(shown) is not None, **where)

    async def tap_away(self, words: str, **where: int) -> None:
        """Tap ``words`` until they are gone from the screen."""
        await self.tap_until(words, lambda: self.terminal.find(words) is None, **where)

    async def tap_changes(self, words: str, **where: int) -> None:
        """Tap ``words`` until the screen is not what it was."""
        before = self.terminal.text()
        await self.tap_until(words, lambda: self.terminal.text() != before, **where)

    async def tap_key(self, words: str) -> None:
        """Tap a footer key until the footer no longer offers it."""
        await self.tap_until(words, lambda: words not in self.footer())

    def footer(self) -> str:
        return self.terminal.lines()[-1]

    async def within(self, seconds: float, done: Callable[[], bool]) -> bool:
        try:
            async with asyncio.timeout(seconds):
                while not done():
                    await asyncio.sleep(0.05)
        except TimeoutError:
            return False
        return True

    def has(self, words: str) -> bool:
        return self.terminal.find(words) is not None


async def open_room(page: Page, hand: Hand, screens: list[bytes], game: str, bots: int) -> None:
    """Name the visitor, create a room of ``game`` (its name in the dialog's list), seat
    ``bots`` bots and start, all by taps."""
    await page.wait_for(FIRST_BYTE, LOBBY_SECONDS)
    await name_yourself(page, screens, "Ann")
    await hand.shows("c Create", LOBBY_SECONDS)
    await hand.tap_to("c Create", "Create a room")
    await hand.shows("The T-Shirt Game")
    if game != "The T-Shirt Game":
        await hand.tap_to("The T-Shirt Game", game)
        await hand.tap_until(game, lambda: hand.terminal.find("The T-Shirt Game") is None)
    await hand.tap_to("^s OK", "You own this room")
    for seated in range(2, bots + 2):
        await hand.tap_to("b Add bot", f"{seated} seated")
    await hand.tap_away("s Start")


async def play_on_a_page(
    tmp_path: Path,
    viewport: tuple[int, int],
    terminal: TermScreen,
    play: Callable[[Page, Hand], object],
    **host: object,
) -> list[str]:
    """A door on loopback and a page at ``viewport``; ``play`` plays on it (its screenshot
    and screen kept if it fails). The kinds of the page's seat's commands, as the host's
    journal kept them."""
    width, height = viewport
    async with (
        running_web_door(tmp_path, **host) as running,
        chromium(tmp_path / "profile", width, height) as page,
    ):
        await page.send("Page.navigate", url=page_url(running))
        hand = Hand(page, terminal, tmp_path)
        try:
            async with asyncio.timeout(GAME_SECONDS):
                await play(page, hand)  # type: ignore[misc]
            await page.screenshot(tmp_path / "last.png")
        except BaseException:
            await page.screenshot(tmp_path / "failed.png")
            print(terminal.text())
            raise
        return journal_moves(running)


def journal_moves(host: Host, seat: int = 0) -> list[str]:
    """The kinds of the commands ``seat`` played in the one game the host kept."""
    assert host.journal is not None
    (stored,) = host.journal.load()
    return [str(r.command["type"]) for r in stored.commands if r.seat == seat and r.command]


# --- What Do You Meme? -----------------------------------------------------------------


@SIZES
async def test_a_whole_meme_game_by_taps(
    tmp_path: Path, screens: list[bytes], terminal: TermScreen, viewport: tuple[int, int]
) -> None:
    """Against one bot: every turn's roll, meme, bet and the result's "Go on" tapped, through
    the four rounds to the final standings."""

    async def play(page: Page, hand: Hand) -> None:
        await open_room(page, hand, screens, "What Do You Meme?", bots=1)
        await play_meme(hand)

    moves = await play_on_a_page(tmp_path, viewport, terminal, play, bot_pace=0.0)
    assert {"roll", "react", "guess", "bet"} <= set(moves), moves
    assert "Final money" in terminal.text()


async def play_meme(hand: Hand) -> None:
    """Each turn by what the footer offers: roll, a meme (the first) then "Play it", a bet
    (a token on the first guess, when there is one), until the final standings."""
    while not hand.has("game over"):
        footer = hand.footer()
        if "r Roll" in footer:
            await hand.tap_changes("r Roll")
        elif "Play it" in footer:
            await hand.tap_changes("1 NOPE.")
            await hand.tap_key("Play it")
        elif "Place bet" in footer:
            if hand.has("1 ●"):
                await hand.tap("1 ●")
            await hand.tap_changes("+ More")
            await hand.tap_key("Place bet")
        elif hand.has("Go on"):
            await hand.tap_away("Go on")
        await asyncio.sleep(0.2)
