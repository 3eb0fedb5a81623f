"""Hostile guests at a host process: one address filling every slot, password guessing,
look-alike and blank names, and scenarios that smuggle bidi controls.

Each test starts a real host (``python -m partyhost.net``) and performs the
attack from loopback addresses the host sees as different machines.
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
from pathlib import Path

from doorhelpers import RawClient
from nethelpers import HostProcess, Seat, table
from partyhost.cli import build_parser
from partyhost.engine.playertext import BIDI_CONTROLS, is_invisible
from partyhost.engine.registry import get_game
from partyhost.engine.rng import Rng
from partyhost.net import __main__ as bare_host
from partyhost.net import protocol as p
from partyhost.net.addresslimits import AddressLimits
from partyhost.net.clients.client import build
from partyhost.net.config import HostConfig
from partyhost.net.names import name_key
from partyhost.playcommands import serve_config

PER_ADDRESS = HostConfig.max_connections_per_address


async def test_one_address_cannot_take_every_slot(tmp_path: Path) -> None:
    host = HostProcess(tmp_path)
    port = await host.ready()
    flood: list[RawClient] = []
    try:
        # The attack: many connections from one machine, each greeted and answering pings.
        flood = [await RawClient.open(port, "127.0.0.2") for _ in range(PER_ADDRESS + 8)]
        answers = [await client.first([p.WELCOME, p.ERROR]) for client in flood]
        welcomed = [c for c, a in zip(flood, answers, strict=True) if a["t"] == p.WELCOME]
        refused = [a for a in answers if a["t"] == p.ERROR]
        assert len(welcomed) == PER_ADDRESS
        assert len(refused) == 8
        for error in refused:
            assert error["code"] == "host_full"
            assert f"{PER_ADDRESS} from one address" in error["message"]
            assert "127.0.0.2" in error["message"]
        for client, answer in zip(flood, answers, strict=True):
            if answer["t"] == p.ERROR:
                await client.until(lambda c=client: c.closed)  # the host hung up
        # Everyone else still gets in.
        for source in ("127.0.0.3", "127.0.0.4", "127.0.0.1"):
            other = await RawClient.open(port, source, name=f"From {source}")
            assert (await other.first([p.WELCOME, p.ERROR]))["t"] == p.WELCOME
            await other.close()
        # A slot freed by the flooding address is its own again.
        await welcomed[0].close()
        again = await RawClient.open(port, "127.0.0.2")
        flood.append(again)
        for _ in range(50):  # the host may not have seen the close yet
            answer = await again.first([p.WELCOME, p.ERROR])
            if answer["t"] == p.WELCOME:
                break
            await asyncio.sleep(0.1)
            again = await RawClient.open(port, "127.0.0.2")
            flood.append(again)
        assert answer["t"] == p.WELCOME
    finally:
        for client in flood:
            await client.close()
        host.stop()


def test_the_ssh_doors_address_has_room_for_every_door_session() -> None:
    """Door visitors' clients all connect from the door's address (loopback here)."""
    door = AddressLimits(HostConfig(host="0.0.0.0", ssh_port=0))
    assert door.connection_limit("127.0.0.1") == PER_ADDRESS + HostConfig.ssh_max_sessions
    assert door.connection_limit("127.0.0.2") == PER_ADDRESS
    no_door = AddressLimits(HostConfig(host="0.0.0.0"))
    assert no_door.connection_limit("127.0.0.1") == PER_ADDRESS
    for _ in range(PER_ADDRESS):
        no_door.connected("10.1.2.3")
    assert no_door.refusal("10.1.2.3", PER_ADDRESS) is not None
    assert no_door.refusal("10.1.2.4", PER_ADDRESS) is None
    assert no_door.refusal("10.1.2.4", HostConfig.max_connections) is not None
    no_door.disconnected("10.1.2.3")
    assert no_door.refusal("10.1.2.3", PER_ADDRESS - 1) is None


async def _guess(client: RawClient, code: str, password: str) -> tuple[str, float]:
    """Send one join with ``password``; the answer's kind and how long it took."""
    mark = len(client.log)
    started = time.monotonic()
    client.send(build.join_room(code, password=password))
    answer = await client.first([p.ERROR, p.JOINED], since=mark, timeout=30)
    kind = answer["code"] if answer["t"] == p.ERROR else answer["t"]
    return str(kind), time.monotonic() - started


async def test_room_password_guesses_slow_down_per_address_and_are_logged(
    tmp_path: Path,
) -> None:
    host = HostProcess(tmp_path)
    port = await host.ready()
    clients: list[RawClient] = []
    try:
        owner = await RawClient.open(port, "127.0.0.1", name="Owner")
        clients.append(owner)
        owner.send(build.create_room("counting", password="kazoo"))
        code = (await owner.first([p.JOINED]))["code"]

        guesser = await RawClient.open(port, "127.0.0.2", name="Guesser")
        clients.append(guesser)
        free = HostConfig.wrong_password_free
        for attempt in range(free):
            assert (await _guess(guesser, code, f"guess{attempt}"))[0] == "wrong_password"
        # More connections from the same address do not guess faster: their tries queue.
        others = [await RawClient.open(port, "127.0.0.2", name=f"G{n}") for n in range(3)]
        clients.extend(others)
        for client in others:
            await client.first([p.WELCOME])
        answers = await asyncio.gather(
            *(_guess(client, code, f"parallel{n}") for n, client in enumerate(others))
        )
        assert [kind for kind, _ in answers] == ["wrong_password"] * 3
        # Each waits the first delay, one after the other (apart, each would wait it once).
        slowest = max(seconds for _, seconds in answers)
        assert slowest >= 3 * HostConfig.wrong_password_delay - 0.05
        # The next try from that address waits twice as long again: the delay grows.
        kind, seconds = await _guess(guesser, code, "one more")
        assert kind == "wrong_password"
        assert seconds >= HostConfig.wrong_password_delay * 2**3 - 0.05

        # Another machine with the right password is neither refused nor blamed.
        friend = await RawClient.open(port, "127.0.0.3", name="Friend")
        clients.append(friend)
        assert (await _guess(friend, code, "kazoo"))[0] == p.JOINED
    finally:
        for client in clients:
            await client.close()
        err = host.stop()
    reports = [line for line in err.splitlines() if "wrong room password" in line]
    assert len(reports) == 1, err  # six wrong guesses, one line (then one a minute at most)
    assert "127.0.0.2" in reports[0] and code in reports[0]


LOOK_ALIKES = [
    "Ann",
    "Ann\u200b",  # zero-width space
    "A\u2060nn",  # word joiner
    "Ann\U000e0041",  # a tag character
    "Ann\u00ad",  # soft hyphen
    "\u0410nn",  # Cyrillic A
    "\uff21NN",  # full-width A, other case
]


async def test_look_alike_and_blank_names_cannot_pass_for_someone(tmp_path: Path) -> None:
    host = HostProcess(tmp_path)
    port = await host.ready()
    seats: list[Seat] = []
    try:
        owner = await Seat.open(port, "Owner")
        seats.append(owner)
        await owner.create_room("counting")
        code = (await owner.expect(p.JOINED))["code"]
        for name in LOOK_ALIKES:
            seat = await Seat.open(port, name)
            seats.append(seat)
            await seat.join_room(code)
            await seat.expect(p.JOINED)
        full = len(LOOK_ALIKES) + 1
        await owner.until(lambda: owner.room is not None and len(owner.room["seats"]) == full)
        assert owner.room is not None
        names = [seat["name"] for seat in owner.room["seats"]]
        blank = await Seat.open(port, "\u3164")  # a Hangul filler: drawn as nothing
        seats.append(blank)
        await blank.create_room("counting")
        await blank.until(lambda: blank.room is not None)
        assert blank.room is not None
        blank_name = blank.room["seats"][0]["name"]
    finally:
        for seat in seats:
            await seat.close()
        host.stop()
    assert len({name_key(name) for name in names}) == len(names), names
    assert names[1] == "Ann"
    assert names[2:6] == ["Ann 2", "Ann 3", "Ann 4", "Ann 5"], names
    assert names[6:] == ["\u0410nn 6", "\uff21NN 7"]  # kept as typed, told apart by a number
    for name in names:
        assert not any(is_invisible(char) for char in name), ascii(name)
    assert blank_name == "Player"


async def test_a_written_scenario_reaches_the_table_without_bidi_controls(tmp_path: Path) -> None:
    host = HostProcess(tmp_path)
    port = await host.ready()
    seats: list[Seat] = []
    sneaky = "\u202eYour \u2066boss\u2069 reads \u200fyour chat"
    try:
        seats, _ = await table(port, ["Ann", "Bob"], {"custom_scenarios": True}, game="meme")
        writer = await _play_until_someone_writes(seats, sneaky)
        other = seats[1 - seats.index(writer)]
        await other.until(lambda: _scenario(other) is not None)
        shown = _scenario(other)
    finally:
        for seat in seats:
            await seat.close()
        host.stop()
    assert shown == "Your boss reads your chat"
    assert not set(str(shown)) & BIDI_CONTROLS
    assert all(unicodedata.category(char) != "Cf" for char in str(shown))


async def _play_until_someone_writes(seats: list[Seat], text: str) -> Seat:
    """Bot moves for everyone until a reactor may write a scenario; it writes ``text``."""
    game, rng = get_game("meme"), Rng(5)
    async with asyncio.timeout(60):
        while True:
            for seat in seats:
                view = seat.view
                assert view is not None
                templates = [c for c in view["view"]["legal"] if c["type"] == "write_scenario"]
                command = (
                    {"type": "write_scenario", "turn": templates[0]["turn"], "text": text}
                    if templates
                    else game.bot_command(view["view"], rng, time.time())
                )
                if command is None:
                    continue
                version = seat.version
                await seat.play(command)
                await seat.until(lambda s=seat, v=version: s.version > v)
                if templates:
                    return seat
                break
            else:
                await asyncio.sleep(0.05)


def _scenario(seat: Seat) -> str | None:
    view = seat.view
    scenario = None if view is None else view["view"].get("scenario")
    return None if not scenario else scenario.get("text")


def test_serve_sets_the_per_address_cap() -> None:
    parse = build_parser().parse_args
    assert serve_config(parse(["serve"])).max_connections_per_address == PER_ADDRESS
    assert serve_config(parse(["serve", "--max-per-address", "4"])).max_connections_per_address == 4


def test_the_bare_host_takes_every_config_field_as_a_flag() -> None:
    parser = bare_host.build_parser()
    argv = ["--max-rooms", "7", "--deck-dir", "a", "--deck-dir", "b", "--bot-delay", "0.1", "0.2"]
    argv += ["--discovery", "--ssh-port", "0", "--max-per-address", "4", "--data", "/tmp/x"]
    settings = vars(parser.parse_args(argv))
    settings.pop("log")
    config = bare_host.config_of(settings)
    assert config.max_rooms == 7 and config.deck_dirs == (Path("a"), Path("b"))
    assert config.bot_delay == (0.1, 0.2) and config.discovery and config.ssh_port == 0
    assert config.max_connections_per_address == 4 and config.data_dir == Path("/tmp/x")
    assert config.max_spectators == HostConfig().max_spectators, "unset flags keep defaults"
