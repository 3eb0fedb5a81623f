"""Back to your seat in real terminals: a client killed mid-game, an SSH link cut mid-game.

`partyhost serve` runs as a subprocess on loopback; each player's client runs
in its own tmux server (tests/tmuxdriver.py) and is driven with real keys.
A player's client is killed with SIGKILL, as a crashed terminal would be;
the same player starts again under the same name and is back in the same
seat, with the same hand and score, and the other player saw them go and
come back. Over the SSH door the ``ssh`` process is killed; ``ssh
NAME@HOST`` again and joining the room asks the table, and once the other
player says yes to "tess is back?" the seat is hers again.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_e2e_tmux import FACE_DOWN, ROUND, Served, create_room, host, join
from test_net_ssh import LOOPBACK, DoorHost, door_clients, door_host, ssh_options
from tmuxdriver import GO_ON, WAIT_SECONDS, Terminal, partyhost_command

__all__ = ["door_host", "host"]  # fixtures from the serve and SSH door end-to-end tests

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

SUBMITTING = "Your move: pick the slogan"
JUDGING = "You are the judge: pick"
# A card's text ends at a gap or at the border of whatever panel is drawn beside the rack.
CARD_LINE = re.compile(r"^\s*\S?\s*>?\s*(\d) ([^\s│]+(?: [^\s│]+)*)")
BOB_ROW = re.compile(r"^\S*\s+\S*\s*Bob\b(.*?)\s+(-?\d+)\s")


@pytest.fixture(autouse=True)
def _read_round_results(terminal: Terminal) -> None:
    """Players here read each round's result and go on (see ``Terminal.reads_results``)."""
    terminal.reads_results = True


@pytest.fixture
def second_terminal(tmp_path: Path) -> Iterator[Terminal]:
    """Another player's terminal: its own tmux server."""
    folder = tmp_path / "second"
    folder.mkdir()
    term = Terminal(folder)
    term.reads_results = True
    try:
        yield term
    finally:
        term.close()


def start_client(terminal: Terminal, host: Served, folder: Path, name: str) -> None:
    """`partyhost join` as ``name``, with its own config and state folders (kept across runs)."""
    terminal.start(
        [*partyhost_command(), "join", host.address, "--name", name],
        PARTYHOST_CONFIG_DIR=str(folder / "config"),
        PARTYHOST_DATA_DIR=str(folder / "data"),
        PARTYHOST_STATE_DIR=str(folder / "state"),
    )


def rack(screen: str, title: str) -> list[str]:
    """The first line of each card in the rack under ``title`` (face-down ones end it)."""
    lines = screen.splitlines()
    start = next((row for row, line in enumerate(lines) if title in line), None)
    if start is None:
        return []
    column = lines[start].index(title)
    cards: dict[int, str] = {}
    for line in lines[start + 1 : start + 14]:
        found = CARD_LINE.match(line[max(0, column - 1) :])
        if found and not FACE_DOWN.fullmatch(found.group(2)):
            cards.setdefault(int(found.group(1)), found.group(2))
    numbers = sorted(cards)
    return [cards[n] for n in numbers] if numbers == list(range(1, len(numbers) + 1)) else []


def hand(screen: str) -> list[str]:
    return rack(screen, "Your slogans")


def bob_row(screen: str) -> tuple[str, int]:
    """What follows Bob's name on the scoreboard (a presence badge, if any) and his score."""
    for line in screen.splitlines():
        found = BOB_ROW.match(line)
        if found:
            return found.group(1).strip(), int(found.group(2))
    raise AssertionError(f"no scoreboard row for Bob:\n{screen}")


def process_of(terminal: Terminal, marker: bytes) -> int:
    """The process in the terminal's pane (or below it) whose command line has ``marker``."""
    assert terminal.pid is not None
    family = {terminal.pid}
    for _ in range(3):
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    parent = int(
                        (entry / "stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[1]
                    )
                except (OSError, IndexError, ValueError):
                    continue
                if parent in family:
                    family.add(int(entry.name))
    for pid in sorted(family):
        try:
            if marker in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
        except OSError:
            continue
    raise AssertionError(f"no process with {marker!r} in the terminal")


def act(terminal: Terminal, favourite: str = "") -> str:
    """Do what this player's screen asks (submit, judge, keep a Booyah card); returns the
    slogan played, if one was. A judge picks ``favourite`` when it is on the table."""
    screen = terminal.screen()
    if GO_ON in screen:  # a round's result: read, go on
        terminal.keys("Enter")
        terminal.wait_for(lambda s: GO_ON not in s)
    elif "k Keep:" in screen:
        terminal.keys("k")
        terminal.wait_for(lambda s: "k Keep:" not in s)
    elif "press b to choose" in screen:
        terminal.keys("b")
        terminal.wait_for("k Keep:")
    elif JUDGING in screen:
        terminal.keys("1")  # also ends the reveal animation
        shown = terminal.wait_for(lambda s: len(rack(s, "Pick the winner")) >= 2)
        picks = rack(shown, "Pick the winner")
        pick = next((n for n, text in enumerate(picks, 1) if text == favourite[: len(text)]), 1)
        terminal.keys(str(pick), "Enter")
        terminal.wait_for(lambda s: JUDGING not in s)
    elif SUBMITTING in screen and hand(screen):
        played = hand(screen)[0]
        terminal.keys("1", "Enter")
        terminal.wait_for(f'You played "{played[:12]}')
        return played
    return ""


def play_until_bob_scored(ann: Terminal, bob: Terminal) -> str:
    """Both play (Ann, judging, picks Bob's slogan) until Bob has points and must play a
    slogan in a fresh round; returns his screen then."""
    played = ""
    deadline = time.monotonic() + WAIT_SECONDS * 4
    while time.monotonic() < deadline:
        screen = bob.screen()
        if SUBMITTING in screen and hand(screen) and bob_row(screen)[1] != 0:
            return screen
        played = act(bob) or played
        act(ann, favourite=played)
        time.sleep(0.2)
    raise AssertionError(f"Bob never scored:\n{bob.screen()}")


def test_a_client_killed_mid_game_comes_back_to_the_same_seat_hand_and_score(
    host: Served, terminal: Terminal, second_terminal: Terminal, tmp_path: Path
) -> None:
    ann, bob = terminal, second_terminal
    join(ann, host, tmp_path)  # Tess's terminal plays Ann's part: she owns the room
    code = create_room(ann)
    ann.keys("b")
    ann.wait_for("Bot 1")

    bob_folder = tmp_path / "bob"
    start_client(bob, host, bob_folder, "Bob")
    bob.wait_for("Welcome to e2e host")
    bob.keys("j")
    bob.wait_for("Join a room")
    bob.type(code)
    bob.keys("Enter")
    bob.wait_for("Waiting for")
    bob.keys("r")
    ann.wait_for(lambda s: "3 seated" in s and s.count("✔ ready") == 2)
    ann.keys("s")
    ann.wait_for(lambda s: ROUND.search(s))

    before = play_until_bob_scored(ann, bob)
    cards, (badge, score) = hand(before), bob_row(before)
    round_title = ROUND.search(before)
    assert len(cards) == 3 and badge == "" and score != 0 and round_title

    os.kill(process_of(bob, b"join"), signal.SIGKILL)
    seen = ann.wait_for(lambda s: "Bob lost connection." in s and "○" in bob_row(s)[0])
    assert re.fullmatch(r"○\d+s", bob_row(seen)[0])

    bob.close()
    again = Terminal(tmp_path / "second")
    again.reads_results = True
    try:
        start_client(again, host, bob_folder, "Bob")
        offer = again.wait_for("Back to your seat?")
        number = round_title.group(1)
        assert f"You have a seat in room {code}, The T-Shirt Game, round {number}" in " ".join(
            offer.split()
        )
        again.keys("Enter")
        back = again.wait_for(lambda s: round_title.group(0) in s and SUBMITTING in s and hand(s))
        assert hand(back) == cards
        assert bob_row(back) == ("", score)
        ann.wait_for(lambda s: "Bob is back." in s and bob_row(s) == ("", score))
    finally:
        again.close()
    assert host.process.poll() is None, host.log_tail()


@pytest.mark.skipif(shutil.which("ssh") is None, reason="the OpenSSH client is not installed")
def test_after_the_ssh_link_dies_ssh_again_and_the_tables_yes_land_back_in_the_seat(
    door_host: DoorHost, terminal: Terminal, second_terminal: Terminal, tmp_path: Path
) -> None:
    def ssh(user: str) -> list[str]:
        return ["ssh", "-tt", *ssh_options(door_host.ssh_port), f"{user}@{LOOPBACK}"]

    ann = second_terminal
    terminal.start(ssh("tess"))
    terminal.wait_for("Welcome to e2e host")
    code = create_room(terminal)
    ann.start(ssh("ann"))
    ann.wait_for("Welcome to e2e host")
    ann.keys("j")
    ann.wait_for("Join a room")
    ann.type(code)
    ann.keys("Enter")
    ann.wait_for("Waiting for")
    ann.keys("r")
    terminal.keys("b", "b")
    terminal.wait_for(lambda s: "4 seated" in s and "Bot 2" in s and s.count("✔ ready") == 3)
    terminal.keys("s")

    def ready(screen: str) -> bool:
        """a round in which Tess holds slogans"""
        return bool(ROUND.search(screen)) and "Your slogans" in screen and bool(hand(screen))

    deadline = time.monotonic() + WAIT_SECONDS * 3
    while not ready(before := terminal.screen()) or SUBMITTING not in before or GO_ON in before:
        assert time.monotonic() < deadline, f"Tess never held slogans to play:\n{before}"
        act(terminal)  # judge a round first if she must
        act(ann)
        time.sleep(0.2)
    cards = hand(before)

    os.kill(process_of(terminal, b"ssh"), signal.SIGKILL)  # the Wi-Fi blips: ssh dies
    deadline = time.monotonic() + WAIT_SECONDS
    while len(door_clients(door_host.port)) > 1:  # the door hangs Tess's client up
        assert time.monotonic() < deadline, "the door's client outlived its SSH link"
        time.sleep(0.1)
    ann.wait_for("tess lost connection.")
    terminal.close()

    (tmp_path / "again").mkdir()
    again = Terminal(tmp_path / "again")
    again.reads_results = True
    try:
        again.start(ssh("tess"))
        lobby = again.wait_for("Welcome to e2e host")
        assert "Back to your seat?" not in lobby  # the door keeps no token: nothing to offer
        again.keys("j")
        again.wait_for("Join a room")
        again.type(code)
        again.keys("Enter")
        again.wait_for("Waiting for the table to confirm")
        ann.wait_for("tess is back? (y/n)")
        ann.keys("y")
        back = again.wait_for(ready)
        assert f"room {code}" in back and hand(back) == cards  # the same seat, the same hand
        ann.wait_for("tess is back.")
    finally:
        again.close()
    assert door_host.process.poll() is None
