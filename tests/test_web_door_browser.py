"""A real browser at the door: Debian's headless Chromium, phone-sized and with touch,
loads the door's page, names its visitor and reaches the lobby over loopback; the keyboard
works; a reload goes back to the same seat without a question; a T-Shirt round against
bots is played by taps alone.

Each step's screenshot is kept in the test's folder (pytest prints it when a test fails).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from cdpdriver import Page, chromium, chromium_path
from nethelpers import LOOPBACK
from partyhost.net.door.webclients import WebVisitorClient
from partyhost.net.hosting.host import Host
from partyhost.net.rooms.roster import Member
from termscreen import TermScreen
from webdoorhelpers import page_url, running_web_door, web_door_of

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(chromium_path() is None, reason="needs Debian's chromium package"),
]
PHONE = (390, 844)
SIDEWAYS_PHONE = (844, 390)
STEP_SECONDS = 30.0
SETTLE_SECONDS = 0.3
"""How long the screen stays unchanged before a tap: a person taps what they see, not a
footer still being drawn again (its keys then move, and a tap meets the wrong one)."""
SETTLE_AT_MOST = 3.0
"""A screen that keeps changing (a clock, a roll) is tapped after this long anyway."""
LOBBY_SECONDS = 30.0
FIRST_BYTE = "document.body.classList.contains('-first-byte')"
ASKED = b"friends call you"
"""Words of the name question a browser's first page asks."""
SEATED = b"(you)"
"""How the room's seats show the visitor's own."""


@pytest.fixture
def screens(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """What the door sent to the pages, in order."""
    sent: list[bytes] = []
    original = WebVisitorClient.on_data

    async def record(self: WebVisitorClient, payload: bytes) -> None:
        sent.append(payload)
        await original(self, payload)

    monkeypatch.setattr(WebVisitorClient, "on_data", record)
    return sent


@pytest.fixture
def sizes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The terminal sizes (columns, rows) the pages asked their clients for."""
    asked: list[tuple[int, int]] = []
    original = WebVisitorClient.set_terminal_size

    async def record(self: WebVisitorClient, width: int, height: int) -> None:
        asked.append((width, height))
        await original(self, width, height)

    monkeypatch.setattr(WebVisitorClient, "set_terminal_size", record)
    return asked


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> TermScreen:
    """The page's terminal as text, rebuilt from what the door sent it (sized as it asked)."""
    shown = TermScreen(80, 24)
    sent, sized = WebVisitorClient.on_data, WebVisitorClient.set_terminal_size

    async def record(self: WebVisitorClient, payload: bytes) -> None:
        shown.feed(payload)
        await sent(self, payload)

    async def resize(self: WebVisitorClient, width: int, height: int) -> None:
        shown.resize(width, height)
        await sized(self, width, height)

    monkeypatch.setattr(WebVisitorClient, "on_data", record)
    monkeypatch.setattr(WebVisitorClient, "set_terminal_size", resize)
    return shown


async def wait_for_screen(screens: list[bytes], text: bytes, seconds: float) -> None:
    async with asyncio.timeout(seconds):
        while text not in b"".join(screens):
            await asyncio.sleep(0.1)


async def press_key(page: Page, key: str, code: int, text: str = "", modifiers: int = 0) -> None:
    """A key that is not a printable character (Enter, Ctrl+S), as a keyboard sends it."""
    for kind in ("keyDown", "keyUp"):
        extra = {"text": text} if kind == "keyDown" and text else {}
        await page.send(
            "Input.dispatchKeyEvent",
            type=kind,
            key=key,
            windowsVirtualKeyCode=code,
            modifiers=modifiers,
            **extra,
        )


async def name_yourself(page: Page, screens: list[bytes], name: str) -> None:
    """The first page of a browser asks its visitor's name: typed, then Enter, to the lobby."""
    await wait_for_screen(screens, ASKED, LOBBY_SECONDS)
    await page.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
    for letter in name:
        await page.press(letter)
    await press_key(page, "Enter", 13, "\r")
    await wait_for_screen(screens, b"lobby", LOBBY_SECONDS)


async def test_a_phone_reaches_the_lobby_and_types(
    tmp_path: Path, screens: list[bytes], sizes: list[tuple[int, int]]
) -> None:
    async with running_web_door(tmp_path) as host, chromium(tmp_path / "profile", *PHONE) as page:
        started = time.monotonic()
        await page.send("Page.navigate", url=page_url(host))
        try:
            await page.wait_for(FIRST_BYTE, LOBBY_SECONDS)
            await name_yourself(page, screens, "Ann")
            seconds = time.monotonic() - started
            await page.screenshot(tmp_path / "1-lobby.png")
            # The host's side: the visitor's client is in, connected from the door's address.
            (client,) = web_door_of(host).clients
            assert host.address_limits.connections(LOOPBACK) >= 1
            columns, rows = sizes[-1]  # the page fitted its terminal to the phone's screen
            assert 20 <= columns < 60 and rows >= 30, sizes
            # The keyboard: c opens the create-room dialog.
            screens.clear()
            await page.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
            await page.press("c")
            await wait_for_screen(screens, b"Create a room", 10)
            await page.screenshot(tmp_path / "2-create.png")
        except BaseException:
            await page.screenshot(tmp_path / "failed.png")
            raise
        assert client.pid is not None
        print(f"lobby in {seconds:.1f} s at {PHONE[0]}x{PHONE[1]} px: {columns}x{rows} cells")


async def test_a_tap_on_the_footers_create_opens_the_dialog(
    tmp_path: Path, screens: list[bytes], terminal: TermScreen
) -> None:
    """A phone held sideways (844x390, touch): the footer's keys are drawn before any input
    (the page's first word to the client is a blur), and its "c Create" is tapped first."""
    width, height = SIDEWAYS_PHONE
    async with (
        running_web_door(tmp_path) as host,
        chromium(tmp_path / "profile", width, height) as page,
    ):
        await page.send("Page.navigate", url=page_url(host))
        finger = Finger(page, terminal, tmp_path)
        try:
            await page.wait_for(FIRST_BYTE, LOBBY_SECONDS)
            await name_yourself(page, screens, "Ann")
            await finger.shows("c Create", LOBBY_SECONDS)
            screens.clear()
            await finger.tap("c Create")
            await wait_for_screen(screens, b"Create a room", STEP_SECONDS)
            await page.screenshot(tmp_path / "create.png")
        except BaseException:
            await page.screenshot(tmp_path / "failed.png")
            raise


def seated(host: Host, name: str) -> bool:
    """Whether the host has one room, with ``name`` in a seat of it (the room is listed a
    moment before its creator sits down)."""
    rooms = list(host.lobby.rooms.values()) if host.lobby is not None else []
    return len(rooms) == 1 and any(
        member.name == name and member.seat is not None for member in rooms[0].members
    )


def seat_of(host: Host, name: str) -> tuple[str, Member]:
    """The one room and ``name``'s member in it, as the host holds them."""
    assert host.lobby is not None
    (room,) = host.lobby.rooms.values()
    (member,) = [member for member in room.members if member.name == name]
    return room.code, member


async def test_a_reload_goes_back_to_the_same_seat(tmp_path: Path, screens: list[bytes]) -> None:
    """A phone names its visitor, creates a room (and sits in it), reloads: the same seat,
    without the name asked again or the seat offered, on the page and on the host."""
    async with running_web_door(tmp_path) as host, chromium(tmp_path / "profile", *PHONE) as page:
        await page.send("Page.navigate", url=page_url(host))
        try:
            await page.wait_for(FIRST_BYTE, LOBBY_SECONDS)
            await name_yourself(page, screens, "Ann")
            await page.press("c")
            await wait_for_screen(screens, b"Create a room", 10)
            await press_key(page, "s", 83, modifiers=2)  # Ctrl+S: OK
            async with asyncio.timeout(LOBBY_SECONDS):
                while not seated(host, "Ann"):
                    await asyncio.sleep(0.1)
            code, member = seat_of(host, "Ann")
            held = (code, member.member_id, member.seat, member.token_hash)
            first_peer = member.peer
            assert member.seat is not None and member.token_hash and first_peer is not None
            await wait_for_screen(screens, SEATED, LOBBY_SECONDS)
            await page.screenshot(tmp_path / "1-seated.png")
            door = web_door_of(host)
            (before,) = door.clients
            screens.clear()
            await page.send("Page.reload")
            async with asyncio.timeout(LOBBY_SECONDS):  # the reloaded page's own client
                while not door.clients - {before}:
                    await asyncio.sleep(0.1)
            await wait_for_screen(screens, code.encode(), LOBBY_SECONDS)
            await wait_for_screen(screens, SEATED, LOBBY_SECONDS)
            await page.wait_for(FIRST_BYTE, LOBBY_SECONDS)
            await page.screenshot(tmp_path / "2-reloaded.png")
            # The page: the room again, neither the name nor the seat asked about.
            shown = b"".join(screens)
            assert ASKED not in shown and b"to your seat?" not in shown
            # The host: the same member holds the same seat with the same token, connected
            # through the reloaded page's new client, started to resume in the same folder.
            (after,) = door.clients
            assert after is not before and after.folder == before.folder
            assert "--resume" in after.arguments
            again_code, member = seat_of(host, "Ann")
            assert (again_code, member.member_id, member.seat, member.token_hash) == held
            assert member.peer is not None and member.peer is not first_peer
        except BaseException:
            await page.screenshot(tmp_path / "failed.png")
            raise


class Finger:
    """Taps words on the page's terminal, where the rebuilt screen shows them."""

    def __init__(self, page: Page, terminal: TermScreen, folder: Path) -> None:
        self.page, self.terminal, self.folder = page, terminal, folder
        self.steps = 0

    async def shows(self, words: str, seconds: float = STEP_SECONDS) -> tuple[int, int]:
        async with asyncio.timeout(seconds):
            while (found := self.terminal.find(words)) is None:
                await asyncio.sleep(0.1)
        return found

    async def settled(self) -> None:
        """Once the screen has been still for :data:`SETTLE_SECONDS`."""
        clock = asyncio.get_running_loop().time
        start = since = clock()
        last = self.terminal.text()
        while clock() - since < SETTLE_SECONDS and clock() - start < SETTLE_AT_MOST:
            await asyncio.sleep(0.05)
            if (now := self.terminal.text()) != last:
                last, since = now, clock()

    async def tap(self, words: str, *, right: int = 0, down: int = 0) -> None:
        """A tap on ``words`` (or ``right`` cells and ``down`` rows from where they start),
        where they are once the screen is still."""
        await self.shows(words)
        await self.settled()
        await self.tap_now(words, right=right, down=down)

    async def tap_now(self, words: str, *, right: int = 0, down: int = 0) -> None:
        """A tap on ``words`` where they are now (waited for if they are not in sight)."""
        column, row = await self.shows(words)
        box = await self.page.evaluate(
            "(() => { const r = document.querySelector('.xterm-screen')"
            ".getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()"
        )
        left, top, width, height = box
        cell_width, cell_height = width / self.terminal.columns, height / self.terminal.rows
        await self.page.tap(
            left + (column + right + 0.5) * cell_width, top + (row + down + 0.5) * cell_height
        )
        self.steps += 1
        await self.page.screenshot(self.folder / f"{self.steps}-{words.strip()[:12]}.png")


async def test_a_sideways_phone_plays_a_tshirt_round_against_bots_by_taps(
    tmp_path: Path, screens: list[bytes], terminal: TermScreen
) -> None:
    """844x390 with touch: create a room, add two bots, start, play a slogan (or judge),
    read the round's result, all by taps; the host's journal has the web seat's move."""
    width, height = SIDEWAYS_PHONE
    async with (
        running_web_door(tmp_path, bot_pace=0.0) as host,
        chromium(tmp_path / "profile", width, height) as page,
    ):
        await page.send("Page.navigate", url=page_url(host))
        finger = Finger(page, terminal, tmp_path)
        try:
            await page.wait_for(FIRST_BYTE, LOBBY_SECONDS)
            await name_yourself(page, screens, "Ann")
            await finger.shows("c Create", LOBBY_SECONDS)
            assert (terminal.columns, terminal.rows) == (93, 18)
            await finger.tap("c Create")
            await finger.tap("^s OK")
            await finger.shows("You own this room")
            for seated in ("2 seated", "3 seated"):
                await finger.tap("b Add bot")
                await finger.shows(seated)
            await finger.tap("s Start")
            title = await playing_title(finger)
            await finger.tap(title, right=4, down=1)  # the first card: chosen
            await finger.shows(">1")
            await finger.tap(title, right=4, down=1)  # chosen already: played
            await finger.tap("Go on")  # the round's result, read
            async with asyncio.timeout(STEP_SECONDS):
                while terminal.find("the result") is not None:
                    await asyncio.sleep(0.1)
            await finger.shows("Round 2")  # read here: the page goes blank as the door closes
            await page.screenshot(tmp_path / "last.png")
        except BaseException:
            await page.screenshot(tmp_path / "failed.png")
            print(terminal.text())
            raise
        assert host.journal is not None
        (stored,) = host.journal.load()
        moves = [r.command for r in stored.commands if r.seat == 0 and r.command is not None]
    assert moves and moves[0]["type"] in ("submit", "pick"), moves


async def playing_title(finger: Finger) -> str:
    """The title over the cards the web seat may choose from now (it may judge round 1)."""
    async with asyncio.timeout(STEP_SECONDS * 2):
        while True:
            for title in ("Your slogans", "Pick the winner"):
                found = finger.terminal.find(title)
                if found is not None and "(you judge" not in finger.terminal.lines()[found[1]]:
                    return title
            await asyncio.sleep(0.1)
