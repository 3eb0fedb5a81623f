"""Every game, from its start to the game-over screen, under random keys in a real terminal.

``partyhost play`` runs in tmux at 80x24 and at 100x30 while a seeded stream
of keys (arrows, letters, digits, Enter, Space, Escape; see :data:`KEYS` for
how often each comes) goes in, one at a time like a person mashing the
keyboard. The bots are hard and think a tenth of
their usual time, and the rooms are set up for short games, so each run ends
on its own. A run fails if the client dies (a traceback, a non-zero exit),
if a screen's footer stops offering Help, or if no game-over screen comes
(on a busy machine the game-over screen may take its keys before a look at it:
then the winner's line ``partyhost play`` prints on leaving shows it came).

``y`` is left out: it answers "Quit?" with yes, and a quit run never reaches
the end. The seed is in the test's id, so a failure can be replayed.
"""

from __future__ import annotations

import random
import shutil
import string
import time
import zlib
from collections import deque
from pathlib import Path

import pytest
from tmuxdriver import DriverError, Terminal, partyhost_command

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.whole_games,
    pytest.mark.skipif(
        shutil.which("tmux") is None,
        reason="tmux is not installed: the real-terminal tests drive the client through it",
    ),
]

KEYS = {
    "Enter": 20,
    **{arrow: 5 for arrow in ("Up", "Down", "Left", "Right")},
    **{digit: 2 for digit in string.digits},
    **{letter: 1 for letter in string.ascii_lowercase if letter != "y"},
    "Space": 3,
    "Escape": 5,
}
"""Every key with its weight: a person mashing keys hits Enter, the arrows and the
numbers most; a letter now and then (``c`` opens the chat, Escape leaves it)."""
SETTINGS = {
    "tshirt": ["--option", "target=1000"],
    "meme": ["--bots", "1", "--option", "picking_timer=10", "--option", "betting_timer=5"],
    "stealing-home": ["--bots", "1", "--option", "round_seconds=5"],
    "scramble": ["--bots", "1"],
    "gridiron": ["--bots", "1", "--option", "hints=on"],
    "four-corners": ["--option", "stall_seconds=10"],
}
"""Short games: the lowest T-Shirt target, the shortest meme timers, two-player tables."""
SIZES = [(80, 24), (100, 30)]
GAME_SECONDS = 300.0
"""A generous bound for a busy machine; a run takes a minute at most when it is idle."""
CHECK_EVERY = 4
"""Keys between looks at the screen: a few, well within the second after which the
game-over screen takes keys (Enter there quits)."""
KEY_GAP = 0.02
"""Seconds between keys: a fast typist (order and focus do not matter to random keys)."""


def is_over(screen: str) -> bool:
    lines = screen.splitlines()
    return bool(lines) and "game over" in lines[0]


def unwrapped(screen: str) -> str:
    """The terminal's text with its line breaks taken out (a long line wraps anywhere)."""
    return screen.replace("\n", "")


def at_the_table(screen: str) -> bool:
    """The game is on (Escape in the room before it would quit a game against bots)."""
    lines = screen.rstrip("\n").splitlines()
    footer = lines[-1] if lines else ""
    return "Leave" in footer and "Start" not in footer and "Connect" not in footer


def host_log(tmp_path: Path) -> str:
    """What the game's host wrote to its log (warnings and errors), headed for a message."""
    log = tmp_path / "state" / "play.log"
    text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    return f"\nthe host's log:\n{text}" if text.strip() else ""


RUNS = [(game, size) for game in SETTINGS for size in SIZES]
"""Every game at both sizes."""


@pytest.mark.timeout(GAME_SECONDS + 120)
@pytest.mark.parametrize(("game", "size"), RUNS, ids=[f"{g}-{w}x{h}" for g, (w, h) in RUNS])
def test_random_keys_take_a_game_to_its_end(
    game: str, size: tuple[int, int], terminal: Terminal, tmp_path: Path
) -> None:
    seed = zlib.crc32(f"{game} {size}".encode()) & 0xFFFF
    keys = random.Random(seed)
    command = [
        *partyhost_command(),
        "play",
        game,
        "--name",
        "Tess",
        "--level",
        "hard",
        "--bot-pace",
        "0.1",
        *SETTINGS[game],
    ]
    terminal.start(
        command,
        size=size,
        PARTYHOST_CONFIG_DIR=str(tmp_path / "config"),
        PARTYHOST_DATA_DIR=str(tmp_path / "data"),
        PARTYHOST_STATE_DIR=str(tmp_path / "state"),
    )
    terminal.wait_for(at_the_table, seconds=60)
    terminal.server.key_gap = KEY_GAP
    deadline = time.monotonic() + GAME_SECONDS
    pressed = 0
    screen = ""
    helpless = 0
    """Looks in a row whose footer offered no Help."""
    looks: deque[tuple[str, list[str]]] = deque(maxlen=3)
    """The last screens and the keys that followed each: what led to a failure."""
    while True:
        before, screen = screen, terminal.screen()
        status = terminal.exit_status()
        if status == 0 and " won. Play again: " in unwrapped(before + screen):
            return  # it ended, and a key (Enter) on the game-over screen quit before we looked
        if status is not None:
            story = "\n".join(f"{shown}\nthen the keys {sent}" for shown, sent in looks)
            raise DriverError(
                f"seed {seed}: the client ended ({status}) after {pressed} keys;"
                f" the last screens:\n{story}\nand at the end:\n{screen}{host_log(tmp_path)}"
            )
        footer = (screen.split("\n") + [""] * size[1])[size[1] - 1]
        # Blank for a moment while a screen opens; a look in the middle of a redraw on a
        # busy machine may catch half a footer, so only two looks in a row without Help fail.
        helpless = helpless + 1 if footer.strip() and "Help" not in footer else 0
        assert helpless < 2, f"seed {seed}: no Help in the footer:\n{before}\nthen:\n{screen}"
        assert not host_log(tmp_path), f"seed {seed}: the host complained:{host_log(tmp_path)}"
        if is_over(screen):
            break
        if "P resumes." in screen:  # the table dialog's p paused it: resume, as its status says
            terminal.keys("P")
        if time.monotonic() > deadline:
            raise DriverError(
                f"seed {seed}: no game over after {pressed} keys:\n{screen}{host_log(tmp_path)}"
            )
        sending = keys.choices(list(KEYS), weights=list(KEYS.values()), k=CHECK_EVERY)
        looks.append((screen, sending))
        for key in sending:
            terminal.keys(key)
            pressed += 1
    terminal.keys("C-q")
    assert terminal.wait_exit() == 0, terminal.screen()
