"""partyhost's real commands on a Windows-shaped Python (tests/windowsshape.py says what that is).

Each command runs in a subprocess as a friend on Windows would run it: the
help, the game and deck lists, a deck shown into a file, deck files as Windows
editors save them, ``serve`` answering a client and stopping from its console
and on Ctrl+C, a taken port, ``serve --ssh`` (no pseudo-terminals there),
``serve --web`` (the browser door, which needs none) reaching the lobby,
``play`` under Textual's headless driver, and ``stats`` and ``replay`` on the
data folder ``serve`` left. None of them may end in a traceback.
"""

from __future__ import annotations

import codecs
import contextlib
import html
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from partyhost.engine.registry import get_game
from partyhost.net.store.database import Store
from partyhost.net.store.records import GameStart, Player
from playedgames import keep_game, play_game
from rawwire import welcome_of
from windowsshape import assert_windows_shaped, windows_shaped_env
from wiregames import SHIPPED

ROOT = Path(__file__).resolve().parent.parent
SHIPPED_DECK = ROOT / "decks" / "the-t-shirt-game.yaml"
LISTENING = re.compile(r"listening on 127\.0\.0\.1:(\d+)")
PLAY_SECONDS = 20
"""How long ``play`` runs headless before Textual saves the screen and quits."""
DOOR_LOADED = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('door modules:', sorted(m for m in sys.modules"
    " if m.startswith('partyhost.net.door')), file=sys.stderr))\n"
    "from partyhost.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
"""``partyhost`` itself, saying at exit which modules of the SSH door it had loaded."""


@dataclass(frozen=True)
class Windows:
    """The Windows-shaped environment, and the folder each command runs in."""

    env: dict[str, str]
    home: Path


@pytest.fixture(scope="module")
def windows(tmp_path_factory: pytest.TempPathFactory) -> Windows:
    home = tmp_path_factory.mktemp("windows")
    folders = {f"PARTYHOST_{kind}_DIR": str(home / kind.lower()) for kind in ("CONFIG", "STATE")}
    env = windows_shaped_env(home / "shape", **folders, PARTYHOST_DATA_DIR=str(home / "data"))
    return Windows(env, home)


def _no_traceback(printed: str) -> str:
    assert "Traceback" not in printed, printed
    return printed


def partyhost(
    windows: Windows, *arguments: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``partyhost ARGUMENTS`` run to its end, its output read as UTF-8; never a traceback."""
    done = subprocess.run(
        [sys.executable, "-m", "partyhost.cli", *arguments],
        cwd=windows.home,
        env=env or windows.env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
        check=False,
    )
    _no_traceback(done.stdout + done.stderr)
    return done


def test_the_python_is_windows_shaped(windows: Windows) -> None:
    assert_windows_shaped(windows.env)


def test_help_games_and_the_deck_list(windows: Windows) -> None:
    helped = partyhost(windows, "--help")
    assert helped.returncode == 0 and "serve" in helped.stdout
    games = partyhost(windows, "games")
    assert [line.split()[0] for line in games.stdout.splitlines()[1:]] == sorted(SHIPPED)
    decks = partyhost(windows, "decks", "list")
    assert decks.returncode == 0 and re.search(r"^\s+game-set-match\s+shipped", decks.stdout, re.M)


def test_a_deck_shown_into_a_file_is_utf8(windows: Windows) -> None:
    """Redirected output would be cp1252 there, which has no card glyphs."""
    shown = windows.home / "shown.txt"
    with shown.open("wb") as file:
        done = subprocess.run(
            [sys.executable, "-m", "partyhost.cli", "decks", "show", "game-set-match"],
            env=windows.env,
            stdout=file,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
    assert done.returncode == 0, _no_traceback(done.stderr.decode("utf-8", "replace"))
    text = shown.read_bytes().decode("utf-8")
    assert "\u26f3" in text  # the golf ball's glyph, far outside cp1252


def test_output_to_a_reader_that_went_away_ends_quietly(windows: Windows) -> None:
    """``partyhost games | head -1``, with the reader gone before anything is written."""
    reading, writing = os.pipe()
    os.close(reading)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "partyhost.cli", "decks", "show", "game-set-match"],
            env=windows.env,
            stdout=writing,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
    finally:
        os.close(writing)
    assert done.returncode == 1
    assert _no_traceback(done.stderr.decode("utf-8", "replace")) == ""


DECK_ENCODINGS: dict[str, Callable[[str], bytes]] = {
    "lf.yaml": lambda text: text.encode("utf-8"),
    "crlf.yaml": lambda text: text.replace("\n", "\r\n").encode("utf-8"),
    "bom.yaml": lambda text: codecs.BOM_UTF8 + text.replace("\n", "\r\n").encode("utf-8"),
    "utf16.yaml": lambda text: text.replace("\n", "\r\n").encode("utf-16"),
}


def test_decks_validate_reads_what_windows_editors_save(windows: Windows) -> None:
    text = SHIPPED_DECK.read_text(encoding="utf-8").replace(
        "I survived", "Caf\u00e9 \u2014 I survived", 1
    )  # an accent and a dash, in all four encodings
    paths = []
    for name, encode in DECK_ENCODINGS.items():
        path = windows.home / name
        path.write_bytes(encode(text))
        paths.append(str(path))
    checked = partyhost(windows, "decks", "validate", *paths)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    shown = partyhost(windows, "decks", "show", paths[-1])
    assert shown.returncode == 0 and "Caf\u00e9 \u2014" in shown.stdout


def test_decks_validate_refuses_a_cp1252_file_where_it_stops_being_utf8(windows: Windows) -> None:
    text = SHIPPED_DECK.read_text(encoding="utf-8").replace("I survived", "Caf\u00e9: I survived")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "Caf\u00e9" in row)
    column = text.splitlines()[line - 1].index("\u00e9") + 1
    path = windows.home / "cp1252.yaml"
    path.write_bytes(text.replace("\n", "\r\n").encode("cp1252"))
    refused = partyhost(windows, "decks", "validate", str(path))
    assert refused.returncode != 0
    wanted = f"{path}:{line}:{column}: not UTF-8 text: save the file as UTF-8"
    assert wanted in refused.stdout + refused.stderr


@dataclass
class Serving:
    process: subprocess.Popen[str]
    port: int
    printed: list[str]


def _serve_args(windows: Windows, *flags: str) -> list[str]:
    data = str(windows.home / "data")
    return ["serve", "--host", "127.0.0.1", "--data", data, "--no-discovery", *flags]


@contextlib.contextmanager
def _serve_until(
    windows: Windows, command: list[str], ready: re.Pattern[str], seconds: float
) -> Iterator[tuple[subprocess.Popen[str], re.Match[str], list[str]]]:
    """``command`` (a serve) run under the Windows shape until a printed line matches
    ``ready``; killed after ``seconds`` or when the test is done with it."""
    process = subprocess.Popen(
        command,
        cwd=windows.home,
        env=windows.env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        encoding="utf-8",
        errors="replace",
    )
    watchdog = threading.Timer(seconds, process.kill)
    watchdog.start()
    try:
        assert process.stdout is not None
        printed: list[str] = []
        while not (found := ready.search(printed[-1] if printed else "")):
            line = process.stdout.readline()
            assert line, f"serve ended before {ready.pattern!r}:\n{''.join(printed)}"
            printed.append(line)
        yield process, found, printed
    finally:
        watchdog.cancel()
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.fixture
def serving(windows: Windows) -> Iterator[Serving]:
    """``partyhost serve`` on a free loopback port, listening, its console on a pipe."""
    command = [sys.executable, "-c", DOOR_LOADED, *_serve_args(windows, "--port", "0")]
    with _serve_until(windows, command, LISTENING, 60) as (process, found, printed):
        yield Serving(process, int(found.group(1)), printed)


def _ended(serving: Serving, rest: str) -> str:
    printed = _no_traceback("".join(serving.printed) + rest)
    assert serving.process.returncode == 0, printed
    assert "partyhost host stopped." in printed
    assert "door modules: []" in printed  # serve never loads the SSH door unless asked to
    return printed


def test_serve_answers_a_client_and_quits_from_its_console(serving: Serving) -> None:
    welcome = welcome_of(serving.port)
    assert [game["id"] for game in welcome["games"]] == sorted(SHIPPED)
    rest, _ = serving.process.communicate("rooms\nquit\n", timeout=30)
    _ended(serving, rest)


def test_serve_stops_cleanly_on_ctrl_c(serving: Serving) -> None:
    """No loop signal handlers there: Python's own handler hands the stop to the loop."""
    welcome_of(serving.port)
    serving.process.send_signal(signal.SIGINT)
    rest, _ = serving.process.communicate(timeout=30)
    _ended(serving, rest)


def test_a_taken_port_is_named_in_one_line(windows: Windows) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        refused = partyhost(windows, *_serve_args(windows, "--port", str(port)))
    assert refused.returncode == 1
    assert refused.stdout == ""
    assert refused.stderr == (
        f"partyhost serve: port {port} is already in use (another partyhost serve, or another"
        f" program); try --port {port + 1}\n"
    )


def test_serve_ssh_is_refused_in_one_sentence_naming_the_alternatives(windows: Windows) -> None:
    refused = partyhost(windows, *_serve_args(windows, "--port", "0", "--ssh", "0"))
    assert refused.returncode == 2
    assert refused.stdout == ""
    (sentence,) = refused.stderr.splitlines()
    assert "Linux or macOS host" in sentence and "`partyhost join`" in sentence


WEB_DOOR = re.compile(r"http://127\.0\.0\.1:(\d+)/")


async def _lobby_through_the_web_door(port: int) -> bytes:
    """A page's websocket to the door at ``port`` (its own Origin), read until the lobby."""
    import aiohttp

    origin = f"http://127.0.0.1:{port}"
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(f"{origin}/ws?width=80&height=24", headers={"Origin": origin}) as ws,
    ):
        seen = b""
        while b"lobby" not in seen:
            message = await ws.receive(timeout=30)
            assert message.type == aiohttp.WSMsgType.BINARY, message
            seen += message.data
        return seen


def test_serve_web_opens_the_browser_door_without_pseudo_terminals(windows: Windows) -> None:
    import asyncio

    args = _serve_args(windows, "--port", "0", "--web", "0")
    command = [sys.executable, "-m", "partyhost.cli", *args]
    with _serve_until(windows, command, WEB_DOOR, 90) as (process, found, printed):
        asyncio.run(_lobby_through_the_web_door(int(found.group(1))))
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=30)
    printed_all = _no_traceback("".join(printed) + rest)
    assert process.returncode == 0, printed_all
    assert "partyhost host stopped." in printed_all


def _screen_text(svg: Path) -> str:
    """The characters of a Textual screenshot, one run of text after another."""
    runs = re.findall(r"<text[^>]*>(.*?)</text>", svg.read_text(encoding="utf-8"))
    return html.unescape("".join(runs)).replace("\xa0", " ")


def test_play_runs_headless_with_nothing_in_its_log(windows: Windows) -> None:
    headless = {
        **windows.env,
        "TEXTUAL_DRIVER": "textual.drivers.headless_driver:HeadlessDriver",
        "TEXTUAL_SCREENSHOT": str(PLAY_SECONDS),
        "TEXTUAL_SCREENSHOT_LOCATION": str(windows.home),
        "TEXTUAL_SCREENSHOT_FILENAME": "play.svg",
    }
    arguments = ("play", "tshirt", "--bots", "3", "--name", "Tess", "--bot-pace", "0.1")
    played = partyhost(windows, *arguments, env=headless, timeout=PLAY_SECONDS + 40)
    assert played.returncode == 0, played.stdout + played.stderr
    screen = _screen_text(windows.home / "play.svg")
    # The game is under way: its round in the title bar, every seat in the scores (the
    # log's first lines may have scrolled away by the time the screen is taken).
    assert re.search(r"Round \d+", screen) and "Tess" in screen and "Bot 3" in screen, screen
    assert (windows.home / "state" / "play.log").read_text(encoding="utf-8") == ""


def _keep_a_finished_game(data: Path) -> None:
    """A T-Shirt Game the engine's bots played to the end, kept as the host keeps one."""
    played = play_game("tshirt", 4, seed=3, options={"target": 1000})
    names = ["Ann", "Bob", "Cy", "Di"]
    ended = time.time() - 60
    start = GameStart(
        "ACDE",
        played.seed,
        played.game,
        played.deck_name,
        played.deck_data,
        played.rules,
        played.seats,
        ended - 600,
        [Player(seat, names[seat], seat == 3) for seat in played.seats],
    )
    store = Store(data)
    try:
        keep_game(store, start, played.commands, get_game("tshirt").results(played.final), ended)
    finally:
        store.close()


def test_stats_and_replay_read_the_data_folder_serve_left(
    windows: Windows, serving: Serving
) -> None:
    rest, _ = serving.process.communicate("quit\n", timeout=30)
    _ended(serving, rest)
    data = windows.home / "data"
    _keep_a_finished_game(data)
    stats = partyhost(windows, "stats", "--data", str(data))
    assert stats.returncode == 0 and "Ann" in stats.stdout, stats.stdout + stats.stderr
    listed = partyhost(windows, "replay", "--data", str(data))
    assert listed.returncode == 0 and "The T-Shirt Game" in listed.stdout, listed.stdout
    number = re.search(r"^\s*(\d+)\s", listed.stdout, re.M)
    assert number is not None, listed.stdout
    exported = windows.home / "game.txt"
    done = partyhost(
        windows, "replay", number.group(1), "--data", str(data), "--export", "text", "-o",
        str(exported),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "\u265b" in exported.read_text(encoding="utf-8")  # the round winner's crown
