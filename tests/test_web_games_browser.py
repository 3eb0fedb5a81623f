"""Whole games by taps alone at the browser door: headless Chromium as a phone held sideways
(844x390 CSS pixels, touch, a 93x18 terminal) plays each of the six games to its end
against bots, tapping where the page's terminal shows a key, a card or a slot (the text
rebuilt from what the door sent the page).

``PARTYHOST_WEB_VIEWPORTS=all`` plays each game on a tablet (768x1024) and in a laptop's
browser (1280x800) as well, and The T-Shirt Game and What Do You Meme? on a phone held
upright (390x844, a 43x40 terminal whose footer takes several rows). Each tap's
screenshot is kept in the test's folder, and the page's last screen is printed when a
test fails.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from cdpdriver import Page, chromium, chromium_path
from partyhost.historycommands import local_games, local_replay
from termscreen import TermScreen
from test_web_door_browser import FIRST_BYTE, Finger, name_yourself, screens, terminal
from webdoorhelpers import page_url, running_web_door

GAME_SECONDS = 240.0
"""A bound on a whole game (30-70 s each on a quiet machine, two at a time here), not a goal."""
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.whole_games,
    pytest.mark.timeout(GAME_SECONDS + 60),
    pytest.mark.skipif(chromium_path() is None, reason="needs Debian's chromium package"),
]
__all__ = ["screens", "terminal"]  # the fixtures this module's tests use

SIDEWAYS_PHONE = (844, 390)
VIEWPORTS = [SIDEWAYS_PHONE]
if os.environ.get("PARTYHOST_WEB_VIEWPORTS") == "all":
    VIEWPORTS += [(768, 1024), (1280, 800)]
UPRIGHT_PHONE = (390, 844)
UPRIGHT_TOO = [*VIEWPORTS, UPRIGHT_PHONE] if len(VIEWPORTS) > 1 else VIEWPORTS
"""The Game, Set, Match! games ask for a phone turned sideways; the others play upright."""
UPRIGHT_FOOTER_LINES = 5
SIZES = pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda size: f"{size[0]}x{size[1]}")
SIZES_UPRIGHT_TOO = pytest.mark.parametrize(
    "viewport", UPRIGHT_TOO, ids=lambda size: f"{size[0]}x{size[1]}"
)
LOBBY_SECONDS = 30.0
CHANGE_SECONDS = 5.0
"""How long a tap's screen change is waited for where a tap may rightly change nothing."""
RETAP_SECONDS = 15.0
"""How long a tap's effect is waited for before the tap counts as lost and is tried again:
long, since a second tap that lands just as a slow first one takes effect hits whatever the
next screen has in that place (a footer's Help key, say)."""
TAP_TRIES = 3
HELP_KEYS = "→ Next game"
"""On the help's footer, and no other."""
STRAY_CLOSERS = [
    re.compile(re.escape(key) + r"(?! ?\S)")  # the whole key: "n No", never "n No fit"
    for key in ("esc Done chatting", "esc Back to the game", "esc Close", "esc Cancel", "n No")
]
"""The footer keys that close what a stray tap can open over a game (chat, the last turn,
help, a dialog, the question whether to leave): a tap tried again that lands just as the
screen under it changes hits whatever the next screen has in that place."""


class Hand(Finger):
    """A finger that checks each tap did something: a tap that left the screen as it was for
    :data:`RETAP_SECONDS` (a tap lost on a busy machine) is tried again, at most
    :data:`TAP_TRIES` times."""

    async def tap_until(
        self, words: str, done: Callable[[], bool], *, right: int = 0, down: int = 0
    ) -> None:
        for tries in range(TAP_TRIES):
            await self.close_help()
            if (tries or self.has("game over")) and not self.has(words):
                return  # the screen moved on (a round, or the game, ended meanwhile)
            await self.shows(words)
            await self.settled()
            if not self.has(words):
                return  # the screen moved on while it settled
            before = self.terminal.text()
            await self.tap_now(words, right=right, down=down)
            if await self.within(RETAP_SECONDS, done):
                return
            if self.terminal.text() != before and await self.within(RETAP_SECONDS, done):
                return  # not lost, only slow: the screen had begun to change
        raise AssertionError(f"{TAP_TRIES} taps on {words!r} changed nothing")

    async def tap_to(self, words: str, shown: str, **where: int) -> None:
        """Tap ``words`` until ``shown`` is on screen."""
        await self.tap_until(words, lambda: self.terminal.find(shown) is not None, **where)

    async def tap_away(self, words: str, **where: int) -> None:
        """Tap ``words`` until they are gone from the screen."""
        await self.tap_until(words, lambda: self.terminal.find(words) is None, **where)

    async def tap_changes_at(self, cell: tuple[int, int], label: str) -> None:
        """Tap the cell (column, row) until the screen is not what it was."""
        before = self.terminal.text()
        for _ in range(TAP_TRIES):
            await self.tap_cell(*cell, label)
            if await self.within(RETAP_SECONDS, lambda: self.terminal.text() != before):
                return
        raise AssertionError(f"{TAP_TRIES} taps on {label!r} changed nothing")

    async def tap_cell(self, column: int, row: int, label: str) -> None:
        """A tap on a cell found on a settled screen (:meth:`settled`)."""
        box = await self.page.evaluate(
            "(() => { const r = document.querySelector('.xterm-screen')"
            ".getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()"
        )
        left, top, width, height = box
        cell_width, cell_height = width / self.terminal.columns, height / self.terminal.rows
        await self.page.tap(left + (column + 0.5) * cell_width, top + (row + 0.5) * cell_height)
        self.steps += 1
        await self.page.screenshot(self.folder / f"{self.steps}-{label[:12]}.png")

    async def tap_cell_once(self, cell: tuple[int, int], label: str) -> bool:
        """One tap on the cell (column, row): whether the screen changed."""
        before = self.terminal.text()
        await self.tap_cell(*cell, label)
        return await self.within(CHANGE_SECONDS, lambda: self.terminal.text() != before)

    async def tap_once(self, words: str) -> bool:
        """One tap on ``words``: whether the screen changed."""
        before = self.terminal.text()
        await self.tap(words)
        return await self.within(CHANGE_SECONDS, lambda: self.terminal.text() != before)

    async def tap_changes(self, words: str, **where: int) -> None:
        """Tap ``words`` until the screen is not what it was."""
        before = self.terminal.text()
        await self.tap_until(words, lambda: self.terminal.text() != before, **where)

    async def tap_key(self, words: str) -> None:
        """Tap a footer key until the footer no longer offers it."""
        await self.tap_until(words, lambda: words not in self.footer())

    async def close_help(self) -> None:
        """Close the help if a stray tap opened it: no flow here taps anything in it, and its
        pages name every game, so a tap meant for a game's name in a dialog would land there."""
        for _ in range(TAP_TRIES):
            if HELP_KEYS not in self.footer():
                return
            await self.tap("esc Close")
            await self.within(RETAP_SECONDS, lambda: HELP_KEYS not in self.footer())
        raise AssertionError(f"{TAP_TRIES} taps on the help's esc Close left it open")

    async def close_stray(self) -> bool:
        """Close a screen a stray tap opened over the game: whether there was one."""
        found = next(((c, m) for c in STRAY_CLOSERS if (m := c.search(self.footer()))), None)
        if found is None:
            return False
        closer, key = found
        await self.tap_until(key.group(), lambda: not closer.search(self.footer()))
        return True

    def footer(self) -> str:
        """The footer's keys: its one line, or on an upright terminal (below 60 columns,
        keys two a row) the bottom lines, where its rows are."""
        lines = self.terminal.lines()
        return "  ".join(
            lines[-UPRIGHT_FOOTER_LINES:] if self.terminal.columns < 60 else lines[-1:]
        )

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


async def open_room(
    page: Page,
    hand: Hand,
    screens: list[bytes],
    game: str,
    bots: int,
    options: Callable[[Hand], object] | None = None,
) -> None:
    """Name the visitor, create a room of ``game`` (its name in the dialog's list) with
    ``options`` (taps in the dialog), seat ``bots`` bots and start, all by taps."""
    await page.wait_for(FIRST_BYTE, LOBBY_SECONDS)
    await name_yourself(page, screens, "Ann")
    await hand.shows("c Create", LOBBY_SECONDS)
    await hand.tap_to("c Create", "Create a room")
    await hand.shows("The T-Shirt Game")
    if game != "The T-Shirt Game":
        await hand.tap_to("The T-Shirt Game", game)
        await hand.tap_until(game, lambda: hand.terminal.find("The T-Shirt Game") is None)
    if options is not None:
        await options(hand)  # type: ignore[misc]
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
    """A door on loopback and a page at ``viewport``; ``play`` plays a game on it to its end
    and the page goes back to the lobby (its screenshot and screen kept if it fails). The
    kinds of the page's seat's commands in the game the host kept."""
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
                await back_to_the_lobby(hand)
            await page.screenshot(tmp_path / "last.png")
        except BaseException:
            await page.screenshot(tmp_path / "failed.png")
            print(terminal.text())
            raise
    return kept_moves(tmp_path / "data")


async def back_to_the_lobby(hand: Hand) -> None:
    """The final standings read, the footer's Back to lobby tapped: the lobby again."""
    await hand.shows("game over")
    await hand.tap_until("Back to lobby", lambda: "lobby" in hand.terminal.lines()[0])


def kept_moves(data: Path, seat: int = 0) -> list[str]:
    """The kinds of the commands ``seat`` played in the one finished game the host's data
    folder keeps, read as ``partyhost replay --export`` reads it."""
    (game,) = local_games(data)
    replay = local_replay(data, int(game["id"]))
    return [
        str(s["command"]["type"])
        for s in replay.steps
        if s.get("seat") == seat and s.get("command")
    ]


# --- What Do You Meme? -----------------------------------------------------------------


@SIZES_UPRIGHT_TOO
async def test_a_whole_meme_game_by_taps(
    tmp_path: Path, screens: list[bytes], terminal: TermScreen, viewport: tuple[int, int]
) -> None:
    """Against one bot: every turn's roll, meme, bet and the result's "Go on" tapped, through
    the four rounds to the final standings."""

    async def play(page: Page, hand: Hand) -> None:
        await open_room(page, hand, screens, "What Do You Meme?", bots=1)
        await play_meme(hand)
        assert hand.has("Final money")

    moves = await play_on_a_page(tmp_path, viewport, terminal, play, bot_pace=0.0)
    assert {"roll", "react", "guess", "bet"} <= set(moves), moves


def first_meme(hand: Hand) -> tuple[int, int]:
    """Where the first meme (NOPE.) is under "Your memes": a line of a list on a short
    screen, a card's label on a tall one (the leftmost below the title, not the log's)."""
    title = hand.terminal.find("Your memes")
    assert title is not None
    found = []
    for row, cells in enumerate(hand.terminal.cells):
        starts = [column for column, cell in enumerate(cells) if cell]
        at = "".join(cells).find("NOPE.")
        if row > title[1] and at >= 0:
            found.append((starts[at], row))  # a wide glyph takes two cells
    assert found, hand.terminal.text()
    return min(found)


async def play_meme(hand: Hand) -> None:
    """Each turn by what the footer offers: roll, a meme (the first) then "Play it", a bet
    (a token on the first guess, when there is one), until the final standings."""
    while not hand.has("game over"):
        footer = hand.footer()
        if "r Roll" in footer:
            await hand.tap_changes("r Roll")
        elif "Play it" in footer:
            await hand.settled()
            await hand.tap_changes_at(first_meme(hand), "NOPE.")
            await hand.tap_key("Play it")
        elif "Place bet" in footer:
            if hand.has("1 ●"):
                await hand.tap("1 ●")
            await hand.tap_changes("+ More")
            await hand.tap_key("Place bet")
        elif hand.has("Go on"):
            await hand.tap_away("Go on")
        else:
            await hand.close_stray()
        await asyncio.sleep(0.2)


# --- Stealing Home ---------------------------------------------------------------------

ROUND = re.compile(r"Round (\d+):")
ROUND_OVER_SECONDS = 2.0
"""How long a claim's round is given to end before the other card is tried (a card that fits
nowhere is not sent: the client says it does not fit)."""


async def hints_on(hand: Hand) -> None:
    """The create dialog's "Show where cards fit" ticked: the client then takes a chosen
    card to a slot where it fits."""
    await page_down_to(hand, "Show where cards")
    await hand.tap_to("Show where cards", "[x]", right=18)


async def no_pause(hand: Hand) -> None:
    """The create dialog's round results without a pause."""
    await page_down_to(hand, "Friends")  # (its label wraps upright) so the menu opens below
    await choose(hand, "until all press a key", "no pause")


async def hints_and_no_pause(hand: Hand) -> None:
    await hints_on(hand)
    await no_pause(hand)


async def page_down_to(hand: Hand, words: str) -> None:
    """The dialog's footer pgdn tapped until ``words`` are in sight (on a screen tall
    enough they already are, and the footer offers no pgdn); a slow tap tried again may
    go past them, so at the dialog's end pgup comes back. Each look waits for a still
    screen: a slow page turn lands after the tap that asked for it seemed to miss."""
    for key in ("pgdn Down", "pgup Up"):
        misses = 0
        for _ in range(8):
            await hand.settled()
            if hand.has(words) or misses == 2:
                break
            misses = 0 if await hand.tap_once(key) else misses + 1
    await hand.shows(words)


async def choose(hand: Hand, shown: str, wanted: str) -> None:
    """A drop-down of the dialog opened by a tap on its value ``shown``, ``wanted`` tapped."""

    def menu_open() -> bool:
        return "Dismiss menu" in hand.footer()

    for _ in range(TAP_TRIES):
        if not menu_open():
            await page_down_to(hand, shown)  # a late page turn may have scrolled it away
            await hand.tap(shown)
        if not await hand.within(CHANGE_SECONDS, lambda: menu_open() and hand.has(wanted)):
            continue
        await hand.tap(wanted)
        if await hand.within(CHANGE_SECONDS, lambda: not menu_open() and hand.has(wanted)):
            return
    raise AssertionError(f"{TAP_TRIES} tries to choose {wanted!r} in place of {shown!r}")


def round_shown(hand: Hand) -> int | None:
    found = ROUND.search(hand.terminal.text())
    return int(found.group(1)) if found else None


async def play_stealing_home(hand: Hand) -> None:
    """Every round: a tap on face-up card 1 (hints take the cursor to where it fits), then
    "m Match!"; if the client says it fits nowhere, card 2 the same way; if neither fits,
    "n No fit". Until the game is over."""
    played = None
    while not hand.has("game over"):
        await asyncio.sleep(0.1)
        if await hand.close_stray():
            continue
        now = round_shown(hand)
        if now is None or now == played:
            continue
        played = now
        for number in (1, 2):
            if await claim(hand, number, now):
                break
        else:
            await vote_no_fit(hand, now)


async def vote_no_fit(hand: Hand, now: int) -> None:
    if round_shown(hand) == now and "n No fit" in hand.footer():
        await hand.tap_until("n No fit", lambda: round_shown(hand) != now)


async def claim(hand: Hand, number: int, now: int) -> bool:
    """Face-up card ``number`` chosen and claimed: whether the round ended (False when the
    card fits nowhere, or the bot was quicker to call no fit)."""
    rack = hand.terminal.find("Face-up cards")
    if rack is None or round_shown(hand) != now or "m Match!" not in hand.footer():
        return True  # the round (or the game) is over
    await hand.tap_until("Face-up cards", lambda: True, right=number * 10 - 9, down=1)
    await hand.tap_changes("m Match!")  # the claim sent, or the client's "does not fit"
    return await hand.within(ROUND_OVER_SECONDS, lambda: round_shown(hand) != now)


@SIZES
async def test_a_whole_stealing_home_game_by_taps(
    tmp_path: Path, screens: list[bytes], terminal: TermScreen, viewport: tuple[int, int]
) -> None:
    """Against one quick bot, with hints on and no pause after a round: the web seat claims
    the face-up cards where the client shows they fit, or votes no fit, to the game's end."""

    async def play(page: Page, hand: Hand) -> None:
        await open_room(page, hand, screens, "Stealing Home", bots=1, options=hints_and_no_pause)
        await play_stealing_home(hand)

    moves = await play_on_a_page(tmp_path, viewport, terminal, play, bot_pace=0.2)
    assert "match" in moves, moves


# --- Scramble, Four Corners, Gridiron ---------------------------------------------------

HAND = re.compile(r"Your hand \((\d+)\)")
PLACED_SECONDS = 3.0
"""How long a placement is given to show in the hand's count before the next card is tried."""


def hand_count(hand: Hand) -> int | None:
    found = HAND.search(hand.terminal.text())
    return int(found.group(1)) if found else None


def rack_card(hand: Hand, number: int) -> tuple[int, int] | None:
    """The cell (column, row) of card ``number``'s key label, on the line below the hand's
    title (the label is a digit after the gap between cards)."""
    title = hand.terminal.find("Your hand (")
    if title is None or title[1] + 1 >= hand.terminal.rows:
        return None
    row = title[1] + 1
    cells = hand.terminal.cells[row]
    for column, cell in enumerate(cells):
        if cell == str(number % 10) and (column <= 1 or cells[column - 1] == " "):
            return column, row
    return None


def open_slot(hand: Hand) -> tuple[int, int] | None:
    """An empty slot's dot on the board (left of the side panel, above the hand)."""
    title = hand.terminal.find("Your hand (")
    if title is None:
        return None
    for row in range(2, title[1] - 1):
        line = hand.terminal.cells[row]
        edge = next((x for x, cell in enumerate(line) if cell == "│"), len(line))
        for column in range(edge):
            if line[column] == "·":
                return column, row
    return None


async def placed(hand: Hand, count: int) -> bool:
    return await hand.within(
        PLACED_SECONDS, lambda: hand_count(hand) != count or hand.has("game over")
    )


async def place_with_hints(hand: Hand) -> bool:
    """Each card of the hand chosen in turn (hints take the cursor to where it fits), then
    "Place" tapped: whether one was placed."""
    count = hand_count(hand)
    for number in range(1, (count or 0) + 1):
        await hand.settled()
        card = rack_card(hand, number)
        if card is None or hand.has("game over") or "Place" not in hand.footer():
            return False
        await hand.tap_cell_once(card, f"card {number}")  # one chosen already: no change
        await hand.tap_until("⏎ Place", lambda: True)
        if await placed(hand, count or 0):
            return True
    return False


async def place_on_a_dot(hand: Hand) -> bool:
    """Scramble: card 1 chosen, then an empty slot tapped twice (the first tap takes the
    cursor there, the second places): whether the card left the hand."""
    await hand.settled()
    count, card, slot = hand_count(hand), rack_card(hand, 1), open_slot(hand)
    if count is None or card is None or slot is None:
        return False
    await hand.tap_changes_at(card, "card 1")
    await hand.tap_changes_at(slot, "a slot")
    await hand.tap_cell(*slot, "the slot again")
    return await placed(hand, count)


Placer = Callable[[Hand], Awaitable[bool]]
"""Places one card by taps: whether one left the hand."""


async def play_gsm(hand: Hand, place: Placer) -> None:
    """What the footer offers, first: Game!, draw, pass; else a card placed by ``place``;
    else "Stuck" (once). Until the game is over."""
    stuck_said = False
    while not hand.has("game over"):
        await asyncio.sleep(0.2)
        footer = hand.footer()
        key = next((k for k in ("g Game!", "d Draw", "p Pass") if k in footer), None)
        if key is not None:
            await hand.tap_once(key)
        elif "Place" in footer and hand_count(hand):
            if await place(hand):
                stuck_said = False
            elif not stuck_said and "s Stuck" in hand.footer():
                stuck_said = await hand.tap_once("s Stuck")
        else:
            await hand.close_stray()


PLACING_GAMES: dict[str, tuple[str, Callable[[Hand], Awaitable[None]], Placer]] = {
    "scramble": ("Scramble", no_pause, place_on_a_dot),
    "four-corners": ("Four Corners", hints_on, place_with_hints),
    "gridiron": ("Gridiron", hints_on, place_with_hints),
}
"""The other Game, Set, Match! games: the name in the dialog's list, the options tapped there,
how a card is placed by taps."""


@SIZES
@pytest.mark.parametrize("game", PLACING_GAMES)
async def test_a_whole_placing_game_by_taps(
    tmp_path: Path,
    screens: list[bytes],
    terminal: TermScreen,
    viewport: tuple[int, int],
    game: str,
) -> None:
    """Against one bot at a fifth of its pace: Scramble's cards laid on empty slots (card,
    slot, slot again) until the bot's Game! ends the match; Four Corners' and Gridiron's,
    with hints on, by a card and then Place, or Stuck, Draw or Pass from the footer, to the
    game's end."""
    name, options, place = PLACING_GAMES[game]

    async def play(page: Page, hand: Hand) -> None:
        await open_room(page, hand, screens, name, bots=1, options=options)
        await play_gsm(hand, place)

    moves = await play_on_a_page(tmp_path, viewport, terminal, play, bot_pace=0.2)
    assert "place" in moves, moves


# --- The T-Shirt Game ------------------------------------------------------------------


async def low_target(hand: Hand) -> None:
    """The create dialog's lowest target (1,000 points) and no pause after a round."""
    await page_down_to(hand, "3,000")
    await choose(hand, "3,000", "1,000")
    await page_down_to(hand, "Friends")  # (its label wraps upright) so the menu opens below
    await choose(hand, "until all press a key", "no pause")


async def play_tshirt(hand: Hand) -> None:
    """Every round: the first slogan tapped twice (chosen, then played), or as the judge the
    first slogan shown, until a player reaches the target."""
    while not hand.has("game over"):
        await asyncio.sleep(0.1)
        title = next((t for t in ("Your slogans", "Pick the winner") if can_play(hand, t)), None)
        if title is None:
            await hand.close_stray()
            continue
        await play_first_slogan(hand, title)


async def play_first_slogan(hand: Hand, title: str) -> None:
    """The first slogan under ``title``: a tap chooses it (">1"), a second plays it."""
    await hand.tap_to(title, ">1", right=4, down=1)
    if can_play(hand, title):
        await hand.tap_changes(title, right=4, down=1)
        await hand.within(CHANGE_SECONDS, lambda: not can_play(hand, title))


def can_play(hand: Hand, title: str) -> bool:
    found = hand.terminal.find(title)
    if found is None:
        return False
    line = hand.terminal.lines()[found[1]]
    return "(you judge" not in line and "played" not in line


@SIZES_UPRIGHT_TOO
async def test_a_whole_tshirt_game_by_taps(
    tmp_path: Path, screens: list[bytes], terminal: TermScreen, viewport: tuple[int, int]
) -> None:
    """Against two bots, to 1,000 points with no pause after a round: each round's slogan
    (or the judge's pick) by taps, to the final standings."""

    async def play(page: Page, hand: Hand) -> None:
        await open_room(page, hand, screens, "The T-Shirt Game", bots=2, options=low_target)
        await play_tshirt(hand)

    moves = await play_on_a_page(tmp_path, viewport, terminal, play, bot_pace=0.0)
    assert "submit" in moves, moves
