"""The browser door knows a browser again: its cookie names a folder kept for it, where the
visitor's client keeps the name and seat tokens; a page whose browser has no other page open
starts its client with ``--resume``, a second tab without it.

The real-browser reload is in test_web_door_browser.py.
"""

from __future__ import annotations

import asyncio
import os
import stat
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any, cast

import aiohttp
import pytest
from partyhost.net.door import visitorenv
from partyhost.net.door.visitorenv import DoorFolders
from partyhost.net.door.webclients import web_client_command, web_client_environment
from partyhost.net.door.webdoor import (
    COOKIE,
    OpenPage,
    OpenPages,
    new_visitor_id,
    visitor_of,
)
from webdoorhelpers import (
    LOBBY,
    closed_within,
    page_url,
    read_until,
    running_web_door,
    session_from,
    web_door_of,
)

ASKED = b"friends call you"
"""Words of the locked client's name question, as the web driver sends them."""


def test_only_an_id_the_door_could_have_made_is_read_from_the_cookie() -> None:
    made = new_visitor_id()
    assert len(made) == 32 and visitor_of({COOKIE: made}) == made
    assert new_visitor_id() != made
    for mangled in ("", "short", made + "x", made[:-1] + "/", "../" * 10 + "ab", made[:-1] + "é"):
        assert visitor_of({COOKIE: mangled}) is None, mangled
    assert visitor_of({}) is None
    assert visitor_of({"other": made}) is None


def test_a_kept_folder_is_named_by_a_hash_of_the_id_and_found_again(tmp_path: Path) -> None:
    folders = DoorFolders(tmp_path / "data")
    folders.open()
    ann, bob = new_visitor_id(), new_visitor_id()
    folder = folders.kept(ann)
    assert folder.parent == folders.kept_base() and ann not in str(folder)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    (folder / "remembered").write_text("Ann", encoding="utf-8")
    folders.release(folder)
    assert folders.kept(ann) == folder and (folder / "remembered").exists()
    assert folders.kept(bob) != folder
    folders.close()
    # In the data folder, the kept folders outlive the door: a restarted host knows its visitors.
    again = DoorFolders(tmp_path / "data")
    again.open()
    assert again.kept(ann) == folder and (folder / "remembered").exists()
    again.close()


def test_without_a_data_folder_kept_folders_go_with_the_door(tmp_path: Path) -> None:
    folders = DoorFolders(None)
    folders.open()
    folder = folders.kept(new_visitor_id())
    assert folders.root is not None and folders.root in folder.parents
    folders.close()
    assert not folder.exists()


def test_only_the_folders_used_last_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(visitorenv, "MAX_KEPT", 3)
    folders = DoorFolders(tmp_path / "data")
    folders.open()
    playing = folders.kept(new_visitor_id())  # still in use: never dropped
    made = []
    for age in range(2):
        folder = folders.kept(new_visitor_id())
        folders.release(folder)
        os.utime(folder, (1000 + age, 1000 + age))  # used long ago, the first one first
        made.append(folder)
    os.utime(playing, (1, 1))
    newest = folders.kept(new_visitor_id())
    assert set(folders.kept_base().iterdir()) == {playing, made[1], newest}, "the oldest went"
    folders.release(newest)
    latest = folders.kept(new_visitor_id())
    assert set(folders.kept_base().iterdir()) == {playing, newest, latest}
    folders.close()


def test_a_kept_folder_that_is_not_a_folder_is_refused(tmp_path: Path) -> None:
    folders = DoorFolders(tmp_path / "data")
    folders.open()
    visitor = new_visitor_id()
    folder = folders.kept(visitor)
    folders.release(folder)
    folder.rmdir()
    folder.symlink_to(tmp_path)
    with pytest.raises(OSError):
        folders.kept(visitor)
    folders.close()


def test_a_kept_visitors_client_remembers_and_a_reload_resumes(tmp_path: Path) -> None:
    assert "--no-remember" in web_client_command("h:1")
    env = web_client_environment(tmp_path, 80, 24)  # its seats: in its folder on every system
    assert Path(env["PARTYHOST_STATE_DIR"]).parent == tmp_path
    kept = web_client_command("h:1", kept=True)
    assert "--no-remember" not in kept and "--locked" in kept and "--resume" not in kept
    assert web_client_command("h:1", kept=True, resume=True)[-1] == "--resume"


class StubSocket:
    """A page's websocket that answers pings, or (a connection that died unseen) does not."""

    def __init__(self, alive: bool) -> None:
        self.alive = alive
        self.page: OpenPage | None = None

    async def ping(self) -> None:
        if self.alive and self.page is not None:
            asyncio.get_running_loop().call_soon(self.page.heard.set)


def stub_page(alive: bool) -> OpenPage:
    socket = StubSocket(alive)
    socket.page = OpenPage(cast(Any, socket))
    return socket.page


async def test_open_pages_tell_a_reload_from_a_second_tab() -> None:
    pages = OpenPages()
    assert not await pages.another_is_open("ann")
    first = stub_page(alive=True)
    pages.opened("ann", first)
    assert await pages.another_is_open("ann", 0.1, 1), "a second tab: the first stays, alive"
    asyncio.get_running_loop().call_later(0.1, pages.closed, "ann", first)
    assert not await pages.another_is_open("ann", 5, 1), "a reload: the old page closes"
    assert pages.count("ann") == 0
    pages.opened("ann", stub_page(alive=False))
    assert not await pages.another_is_open("ann", 0.1, 0.2), "a page that died unseen"
    pages.opened("ann", stub_page(alive=True))
    assert await pages.another_is_open("ann", 0.1, 1), "one live page is enough"


async def test_the_page_gives_a_browser_its_visitor_cookie_once(tmp_path: Path) -> None:
    async with running_web_door(tmp_path) as host, session_from() as session:
        async with session.get(page_url(host)) as response:
            given = SimpleCookie(response.headers["Set-Cookie"])[COOKIE]
        visitor = given.value
        assert visitor_of({COOKIE: visitor}) == visitor
        assert given["httponly"] and given["samesite"] == "Strict" and given["path"] == "/"
        async with session.get(page_url(host), headers={"Cookie": f"{COOKIE}={visitor}"}) as again:
            assert "Set-Cookie" not in again.headers
        async with session.get(page_url(host), headers={"Cookie": f"{COOKIE}=../x"}) as mangled:
            renewed = SimpleCookie(mangled.headers["Set-Cookie"])[COOKIE].value
            assert renewed != visitor and visitor_of({COOKIE: renewed}) == renewed


async def open_as(
    session: aiohttp.ClientSession, url: str, origin: str, visitor: str
) -> aiohttp.ClientWebSocketResponse:
    headers = {"Origin": origin, "Cookie": f"{COOKIE}={visitor}"}
    return await session.ws_connect(url, headers=headers)


async def drain(socket: aiohttp.ClientWebSocketResponse) -> None:
    """Read the page's websocket until it closes, answering the door's pings."""
    async for _ in socket:
        pass


async def test_a_browsers_pages_share_a_kept_folder_and_only_a_lone_page_resumes(
    tmp_path: Path,
) -> None:
    async with running_web_door(tmp_path) as host, session_from() as session:
        door = web_door_of(host)
        url, origin = page_url(host, "/ws?width=80&height=24"), page_url(host, "").rstrip("/")
        visitor = new_visitor_id()
        first = await open_as(session, url, origin, visitor)
        await read_until(first, ASKED)  # asked once, then remembered
        (alone,) = door.clients
        assert "--resume" in alone.arguments and "--no-remember" not in alone.arguments
        assert alone.folder.parent == door.folders.kept_base()
        answering = asyncio.ensure_future(drain(first))  # a browser answers pings at once
        second = await open_as(session, url, origin, visitor)  # a second tab
        await read_until(second, ASKED)
        (tab,) = door.clients - {alone}
        assert tab.folder == alone.folder and "--resume" not in tab.arguments
        await second.close()
        await first.close()
        await answering
        assert await closed_within(first, 10)
        reloaded = await open_as(session, url, origin, visitor)
        await read_until(reloaded, ASKED)
        (again,) = door.clients
        assert again.folder == alone.folder and "--resume" in again.arguments
        await reloaded.close()
        stranger = await session.ws_connect(url, headers={"Origin": origin})  # no cookie
        await read_until(stranger, LOBBY)  # nothing to remember with: no name asked
        (thrown,) = door.clients
        assert "--no-remember" in thrown.arguments and thrown.folder.parent == door.folders.root
        await stranger.close()


async def test_a_page_whose_old_page_died_unseen_resumes(tmp_path: Path) -> None:
    """A phone that slept: its old page's connection is still open on the door's side but
    answers nothing; the page the phone opens on waking goes back to the seat."""
    async with running_web_door(tmp_path) as host, session_from() as session:
        door = web_door_of(host)
        url, origin = page_url(host, "/ws?width=80&height=24"), page_url(host, "").rstrip("/")
        visitor = new_visitor_id()
        asleep = await open_as(session, url, origin, visitor)
        await read_until(asleep, ASKED)  # then read no more: no pong goes back
        (old,) = door.clients
        woken = await open_as(session, url, origin, visitor)
        await read_until(woken, ASKED)
        (new,) = door.clients - {old}
        assert new.folder == old.folder and "--resume" in new.arguments
        assert door.pages.count(visitor) == 2, "the old page is still open on the door's side"
        await woken.close()
        await asleep.close()


async def test_pings_are_answered_but_do_not_keep_an_idle_page_open(tmp_path: Path) -> None:
    """The door answers a page's pings itself (so that it hears pongs too); neither counts as
    the visitor doing something."""
    async with running_web_door(tmp_path, web_idle_timeout=2.0) as host, session_from() as session:
        url, origin = page_url(host, "/ws?width=80&height=24"), page_url(host, "").rstrip("/")
        socket = await session.ws_connect(url, headers={"Origin": origin}, autoping=False)
        pongs = 0
        async with asyncio.timeout(30):
            while True:
                await socket.ping(b"still here")
                message = await socket.receive()
                while message.type == aiohttp.WSMsgType.BINARY:  # the screen
                    message = await socket.receive()
                if message.type == aiohttp.WSMsgType.PONG:
                    pongs += 1
                    await asyncio.sleep(0.3)
                    continue
                assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
                break
        assert pongs >= 2
        await socket.close()
