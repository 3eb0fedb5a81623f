"""``partyhost party``: a LAN host, its doors and the host's own client in one process.

The host is real (loopback, real doors, a real data folder); the client runs
headless under Textual's pilot in place of the full screen; friends are the
typed client API on a second connection.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from nethelpers import Seat
from partyhost.cli import build_parser, main
from partyhost.net import protocol as p
from partyhost.net.address import DEFAULT_SSH_PORT, DEFAULT_WEB_PORT
from partyhost.net.qrdrawing import blocks_fit, draw_qr
from partyhost.playcommands import serve_config, with_party_doors
from partyhost.tui import hostplays
from partyhost.tui.app import PartyApp
from partyhost.tui.hostplays import (
    PARTY_LOG,
    HostingApp,
    StopPartyScreen,
    enter_pressed,
    host_party,
    join_lines,
    stop_question,
)
from partyhost.tui.play import QuickGame
from textual.pilot import Pilot
from tuikit.pilot import screen_text

# --- the command line -------------------------------------------------------------


def _party_args(*words: str) -> Any:
    return build_parser().parse_args(["party", *words])


@pytest.fixture
def no_party(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refused command must stop before anything is hosted."""

    def hosted(*args: object, **kwargs: object) -> int:
        raise AssertionError("the party was started")

    monkeypatch.setattr(hostplays, "run_party", hosted)


def test_party_is_listed_by_partyhost_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert re.search(r"^\s+party\s+host for your LAN and play", capsys.readouterr().out, re.M)


def test_party_opens_both_doors_unless_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("partyhost.playcommands.PSEUDO_TERMINALS", True)
    args = _party_args()
    assert args.game is None and not args.no_wait
    doors = with_party_doors(args)
    assert (doors.ssh, doors.web) == (DEFAULT_SSH_PORT, DEFAULT_WEB_PORT)
    doors = with_party_doors(_party_args("tshirt", "--ssh", "2300", "--web", "0"))
    assert (doors.ssh, doors.web) == (2300, 0)
    doors = with_party_doors(_party_args("--no-ssh", "--no-web"))
    assert (doors.ssh, doors.web) == (None, None)
    config = serve_config(with_party_doors(_party_args("--port", "7000", "--name", "Den")))
    assert (config.port, config.host_name, config.ssh_port) == (7000, "Den", DEFAULT_SSH_PORT)
    assert config.discovery and config.data_dir is not None


def test_party_has_no_ssh_door_where_the_system_cannot_host_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], no_party: None
) -> None:
    monkeypatch.setattr("partyhost.playcommands.PSEUDO_TERMINALS", False)
    assert with_party_doors(_party_args()).ssh is None
    assert main(["party", "--ssh", "2222"]) == 2
    assert "no SSH door here" in capsys.readouterr().err


@pytest.mark.parametrize(
    "words",
    [
        ["--ssh", "2300", "--no-ssh"],
        ["--web", "8000", "--no-web"],
        ["--port", "70000"],
        ["--level", "expert"],
    ],
)
def test_party_refuses_flags_argparse_can_check(words: list[str], no_party: None) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["party", *words])
    assert stopped.value.code == 2


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["--bots", "2"], "--bots needs a GAME"),
        (["--level", "easy"], "--level needs a GAME"),
        (["--option", "target=1000"], "--option needs a GAME"),
        (["--no-ssh", "--ssh-password", "pw"], "--ssh-password is for the SSH door"),
        (["chess"], "no game 'chess'; try one of: "),
        (["four-corners", "--bots", "2"], "takes 0 to 1 bots besides you"),
        (["tshirt", "--bots", "-1"], "takes 0 to 9 bots besides you"),
        (["tshirt", "--option", "target"], "is not NAME=VALUE"),
    ],
)
def test_party_refuses_combinations_that_do_not_go_together(
    words: list[str], said: str, capsys: pytest.CaptureFixture[str], no_party: None
) -> None:
    assert main(["party", *words]) == 2
    assert said in capsys.readouterr().err


def test_the_join_lines_name_every_way_in() -> None:
    text = join_lines("Den", "192.168.1.20", 7777, ssh_port=2222, ssh_password=True, web_port=8080)
    assert text.splitlines() == [
        "partyhost party: the host 'Den' is open. Friends join with:",
        "  partyhost join 192.168.1.20:7777",
        "  ssh -t -p 2222 NAME@192.168.1.20   (NAME: their name; the party password)",
        "  http://192.168.1.20:8080/   (in a browser: phones too)",
        "The party stops when you quit your client.",
    ]
    bare = join_lines(
        "Den", "10.0.0.5", 7000, ssh_port=None, ssh_password=False, web_port=None, ssh_off="no pty"
    )
    assert "ssh -t" not in bare and "http://" not in bare
    assert "No SSH door: no pty." in bare


def test_the_quit_question_counts_the_friends() -> None:
    assert stop_question(1) == "1 friend is still at the table: stop the party?"
    assert stop_question(2) == "2 friends are still at the table: stop the party?"


def test_a_taken_door_port_names_the_flag_to_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def never(app: PartyApp) -> object:
        raise AssertionError("the client opened although the host could not start")

    monkeypatch.setattr(hostplays.HostingApp, "run_async", never)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(
            [
                *("party", "--no-wait", "--host", "127.0.0.1", "--port", "0", "--ssh", "0"),
                *("--web", str(port), "--no-discovery", "--data", str(tmp_path / "host")),
            ]
        )
    assert code == 1
    said = capsys.readouterr().err
    assert f"port {port} is already in use" in said
    assert f"try --web {port + 1}" in said


# --- the party itself -----------------------------------------------------------------


Driver = Callable[[Pilot[int], HostingApp], Awaitable[None]]


async def _party(
    tmp_path: Path,
    drive: Driver,
    *words: str,
    wait: Callable[[], Awaitable[None]] | None = None,
    out: io.StringIO | None = None,
) -> tuple[int, str]:
    """Run ``partyhost party WORDS`` on loopback with every port free-picked, the client
    driven by ``drive``; the exit code and what was printed before the client."""
    doors = [
        *([] if {"--ssh", "--no-ssh"} & set(words) else ["--ssh", "0"]),
        *([] if {"--web", "--no-web"} & set(words) else ["--web", "0"]),
    ]
    args = _party_args(
        *words,
        *doors,
        *("--host", "127.0.0.1", "--port", "0", "--no-discovery"),
        *("--data", str(tmp_path / "host")),
    )
    table = None
    if args.game is not None:
        table = QuickGame(args.game, args.bots if args.bots is not None else 3, start=False)
    out = io.StringIO() if out is None else out

    async def headless(app: PartyApp) -> None:
        assert isinstance(app, HostingApp)
        async with app.run_test(size=(100, 30)) as pilot:
            await drive(pilot, app)

    code = await host_party(
        serve_config(with_party_doors(args)),
        table,
        "Hana",
        wait=wait,
        out=out,
        run_client=headless,
    )
    return code, out.getvalue()


async def _until(pilot: Pilot[int], condition: Callable[[], object], seconds: float = 10) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("never happened")


def _port(app: PartyApp) -> int:
    assert app.locked_address is not None
    return int(app.locked_address.rpartition(":")[2])


async def _first_bytes(port: int, send: bytes = b"") -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        if send:
            writer.write(send)
            await writer.drain()
        async with asyncio.timeout(5):
            return await reader.readline()
    finally:
        writer.close()


async def test_a_friend_joins_the_party_over_loopback_and_quitting_asks_first(
    tmp_path: Path,
) -> None:
    """``party tshirt --no-wait``: the room is made with bots but not started; a friend
    joins it; quitting asks while the friend is there, and stops the host on a yes."""
    seen: dict[str, Any] = {}

    async def drive(pilot: Pilot[int], app: HostingApp) -> None:
        await _until(pilot, lambda: app.room is not None and len(app.room["seats"]) == 4)
        assert app.room is not None
        code = app.room["code"]
        bea = await Seat.open(_port(app), "Bea")
        seen["bea"] = bea
        await bea.list_rooms()
        listed = await bea.expect(p.ROOMS, where=lambda m: bool(m["rooms"]))
        assert [room["code"] for room in listed["rooms"]] == [code]
        await bea.join_room(code)
        await bea.expect(p.ROOM, where=lambda m: len(m["seats"]) == 5)
        await _until(pilot, lambda: app.room is not None and len(app.room["seats"]) == 5)
        await pilot.pause(0.3)
        assert app.room is not None and app.room["status"] == "lobby"  # the host starts it
        assert app.wanted_screen() == "room"

        await pilot.press("ctrl+q")
        await _until(pilot, lambda: isinstance(app.screen, StopPartyScreen))
        assert "1 friend is still at the table: stop the party?" in screen_text(app)
        await pilot.press("n")
        await _until(pilot, lambda: not isinstance(app.screen, StopPartyScreen))
        assert app.is_running and not bea.done
        await pilot.press("ctrl+q")
        await _until(pilot, lambda: isinstance(app.screen, StopPartyScreen))
        await pilot.press("y")
        await _until(pilot, lambda: app._exit)

    code, printed = await _party(tmp_path, drive, "tshirt", "--no-wait")
    assert code == 0
    bea: Seat = seen["bea"]
    await bea.until(lambda: bea.done)  # the host is gone
    assert any(m["t"] == p.BYE for m in bea.log)
    assert "Press Enter" not in printed


async def test_the_printed_lines_lead_to_the_running_host_and_its_doors(
    tmp_path: Path,
) -> None:
    """Without a game the lobby opens; each printed way in answers on its port."""
    answers: dict[str, bytes] = {}
    out = io.StringIO()

    async def drive(pilot: Pilot[int], app: HostingApp) -> None:
        await _until(pilot, lambda: app.wanted_screen() == "lobby")
        assert app.room is None
        text = out.getvalue()
        assert f"  partyhost join 127.0.0.1:{_port(app)}" in text.splitlines()
        ssh = re.search(r"ssh -t -p (\d+) NAME@127\.0\.0\.1", text)
        web = re.search(r"http://127\.0\.0\.1:(\d+)/", text)
        assert ssh is not None and web is not None
        drawn = draw_qr(web.group(0), ascii_only=not blocks_fit(out.encoding))
        assert "\n".join(drawn) in text  # the URL's QR code, for a phone's camera
        answers["ssh"] = await _first_bytes(int(ssh.group(1)))
        answers["web"] = await _first_bytes(int(web.group(1)), b"GET / HTTP/1.0\r\n\r\n")
        await pilot.press("ctrl+q")  # nobody else here: no question
        await _until(pilot, lambda: app._exit)

    code, _ = await _party(tmp_path, drive, "--no-wait", out=out)
    assert code == 0
    assert answers["ssh"].startswith(b"SSH-2.0-")
    assert answers["web"].startswith(b"HTTP/1.")


async def test_the_client_waits_for_enter_after_the_join_lines(tmp_path: Path) -> None:
    reading, writing = os.pipe()
    stdin = os.fdopen(reading, "r", encoding="utf-8")
    started: list[bool] = []

    async def drive(pilot: Pilot[int], app: HostingApp) -> None:
        started.append(True)
        await _until(pilot, lambda: app.wanted_screen() == "lobby")
        await pilot.press("ctrl+q")
        await _until(pilot, lambda: app._exit)

    async def enter() -> None:
        await enter_pressed(stdin)

    party = asyncio.create_task(_party(tmp_path, drive, "--no-ssh", "--no-web", wait=enter))
    await asyncio.sleep(1.0)
    assert not started and not party.done()
    os.write(writing, b"\n")
    code, printed = await asyncio.wait_for(party, 20)
    os.close(writing)
    stdin.close()
    assert code == 0 and started
    assert printed.rstrip().endswith("Press Enter to sit down at the table.")
    assert "ssh -t" not in printed and "http://" not in printed


async def test_the_hosts_warnings_go_to_party_log(tmp_path: Path) -> None:
    async def drive(pilot: Pilot[int], app: HostingApp) -> None:
        logging.getLogger("partyhost.net.rooms.room").warning("room WXYZ failed")
        await _until(pilot, lambda: app.wanted_screen() == "lobby")
        await pilot.press("ctrl+q")
        await _until(pilot, lambda: app._exit)

    code, printed = await _party(tmp_path, drive, "--no-ssh", "--no-web", "--no-wait")
    assert code == 0
    assert "WXYZ" not in printed
    log = (tmp_path / "state" / PARTY_LOG).read_text(encoding="utf-8")
    assert "WARNING partyhost.net.rooms.room: room WXYZ failed" in log
