"""End to end in a real terminal: `partyhost serve`, `partyhost join` inside tmux, real keys.

Each test starts the host as a subprocess on a free loopback port, runs the
client in a detached tmux session of a fixed size and types into it like a
person (the driver, its private tmux server and why keys go one at a time:
tests/tmuxdriver.py).
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from partyhost.net.protocol import ROOM_CODE_LENGTH, ROOM_CODE_LETTERS
from tmuxdriver import DriverError, Terminal, clean_env, partyhost_command, serve, stop

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        shutil.which("tmux") is None,
        reason="tmux is not installed: the real-terminal tests drive the client through it",
    ),
]

ROOM_CODE = re.compile(rf"\broom ([{ROOM_CODE_LETTERS}]{{{ROOM_CODE_LENGTH}}})\b")
ROUND = re.compile(r"\bRound (\d+)  judge ")
SUBMIT_TURN = "Your move: pick the slogan"
JUDGE_TURN = "You are the judge: pick"
FACE_DOWN = re.compile(r"[░.]+")


@pytest.fixture(autouse=True)
def _read_round_results(terminal: Terminal) -> None:
    """Players here read each round's result and go on (see ``Terminal.reads_results``)."""
    terminal.reads_results = True


@dataclass
class Served:
    """A running `partyhost serve`."""

    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace", encoding="utf-8")[-2000:]


@pytest.fixture
def host(tmp_path: Path) -> Iterator[Served]:
    """`partyhost serve` on 127.0.0.1 with a private data folder; stopped afterwards."""
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        port, process = serve(tmp_path / "host-data", "e2e host", log)
        try:
            yield Served(port, process, log_path)
        finally:
            stop(process)


def join(terminal: Terminal, host: Served, tmp_path: Path, *flags: str) -> None:
    """`partyhost join` as Tess; returns when the host's lobby is on screen."""
    terminal.start(
        [*partyhost_command(), "join", host.address, "--name", "Tess", *flags],
        PARTYHOST_CONFIG_DIR=str(tmp_path / "client-config"),
        PARTYHOST_DATA_DIR=str(tmp_path / "client-data"),
    )
    terminal.wait_for("Welcome to e2e host")


def create_room(terminal: Terminal) -> str:
    """Create a T-Shirt Game room with the dialog's defaults; returns the room code."""
    terminal.keys("c")
    terminal.wait_for(lambda s: "Create a room" in s and "Points to win" in s)
    terminal.keys("C-s")
    return room_code(terminal.wait_for(lambda s: "You own this room" in s and ROOM_CODE.search(s)))


def room_code(screen: str) -> str:
    found = ROOM_CODE.search(screen)
    assert found, screen
    return found.group(1)


def round_number(screen: str) -> int:
    found = ROUND.search(screen)
    assert found, f"no round number in the title:\n{screen}"
    return int(found.group(1))


def first_card(screen: str, title: str) -> str | None:
    """The face-up text of card 1 in the rack under ``title`` (its first line), if shown."""
    lines = screen.splitlines()
    for row, line in enumerate(lines):
        column = line.find(title)
        if column < 0:
            continue
        for below in lines[row + 1 : row + 4]:
            found = re.match(r"\S?\s*>?1 (\S.*?)\s*$", below[max(0, column - 1) :])
            if found and not FACE_DOWN.fullmatch(found.group(1)):
                return found.group(1)
    return None


def outcome_of(number: int) -> Callable[[str], bool]:
    def shown(screen: str) -> bool:
        """the outcome of the round (its winning slogan)"""
        return f'Round {number}: "' in screen

    return shown


def play_rounds(terminal: Terminal, roles: set[str]) -> None:
    """Play as Tess until she has submitted and/or judged in rounds that ended.

    A round ends when its outcome (the winning slogan) is on screen; a slogan
    the judge picks must be the winner. A Booyah card, if Tess draws one, is kept.
    """

    def my_turn(screen: str) -> bool:
        """Tess's turn to submit, judge or choose Booyah"""
        if "k Keep:" in screen or "press b to choose" in screen:
            return True
        if SUBMIT_TURN in screen and not first_card(screen, "Your slogans"):
            return False  # the status line can be drawn a frame before the cards
        return (SUBMIT_TURN in screen or JUDGE_TURN in screen) and round_number(screen) > done_to

    done: set[str] = set()
    done_to = 0
    while not roles <= done:
        screen = terminal.wait_for(my_turn)
        if "k Keep:" in screen:
            terminal.keys("k")
            terminal.wait_for(lambda s: "k Keep:" not in s)
            continue
        if "press b to choose" in screen:
            terminal.keys("b")
            terminal.wait_for("k Keep:")
            continue
        number = round_number(screen)
        if JUDGE_TURN in screen:
            terminal.keys("1")  # also ends the reveal animation
            shown = terminal.wait_for(lambda s: first_card(s, "Pick the winner"))
            chosen = str(first_card(shown, "Pick the winner"))
            terminal.keys("Enter")
            shown = terminal.wait_for(outcome_of(number))
            assert f'Round {number}: "{chosen[:12]}' in shown, (chosen, shown)
            done.add("judge")
        else:
            chosen = str(first_card(screen, "Your slogans"))  # my_turn waited for the cards
            terminal.keys("1", "Enter")
            terminal.wait_for(f'You played "{chosen[:12]}')
            terminal.wait_for(outcome_of(number))
            done.add("submit")
        done_to = number


def quit_client(terminal: Terminal) -> None:
    """Ctrl+Q quits from any screen; the process must really end, with status 0."""
    terminal.keys("C-q")
    assert terminal.wait_exit() == 0
    assert terminal.pid is not None and _ended(terminal.pid), "the client process is still there"


def _ended(pid: int) -> bool:
    """Gone, or a zombie that tmux has not reaped yet."""
    try:
        return (
            Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[0]
            == "Z"
        )
    except OSError:
        return True


def test_create_a_room_seat_network_bots_and_play_as_submitter_and_judge(
    host: Served, terminal: Terminal, tmp_path: Path
) -> None:
    join(terminal, host, tmp_path)
    code = create_room(terminal)
    seat_bots = ["bot", host.address, "--room", code, "--count", "3", "--delay", "0.2"]
    bots = subprocess.Popen(
        [*partyhost_command(), *seat_bots],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=clean_env(),
    )
    try:
        terminal.wait_for(lambda s: "4 seated" in s and s.count("✔ ready") == 3)
        for n in (1, 2, 3):
            assert f"Netbot {n}" in terminal.last
        terminal.keys("s")
        terminal.wait_for(lambda s: ROUND.search(s))
        play_rounds(terminal, {"submit", "judge"})
        quit_client(terminal)
    finally:
        stop(bots)
    assert host.process.poll() is None, host.log_tail()


def test_in_host_bots_options_help_and_ascii_in_a_real_terminal(
    host: Served, terminal: Terminal, tmp_path: Path
) -> None:
    terminal.ascii_only = True
    join(terminal, host, tmp_path, "--ascii")
    terminal.keys("c")
    terminal.wait_for(lambda s: "Create a room" in s and "Points to win" in s)
    terminal.settle()  # the dialog has its focus before the Tabs come
    for _ in range(8):  # from the game: deck, deck file, password, size, target, timers, judge
        terminal.keys("Tab")
    terminal.type("0")
    terminal.wait_for(lambda s: re.search(r"First judge\s+0\b", s))
    terminal.keys("C-s")
    terminal.wait_for("First judge (seat): 0")
    terminal.keys("b", "b", "b")
    terminal.wait_for(lambda s: "4 seated" in s and "Bot 3" in s)

    terminal.keys("F1")
    terminal.wait_for("How to play The T-Shirt Game")
    terminal.keys("Escape")
    terminal.wait_for(lambda s: "How to play" not in s and "You own this room" in s)

    terminal.keys("s")
    terminal.wait_for("Round 1  judge Tess")  # the room's first-judge option took effect
    play_rounds(terminal, {"judge", "submit"})
    quit_client(terminal)


def office_deck(broken_line: int | None = None) -> str:
    """A T-Shirt deck whose every card says where it comes from; ``broken_line`` holds a bare no."""
    lines = ["game: tshirt", "version: 1", "name: Office party", "slogans:"]
    lines += [f'  - "Office slogan {n:02d}"' for n in range(1, 41)]
    lines.append("tshirts:")
    lines += [f'  - picture: "Office shirt {n}"' for n in range(1, 6)]
    lines.append("hot_or_not:")
    for n in range(1, 6):
        lines += [f"  - points: {100 * n}", f'    verdict: "Office verdict {n}"']
    if broken_line is not None:
        lines[broken_line - 1] = "  - no"
    return "\n".join(lines) + "\n"


def test_bring_a_deck_the_host_lacks_and_see_the_hosts_folder_change_live(
    host: Served, terminal: Terminal, tmp_path: Path
) -> None:
    own = tmp_path / "on-my-laptop"
    own.mkdir()
    deck = own / "office.yaml"
    deck.write_text(office_deck(broken_line=9), encoding="utf-8")
    host_decks = tmp_path / "config" / "decks"  # the host's own deck folder (conftest)
    assert not host_decks.exists() or not list(host_decks.iterdir())

    # A broken file is caught before connecting, in the words the host would use.
    refused = subprocess.run(
        [*partyhost_command(), "join", host.address, "--deck", str(deck), "--no-remember"],
        capture_output=True,
        encoding="utf-8",
        timeout=60,
        env=clean_env(PARTYHOST_CONFIG_DIR=str(tmp_path / "client-config")),
    )
    assert refused.returncode == 2, refused
    assert f"{deck}:9:5: expected slogan 5 as text" in refused.stderr
    deck.write_text(office_deck(), encoding="utf-8")

    terminal.start(
        [*partyhost_command(), "join", host.address, "--name", "Tess", "--deck", str(deck)],
        PARTYHOST_CONFIG_DIR=str(tmp_path / "client-config"),
        PARTYHOST_DATA_DIR=str(tmp_path / "client-data"),
    )
    terminal.wait_for(lambda s: "Create a room" in s and "none: only my deck file" in s)
    assert "office.yaml, 1 KiB: sent with the request" in terminal.last

    host_decks.mkdir(parents=True, exist_ok=True)
    (host_decks / "late-arrival.yaml").write_text(
        office_deck().replace("Office party", "Late arrival"), encoding="utf-8"
    )
    (host_decks / "half-done.yaml").write_text("game: tshirt\nslogans: [\n", encoding="utf-8")
    terminal.wait_for("Not offered: half-done.yaml:2:10: this `[` never")
    terminal.settle()
    terminal.keys("Tab", "Enter")  # from the game to the deck field, and open its list
    terminal.wait_for(lambda s: "Late arrival" in s and "Classic" in s)
    terminal.keys("Escape")
    terminal.wait_for(lambda s: "Late arrival" not in s and "none: only my deck file" in s)

    deck.write_text(office_deck(broken_line=9), encoding="utf-8")  # broken while the dialog is open
    terminal.keys("C-s")
    terminal.wait_for("The host cannot use this deck")
    terminal.wait_for("office.yaml:9:5")
    assert "put the text in quotes" in terminal.last
    terminal.keys("Enter")
    deck.write_text(office_deck(), encoding="utf-8")
    terminal.wait_for(lambda s: "The host cannot use this deck" not in s)
    terminal.keys("c")
    terminal.wait_for(lambda s: "Create a room" in s and "office.yaml, 1 KiB" in s)
    terminal.keys("C-s")
    terminal.wait_for(lambda s: "You own this room" in s and "Office party (sent) deck" in s)
    assert "Classic" not in terminal.last  # only the sent deck: none of the host's

    terminal.keys("b", "b", "b")
    terminal.wait_for(lambda s: "4 seated" in s and "Bot 3" in s)
    terminal.keys("s")
    terminal.wait_for(lambda s: ROUND.search(s))
    play_rounds(terminal, {"submit"})
    assert re.search(r'Round \d+: "Office slogan \d\d', terminal.last), terminal.last
    quit_client(terminal)
    assert sorted(path.name for path in host_decks.iterdir()) == [
        "half-done.yaml",
        "late-arrival.yaml",
    ]
    assert host.process.poll() is None, host.log_tail()


GAME_OVER = "game over"
STEP = re.compile(r"Step (\d+) of (\d+)")


def play_to_the_end(terminal: Terminal) -> None:
    """Play as Tess (slogans, judging, Booyah kept) until the results screen shows."""

    def my_turn_or_over(screen: str) -> bool:
        """Tess's turn, or the end of the game"""
        if GAME_OVER in screen or "k Keep:" in screen or "press b to choose" in screen:
            return True
        if SUBMIT_TURN in screen:
            return bool(first_card(screen, "Your slogans"))
        return JUDGE_TURN in screen

    acted: set[tuple[str, int]] = set()
    while True:
        screen = terminal.wait_for(my_turn_or_over, seconds=60)
        if GAME_OVER in screen:
            return
        if "k Keep:" in screen:
            terminal.keys("k")
            terminal.wait_for(lambda s: "k Keep:" not in s)
        elif "press b to choose" in screen:
            terminal.keys("b")
            terminal.wait_for(lambda s: "k Keep:" in s or GAME_OVER in s)
        else:
            role = "judge" if JUDGE_TURN in screen else "submit"
            number = round_number(screen)
            if (role, number) in acted:
                terminal.settle()  # the move is in; the screen has not caught up yet
                continue
            acted.add((role, number))
            if role == "judge":
                terminal.keys("1")
                terminal.wait_for(lambda s: first_card(s, "Pick the winner") or GAME_OVER in s)
            terminal.keys("1", "Enter")


@pytest.mark.timeout(300)
def test_play_a_game_then_watch_its_replay_step_by_step_to_the_end(
    terminal: Terminal, tmp_path: Path
) -> None:
    terminal.start(
        [
            *partyhost_command(),
            "play",
            "tshirt",
            "--bots",
            "2",
            "--level",
            "hard",
            "--name",
            "Tess",
            "--option",
            "target=1000",
        ],
        PARTYHOST_CONFIG_DIR=str(tmp_path / "client-config"),
        PARTYHOST_DATA_DIR=str(tmp_path / "client-data"),
    )
    terminal.wait_for(lambda s: ROUND.search(s))
    play_to_the_end(terminal)

    for _ in range(5):  # the keys work a moment after the game-over screen shows
        terminal.keys("w")  # the game just played, again
        with contextlib.suppress(DriverError):
            screen = terminal.wait_for("Replay: The T-Shirt Game", seconds=3)
            break
    screen = terminal.wait_for("Replay: The T-Shirt Game")
    found = STEP.search(screen)
    assert found and found.group(1) == "0", screen
    last = int(found.group(2))
    assert "every card shown" in screen and "The game before its first move." in screen

    seen_rounds: set[str] = set()
    for step in range(1, last + 1):
        terminal.keys("Right")
        screen = terminal.wait_for(lambda s, n=step: f"Step {n} of {last}" in s)
        seen_rounds.update(re.findall(r"Step \d+ of \d+  (Round \d+)", screen))
    assert "The end." in screen and " won" in screen, screen
    # Every round in turn (a game to 1,000 may end in its first round: one 1,000-point slogan).
    numbers = sorted(int(round_.split()[1]) for round_ in seen_rounds)
    assert numbers and numbers == list(range(1, numbers[-1] + 1)), seen_rounds
    terminal.keys("Left")
    terminal.wait_for(f"Step {last - 1} of {last}")
    terminal.keys("Escape")
    terminal.wait_for(lambda s: "Replay:" not in s and "game over" in s)  # its results again
    quit_client(terminal)
