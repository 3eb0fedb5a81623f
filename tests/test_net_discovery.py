"""LAN discovery for real, inside a network namespace that has only loopback.

``unshare -n`` gives the test its own network: nothing is sent on the real
LAN. Inside it, this file runs itself as a script (``probe``): it browses for
hosts, starts ``partyhost serve`` as a second process, and reports as JSON
lines what it sees: the host appearing, its room count changing, the host
vanishing when it stops. The rest are in-process checks that a broken
multicast setup never stops a host.
"""

from __future__ import annotations

import asyncio
import json
import shlex
import shutil
import signal
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from partyhost.net.address import join_instructions, lan_addresses, reachable_addresses
from partyhost.net.config import HostConfig
from partyhost.net.discovery import SERVICE_TYPE, DiscoveredHost, HostAdvertiser, HostBrowser
from partyhost.net.hosting.host import Host, room_properties
from partyhost.net.protocol import PROTOCOL_VERSION

PROBE_SECONDS = 15.0
NAMESPACE_SETUP = (
    "ip link set lo up && ip link set lo multicast on && "
    "{ ip route add 224.0.0.0/4 dev lo 2>/dev/null || true; }"
)


def namespaces_work() -> str | None:
    """Why a loopback-only namespace cannot be made here, or None when it can."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return "unshare or ip (util-linux, iproute2) is not installed"
    try:
        done = subprocess.run(
            ["unshare", "-n", "sh", "-c", NAMESPACE_SETUP],
            capture_output=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unshare failed: {exc}"
    if done.returncode != 0:
        return f"cannot make a network namespace (not root?): {done.stderr.decode().strip()}"
    return None


class Recorder:
    """A HostListener that queues what the browser reports."""

    def __init__(self) -> None:
        self.events: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

    def host_found(self, host: DiscoveredHost) -> None:
        self.events.put_nowait(("found", host))

    def host_gone(self, key: str) -> None:
        self.events.put_nowait(("gone", key))

    async def next(self, kind: str, check: Any = None) -> Any:
        async with asyncio.timeout(PROBE_SECONDS):
            while True:
                event, value = await self.events.get()
                if event == kind and (check is None or check(value)):
                    return value


def report(event: str, **fields: Any) -> None:
    print(json.dumps({"event": event, **fields}), flush=True)


async def probe(port: int, data_dir: str) -> None:
    """Inside the namespace: see a served host appear, change and vanish."""
    from partyhost.net.clients.client import HostConnection

    recorder = Recorder()
    browser = HostBrowser(recorder)
    await browser.start()
    serve = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "partyhost.cli",
        "serve",
        *("--host", "127.0.0.1", "--port", str(port), "--ssh", "0"),
        *("--data", data_dir, "--name", "lan party"),
        stdout=subprocess.DEVNULL,
    )
    try:
        found: DiscoveredHost = await recorder.next("found")
        report("found", **asdict(found))
        player = await HostConnection.connect("127.0.0.1", port, "Ann")
        await player.create_room("tshirt")
        await player.wait_for("joined")
        busier = await recorder.next("found", lambda host: host.rooms == 1)
        report("updated", **asdict(busier))
        await player.close()
        serve.send_signal(signal.SIGTERM)
        await asyncio.wait_for(serve.wait(), PROBE_SECONDS)
        report("stopped", code=serve.returncode)
        report("gone", key=await recorder.next("gone"))
    finally:
        if serve.returncode is None:
            serve.kill()
            await serve.wait()
        await browser.close()


def run_probe(tmp_path: Path) -> list[dict[str, Any]]:
    command = shlex.join([sys.executable, __file__, "probe", "7777", str(tmp_path / "data")])
    done = subprocess.run(
        ["unshare", "-n", "sh", "-c", f"{NAMESPACE_SETUP} && exec {command}"],
        capture_output=True,
        timeout=PROBE_SECONDS * 4,
        check=False,
    )
    lines = [json.loads(line) for line in done.stdout.decode().splitlines() if line]
    assert done.returncode == 0, (lines, done.stderr.decode()[-3000:])
    return lines


def test_a_served_host_is_found_updated_and_gone_on_a_loopback_only_network(
    tmp_path: Path,
) -> None:
    reason = namespaces_work()
    if reason:
        pytest.skip(reason)
    events = {line["event"]: line for line in run_probe(tmp_path)}
    found = events["found"]
    assert found["key"] == f"lan party.{SERVICE_TYPE}"
    assert found["name"] == "lan party"
    assert found["addresses"] == ["127.0.0.1"]
    assert found["port"] == 7777
    assert found["protocol"] == PROTOCOL_VERSION
    assert (found["rooms"], found["playing"], found["open_seats"]) == (0, 0, 0)
    assert isinstance(found["ssh_port"], int) and found["ssh_port"] > 0
    updated = events["updated"]
    assert (updated["rooms"], updated["open_seats"]) == (1, 9)  # The T-Shirt Game seats 10
    assert events["stopped"]["code"] == 0
    assert events["gone"]["key"] == found["key"]


def test_the_advertised_properties_count_rooms_and_open_seats() -> None:
    rooms = [
        {"status": "lobby", "seats": 2, "max_seats": 6},
        {"status": "playing", "seats": 4, "max_seats": 6},
        {"status": "over", "seats": 3, "max_seats": 6},
    ]
    assert room_properties("Ann's box", rooms, 2222) == {
        "name": "Ann's box",
        "proto": str(PROTOCOL_VERSION),
        "rooms": "3",
        "playing": "1",
        "open": "4",
        "ssh": "2222",
    }
    assert "ssh" not in room_properties("x", [], None)


class BrokenZeroconf:
    """An AsyncZeroconf that fails as it does without multicast."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise OSError(19, "No such device")


async def test_a_host_whose_advertisement_fails_still_serves(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr("zeroconf.asyncio.AsyncZeroconf", BrokenZeroconf)
    host = Host(HostConfig(host="127.0.0.1", port=0, discovery=True, shutdown_timeout=2.0))
    await host.start()
    try:
        async with asyncio.timeout(5):
            while host.lan is not None and host.lan.advertiser is not None:
                await asyncio.sleep(0.02)
        _, writer = await asyncio.open_connection("127.0.0.1", host.port)
        writer.close()
    finally:
        await host.close()
    assert "cannot advertise on the LAN" in caplog.text


async def test_a_browser_without_multicast_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    from partyhost.net.discovery import DiscoveryError

    monkeypatch.setattr("zeroconf.asyncio.AsyncZeroconf", BrokenZeroconf)
    with pytest.raises(DiscoveryError, match="cannot look for hosts"):
        await HostBrowser(Recorder()).start()
    advertiser = HostAdvertiser(name="x", port=1, addresses=[], properties=dict)
    with pytest.raises(DiscoveryError, match="cannot advertise"):
        await advertiser.start()


def test_serve_prints_both_ways_in_for_every_lan_address() -> None:
    text = join_instructions(
        "Ann's box",
        "0.0.0.0",
        7777,
        addresses=["192.0.2.7", "198.51.100.3"],
        ssh_port=2222,
        discovery=True,
    )
    lines = text.splitlines()
    assert lines[0] == 'partyhost host "Ann\'s box" is listening on 0.0.0.0:7777'
    for address in ("192.0.2.7", "198.51.100.3"):
        assert f"  partyhost join {address}:7777" in lines
        assert f"  ssh -t -p 2222 NAME@{address}" in lines
    assert "(no password)" in text and "finds this host on the LAN" in text
    plain = join_instructions("box", "127.0.0.1", 7000)
    assert "ssh" not in plain and "  partyhost join 127.0.0.1:7000" in plain


def test_lan_addresses_come_from_the_interfaces_without_loopback() -> None:
    addresses = lan_addresses()
    assert all(not address.startswith("127.") for address in addresses)
    assert reachable_addresses("192.0.2.1") == ["192.0.2.1"]
    assert reachable_addresses("0.0.0.0") == (addresses or ["127.0.0.1"])


if __name__ == "__main__" and sys.argv[1:2] == ["probe"]:
    asyncio.run(probe(int(sys.argv[2]), sys.argv[3]))
