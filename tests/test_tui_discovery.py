"""The connect screen's list of hosts found on the LAN, fed by a fake browser."""

from __future__ import annotations

from dataclasses import replace

import pytest
from partyhost.net.discovery import DiscoveredHost, HostListener, parse_host
from partyhost.net.protocol import PROTOCOL_VERSION
from partyhost.tui.app import PartyApp
from partyhost.tui.shared import connect
from partyhost.tui.shared.connect import LOOKING, ConnectScreen, HostList, describe_host
from partyhost.tui.shared.lobbyscreen import LobbyScreen
from textual.widgets import Input, OptionList
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, catch_join, screen_text, settle

SIZE = (80, 24)

ANNS_BOX = DiscoveredHost(
    key="Ann's box._partyhost._tcp.local.",
    name="Ann's box",
    addresses=("192.0.2.7",),
    port=7777,
    protocol=PROTOCOL_VERSION,
    rooms=2,
    open_seats=3,
    ssh_port=2222,
)
ZOES_LAPTOP = DiscoveredHost(
    key="zoe._partyhost._tcp.local.",
    name="Zoe's laptop",
    addresses=("192.0.2.9",),
    port=8000,
    protocol=PROTOCOL_VERSION,
)


class FakeBrowser:
    """Stands in for the mDNS browser: the test calls the listener itself."""

    def __init__(self, fail: BaseException | None = None) -> None:
        self.fail = fail
        self.listener: HostListener | None = None
        self.started = False
        self.closed = False

    def __call__(self, listener: HostListener) -> FakeBrowser:
        self.listener = listener
        return self

    async def start(self) -> None:
        if self.fail is not None:
            raise self.fail
        self.started = True

    async def close(self) -> None:
        self.closed = True

    def found(self, host: DiscoveredHost) -> None:
        assert self.listener is not None
        self.listener.host_found(host)

    def gone(self, key: str) -> None:
        assert self.listener is not None
        self.listener.host_gone(key)


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> FakeBrowser:
    fake = FakeBrowser()
    monkeypatch.setattr(connect.DISCOVERY, "browser_factory", fake)
    return fake


def listed(app: PartyApp) -> list[str]:
    options = app.screen.query_one("#hosts", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_the_list_says_it_is_looking_until_a_host_appears(browser: FakeBrowser) -> None:
    app = app_for(FakeHost(), address=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert browser.started
        assert LOOKING in screen_text(app)
        browser.found(ANNS_BOX)
        await settle(pilot)
        text = screen_text(app)
        assert LOOKING not in text
        assert "Ann's box  192.0.2.7:7777" in text


async def test_hosts_appear_and_vanish_live(browser: FakeBrowser) -> None:
    app = app_for(FakeHost(), address=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        browser.found(ZOES_LAPTOP)
        browser.found(ANNS_BOX)
        await settle(pilot)
        assert [line.split("  ")[0] for line in listed(app)] == ["Ann's box", "Zoe's laptop"]
        browser.found(replace(ANNS_BOX, rooms=3, open_seats=0))
        await settle(pilot)
        assert "3 rooms, 0 open seats" in listed(app)[0]
        browser.gone(ANNS_BOX.key)
        await settle(pilot)
        assert [line.split("  ")[0] for line in listed(app)] == ["Zoe's laptop"]
        browser.gone(ZOES_LAPTOP.key)
        await settle(pilot)
        assert listed(app) == []
        assert "None found yet" in screen_text(app)


async def test_enter_on_a_found_host_connects_to_it(browser: FakeBrowser) -> None:
    host = FakeHost()
    app = app_for(host, address=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        browser.found(ANNS_BOX)
        browser.found(ZOES_LAPTOP)
        await settle(pilot)
        app.screen.query_one("#hosts", OptionList).focus()
        await pilot.press("down", "enter")
        await settle(pilot)
        assert host.calls == [("192.0.2.9", 8000, "Ann")]
        assert isinstance(app.screen, LobbyScreen)
        assert browser.closed, "leaving the connect screen stops browsing"


async def test_a_typed_address_still_works_with_hosts_listed(browser: FakeBrowser) -> None:
    host = FakeHost()
    app = app_for(host, address=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        browser.found(ANNS_BOX)
        await settle(pilot)
        await pilot.click("#address")
        await pilot.press(*"partybox:7000", "enter")
        await settle(pilot)
        assert host.calls == [("partybox", 7000, "Ann")]


async def test_a_browser_that_cannot_start_leaves_a_hint_and_typing_works(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    failing = FakeBrowser(fail=OSError("no multicast"))
    monkeypatch.setattr(connect.DISCOVERY, "browser_factory", failing)
    host = FakeHost()
    app = app_for(host, address=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "Cannot look for hosts here (no multicast)" in screen_text(app)
        app.screen.query_one("#address", Input).value = "partybox"
        await pilot.press("enter")
        await settle(pilot)
        assert host.calls == [("partybox", 7777, "Ann")]


async def test_without_discovery_the_connect_screen_has_no_host_list() -> None:
    assert connect.DISCOVERY.browser_factory is None  # `partyhost join --no-discovery`, tests
    app = app_for(FakeHost(), address=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ConnectScreen)
        assert not app.screen.query(HostList)


def test_a_host_line_names_the_address_rooms_and_other_versions() -> None:
    assert describe_host(ANNS_BOX) == "Ann's box  192.0.2.7:7777  2 rooms, 3 open seats"
    assert describe_host(ZOES_LAPTOP) == "Zoe's laptop  192.0.2.9:8000  no rooms yet"
    old = DiscoveredHost(key="k", name="old", addresses=("::1",), port=7777, protocol=0)
    assert describe_host(old) == "old  [::1]:7777  no rooms yet  (other version: protocol 0)"


def test_advertised_text_is_cleaned_and_bad_numbers_ignored() -> None:
    txt = {
        "name": "\x1b[2Jevil[red]host",
        "proto": "1",
        "rooms": "lots",
        "open": "9999999",
        "ssh": None,
    }
    host = parse_host("x._partyhost._tcp.local.", 7777, ["192.0.2.1"], txt)
    assert host.name == "evil[red]host"
    assert (host.protocol, host.rooms, host.open_seats, host.ssh_port) == (1, 0, 0, None)
    unnamed = parse_host("Bob's den._partyhost._tcp.local.", 7777, [], {})
    assert unnamed.name == "Bob's den"


@pytest.mark.parametrize(
    ("flags", "looking"),
    [([], True), (["--no-discovery"], False), (["partybox:7000"], False)],
)
def test_join_looks_for_hosts_unless_told_not_to_or_given_an_address(
    monkeypatch: pytest.MonkeyPatch, flags: list[str], looking: bool
) -> None:
    from partyhost import cli
    from partyhost.net.discovery import HostBrowser

    monkeypatch.setattr(connect.DISCOVERY, "browser_factory", None)
    catch_join(monkeypatch)
    assert cli.main(["join", *flags]) == 0
    assert connect.DISCOVERY.browser_factory is (HostBrowser if looking else None)
