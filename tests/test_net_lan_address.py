"""The browser door's URL names the address other devices reach, never a guess they cannot use.

A host bound to one address is reached there; a wildcard host asks the system which
interface its route to the LAN leaves by (a UDP socket connected, nothing sent), then
its own name, and only then loopback. The system is played by a fake socket module,
so no test depends on (or touches) the network this machine is on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

import pytest
from partyhost.net import address
from partyhost.net.address import ROUTE_PROBE, lan_address, web_url


@dataclass
class FakeSystem:
    """What the system answers: the routed source address (or an error), the name's address."""

    routed: str | OSError = "192.168.1.23"
    named: str | OSError = "127.0.1.1"
    connected: list[tuple[str, int]] = field(default_factory=list)
    sent: list[bytes] = field(default_factory=list)

    def module(self) -> SimpleNamespace:
        system = self

        class FakeSocket:
            def __init__(self, family: int, kind: int) -> None:
                assert (family, kind) == (address.socket.AF_INET, address.socket.SOCK_DGRAM)

            def __enter__(self) -> FakeSocket:
                return self

            def __exit__(self, *exc: object) -> None:
                pass

            def connect(self, target: tuple[str, int]) -> None:
                system.connected.append(target)
                if isinstance(system.routed, OSError):
                    raise system.routed

            def getsockname(self) -> tuple[str, int]:
                assert isinstance(system.routed, str)
                return (system.routed, 40000)

            def send(self, data: bytes) -> int:
                system.sent.append(data)
                return len(data)

        def gethostbyname(name: str) -> str:
            assert name == "partybox"
            if isinstance(system.named, OSError):
                raise system.named
            return system.named

        return SimpleNamespace(
            AF_INET=address.socket.AF_INET,
            SOCK_DGRAM=address.socket.SOCK_DGRAM,
            socket=FakeSocket,
            gethostname=lambda: "partybox",
            gethostbyname=gethostbyname,
        )


@pytest.fixture
def system(monkeypatch: pytest.MonkeyPatch) -> FakeSystem:
    fake = FakeSystem()
    monkeypatch.setattr(address, "socket", fake.module())
    return fake


@pytest.mark.parametrize("bound", ["127.0.0.1", "192.168.7.40", "partybox.lan", "::1"])
def test_a_host_bound_to_one_address_is_reached_there(system: FakeSystem, bound: str) -> None:
    assert lan_address(bound) == bound
    assert system.connected == []  # nothing asked of the system


def test_urls_put_an_ipv6_address_in_brackets(system: FakeSystem) -> None:
    assert web_url("192.168.7.40", 8080) == "http://192.168.7.40:8080/"
    assert web_url("::1", 8081) == "http://[::1]:8081/"


@pytest.mark.parametrize("wildcard", ["", "0.0.0.0", "::"])
def test_a_wildcard_host_is_reached_where_the_route_to_the_lan_leaves(
    system: FakeSystem, wildcard: str
) -> None:
    assert lan_address(wildcard) == "192.168.1.23"
    assert web_url(wildcard, 8080) == "http://192.168.1.23:8080/"
    assert system.connected == [ROUTE_PROBE, ROUTE_PROBE]  # once for each call
    assert system.sent == []
    assert address.ipaddress.IPv4Address(ROUTE_PROBE[0]).is_private


def test_without_a_route_the_machines_name_gives_the_address(system: FakeSystem) -> None:
    system.routed = OSError(101, "Network is unreachable")
    system.named = "10.0.0.8"
    assert lan_address("0.0.0.0") == "10.0.0.8"


@pytest.mark.parametrize("routed", ["0.0.0.0", "127.0.0.1", "169.254.3.3"])
def test_a_route_no_other_device_can_use_falls_back_to_the_name(
    system: FakeSystem, routed: str
) -> None:
    system.routed = routed
    system.named = "172.16.4.4"
    assert lan_address("") == "172.16.4.4"


@pytest.mark.parametrize("named", [OSError(-2, "Name or service not known"), "127.0.1.1"])
def test_loopback_only_when_nothing_else_answers(system: FakeSystem, named: str | OSError) -> None:
    system.routed = OSError(101, "Network is unreachable")
    system.named = named
    assert lan_address("0.0.0.0") == "127.0.0.1"
    assert web_url("0.0.0.0", 8080) == "http://127.0.0.1:8080/"
