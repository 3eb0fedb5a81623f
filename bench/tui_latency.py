"""Terminal latency benchmark: `partyhost join` in a real terminal (tmux) against a real host.

Measures, each repeated and summarised as median, p90, min and max:

- launch: from starting `partyhost join HOST:PORT --name ...` in a new tmux
  session to its first frame on screen, and to the host's lobby listed
  (connected and interactive); quitting with Ctrl+Q until the process ended;
- keys: from `tmux send-keys` to the changed screen for F1 (help opens),
  Escape and q (help closes), Down (the card highlight moves, in a game),
  Enter on a slogan (until the screen shows it played: a host round trip) and
  Enter on the judge's pick (until the round's outcome shows).

Floors are measured in the same run, the same tmux server and the same way:
launching ``python -c print(...)`` and a trivial Textual app, and a key
round trip through ``bash`` ``read`` and through the trivial Textual app.
The screen is read by polling ``tmux capture-pane``; the time of one poll is
printed as the granularity of every figure (a figure is late by up to one poll).

The host is `partyhost serve` on 127.0.0.1; the game's other three seats are
`partyhost bot` network bots. Every subprocess and the private tmux server are
stopped at the end. The terminal driver is the end-to-end tests' own
(tests/tmuxdriver.py), so the benchmark types and reads the screen as they do.

Usage: python bench/tui_latency.py [--runs 10] [--keys 20] [--rounds 8] [--smoke]
(``--smoke``: one of each, to check that it still runs; its figures mean nothing.)
Prints a table, then one JSON line with every figure (milliseconds).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from partyhost.tui.shared.gamelength import TSHIRT_TARGETS
from tmuxdriver import (
    GO_ON,
    HEIGHT,
    RESULT_SETTLE_SECONDS,
    TMUX_CONF,
    WIDTH,
    Check,
    DriverError,
    Tmux,
    clean_env,
    partyhost_command,
    serve,
    stop,
)

SETTLE_SECONDS = 0.4
"""A screen unchanged for this long counts as settled (nothing else is redrawing)."""
KEY_GAP_SECONDS = 0.12
"""The gap between keys a quick typist would leave."""
BENCH_CONF = TMUX_CONF + "set -s exit-empty off\n"
"""exit-empty off: the server outlives each launch's session, so no launch pays its start."""
TRIVIAL_APP = """\
from textual.app import App, ComposeResult
from textual.events import Key
from textual.widgets import Static


class Trivial(App[None]):
    count = 0

    def compose(self) -> ComposeResult:
        yield Static("READY 0", id="line")

    def on_key(self, event: Key) -> None:
        self.count += 1
        self.query_one("#line", Static).update(f"READY {self.count}")


Trivial().run()
"""
SHELL_READER = (
    'n=0; printf "READY 0"; while IFS= read -rsn1 _; do n=$((n+1)); printf "\\rREADY %d" "$n"; done'
)
ROOM_CODE = re.compile(r"\broom ([A-Z]{4})\b")
ROUND = re.compile(r"\bRound (\d+)  judge ")
SUBMIT_TURN = "Your move: pick the slogan"
JUDGE_TURN = "You are the judge: pick"
LOBBY = "Welcome to bench host"
CREATE_TITLE = "Create a room"
ROOM_OWNED = "You own this room"
TARGET_LABEL = "Points to win"
TARGET = max(TSHIRT_TARGETS)
"""The dialog's default and its highest target: about 31 rounds with four players, never
fewer than 13 in 150 engine games, more than the ~11 that 8 submitted slogans take."""
ROOM_SECONDS = 5.0
"""No room this long after Ctrl+S: the dialog or the host refused it (the screen says why)."""


class BenchError(RuntimeError):
    """Something the benchmark needs did not happen (the terminal's own: DriverError)."""


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


class TimedTmux(Tmux):
    """The tests' tmux driver, timing every screen read (the figures' granularity)."""

    def __init__(self, folder: Path, poll: float, env: dict[str, str]) -> None:
        super().__init__(
            folder, label="partyhost-bench", conf=BENCH_CONF, poll=poll,
            key_gap=KEY_GAP_SECONDS, env=env,
        )  # fmt: skip
        self.capture_seconds: list[float] = []

    def capture(self, name: str, escapes: bool = False) -> str:
        started = time.perf_counter()
        screen = super().capture(name, escapes)
        self.capture_seconds.append(time.perf_counter() - started)
        return screen

    def press(self, name: str, key: str, check: Check, escapes: bool = False) -> float:
        """Seconds from sending ``key`` to a screen that passes ``check``."""
        started = time.perf_counter()
        self.run("send-keys", "-t", name, key)
        return self.wait(name, check, started=started, escapes=escapes)[0]

    def settled(self, name: str) -> str:
        """Wait until the screen (with colours) stays the same for SETTLE_SECONDS."""
        return self.settle(name, SETTLE_SECONDS)


@contextmanager
def process(command: list[str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A subprocess with its output in ``log``; terminated (then killed) on the way out."""
    with log.open("wb") as out:
        child = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=clean_env()
        )
        try:
            yield child
        finally:
            stop(child)


class Bench:
    """Runs every measurement and keeps the samples (seconds) by figure."""

    def __init__(self, tmux: TimedTmux, address: str, runs: int, keys: int) -> None:
        self.tmux = tmux
        self.address = address
        self.runs = runs
        self.key_count = keys
        self.samples: dict[str, list[float]] = {}
        self._sessions = 0

    def add(self, figure: str, seconds: float) -> None:
        self.samples.setdefault(figure, []).append(seconds)

    def session(self) -> str:
        self._sessions += 1
        return f"s{self._sessions}"

    def join_command(self, name: str) -> list[str]:
        return [*partyhost_command(), "join", self.address, "--name", name]

    # --- launching ------------------------------------------------------------

    def launch_once(self, kind: str, record: bool) -> None:
        """One launch of ``kind`` (print, textual, join), from new-session to its screens."""
        name = self.session()
        python = sys.executable
        started = time.perf_counter()
        if kind == "print":
            printer = "import time; print('READY 0', flush=True); time.sleep(60)"
            self.tmux.start(name, [python, "-c", printer])
            seconds, _ = self.tmux.wait(name, lambda s: "READY 0" in s, started=started)
            if record:
                self.add("launch_floor_python_print", seconds)
            self.tmux.kill(name)
            return
        if kind == "textual":
            self.tmux.start(name, [python, "-c", TRIVIAL_APP])
            seconds, _ = self.tmux.wait(name, lambda s: "READY 0" in s, started=started)
            if record:
                self.add("launch_floor_textual_app", seconds)
        else:
            self.tmux.start(name, self.join_command(f"Launch {self._sessions}"))
            first, _ = self.tmux.wait(name, lambda s: "partyhost" in s, started=started)
            lobby, _ = self.tmux.wait(name, lambda s: LOBBY in s, started=started)
            if record:
                self.add("launch_join_first_frame", first)
                self.add("launch_join_lobby", lobby)
        quit_seconds = self.quit(name)
        if record:
            self.add("quit_textual_app" if kind == "textual" else "quit_join", quit_seconds)
        self.tmux.kill(name)

    def quit(self, name: str) -> float:
        """Seconds from Ctrl+Q to tmux seeing the process gone (the pane is dead)."""
        started = time.perf_counter()
        self.tmux.run("send-keys", "-t", name, "C-q")
        return self.tmux.wait_exit(name, started)[0]

    def launches(self, warm: bool = True) -> None:
        for kind in ("print", "textual", "join") if warm else ():
            self.launch_once(kind, record=False)  # warm the disk cache and .pyc files
        for _ in range(self.runs):
            for kind in ("print", "textual", "join"):
                self.launch_once(kind, record=True)

    # --- keys outside a game ----------------------------------------------------

    def key_floors(self) -> None:
        for kind, command in (
            ("shell", ["bash", "-c", SHELL_READER]),
            ("textual", [sys.executable, "-c", TRIVIAL_APP]),
        ):
            name = self.session()
            self.tmux.start(name, command)
            self.tmux.wait(name, lambda s: "READY 0" in s)
            time.sleep(SETTLE_SECONDS)
            for number in range(1, self.key_count + 1):
                seconds = self.tmux.press(name, "x", _count_shown(number))
                self.add(f"key_floor_{kind}", seconds)
            self.tmux.kill(name)

    def help_keys(self, name: str) -> None:
        self.tmux.settled(name)
        for number in range(self.key_count * 2):
            self.add("key_f1_opens_help", self.tmux.press(name, "F1", _help_open))
            self.tmux.settled(name)
            close = "Escape" if number % 2 == 0 else "q"
            figure = "key_escape_closes_help" if close == "Escape" else "key_q_closes_help"
            self.add(figure, self.tmux.press(name, close, _help_closed))
            self.tmux.settled(name)

    # --- a game ---------------------------------------------------------------

    def create_room(self, name: str) -> str:
        """A T-Shirt room with a high target, so the game outlasts the benchmark."""
        self.tmux.keys(name, "c")
        self.tmux.wait(name, lambda s: CREATE_TITLE in s and TARGET_LABEL in s)
        self.tmux.settled(name)
        screen = self.tmux.capture(name)
        if not re.search(rf"{TARGET_LABEL}\s+{TARGET:,}(?!\S)", screen):
            raise BenchError(f"the dialog does not offer {TARGET:,} points first:\n{screen}")
        self.tmux.keys(name, "C-s")
        try:
            _, screen = self.tmux.wait(name, lambda s: ROOM_OWNED in s, seconds=ROOM_SECONDS)
        except DriverError:
            raise BenchError(f"Ctrl+S made no room:\n{self.tmux.capture(name)}") from None
        found = ROOM_CODE.search(screen)
        if not found:
            raise BenchError(f"no room code on screen:\n{screen}")
        return found.group(1)

    def play(self, name: str, rounds: int) -> None:
        """Play until ``rounds`` slogans were submitted, timing the keys of each turn."""
        submitted = judged = done_to = 0

        def my_turn(screen: str) -> bool:
            if GO_ON in screen or "k Keep:" in screen or "press b to choose" in screen:
                return True
            turn = SUBMIT_TURN in screen or JUDGE_TURN in screen
            found = ROUND.search(screen)
            return turn and found is not None and int(found.group(1)) > done_to

        while submitted < rounds:
            self.tmux.wait(name, my_turn)
            # The next round's view comes a moment before the last round's result opens
            # over it (any key then closes the result): a turn counts once none came.
            time.sleep(RESULT_SETTLE_SECONDS)
            screen = self.tmux.capture(name)
            if GO_ON in screen:  # read the result, as a player does
                self.tmux.keys(name, "Enter")
                self.tmux.wait(name, lambda s: GO_ON not in s)
                continue
            if not my_turn(screen):
                continue
            if "k Keep:" in screen or "press b to choose" in screen:
                self.tmux.keys(name, "b" if "k Keep:" not in screen else "k")
                continue
            found = ROUND.search(screen)
            assert found is not None
            number = int(found.group(1))
            outcome = _outcome_of(number)
            if JUDGE_TURN in screen:
                self.tmux.keys(name, "1")
                self.tmux.settled(name)
                self.add("key_enter_judge_pick_shown", self.tmux.press(name, "Enter", outcome))
                judged += 1
            else:
                before = self.tmux.settled(name)  # the bots have played; only Tess is awaited
                for _ in range(3):
                    seconds = self.tmux.press(name, "Down", _changed(before), escapes=True)
                    self.add("key_down_moves_highlight", seconds)
                    before = self.tmux.settled(name)
                self.add("key_enter_slogan_played", self.tmux.press(name, "Enter", _played))
                self.tmux.wait(name, outcome)
                submitted += 1
            done_to = number

    def game(self, rounds: int, bots_log: Path) -> None:
        name = self.session()
        self.tmux.start(name, self.join_command("Tess"))
        self.tmux.wait(name, lambda s: LOBBY in s)
        self.help_keys(name)
        code = self.create_room(name)
        bots = [*partyhost_command(), "bot", self.address, "--room", code, "--count", "3"]
        with process([*bots, "--delay", "0.3"], bots_log):
            self.tmux.wait(name, lambda s: "4 seated" in s and s.count("✔ ready") == 3)
            self.tmux.keys(name, "s")
            self.play(name, rounds)
            self.quit(name)


def _count_shown(number: int) -> Check:
    pattern = re.compile(rf"\bREADY {number}\b")
    return pattern.search


def _help_open(screen: str) -> bool:
    return "How to play" in screen


def _help_closed(screen: str) -> bool:
    return "How to play" not in screen and LOBBY in screen


def _changed(before: str) -> Check:
    return lambda screen: screen != before


def _played(screen: str) -> bool:
    return SUBMIT_TURN not in screen and ("(yours)" in screen or "one is on the table" in screen)


def _outcome_of(number: int) -> Check:
    return lambda s: f'Round {number}: "' in s or f"Round {number} was called off" in s


FIGURES = [
    ("launch_floor_python_print", "launch: python -c print() (floor)"),
    ("launch_floor_textual_app", "launch: trivial Textual app (floor)"),
    ("launch_join_first_frame", "launch: partyhost join, first frame"),
    ("launch_join_lobby", "launch: partyhost join, lobby listed"),
    ("quit_textual_app", "quit: Ctrl+Q, trivial Textual app ended"),
    ("quit_join", "quit: Ctrl+Q, partyhost join ended"),
    ("key_floor_shell", "key: bash read echo (floor)"),
    ("key_floor_textual", "key: trivial Textual app (floor)"),
    ("key_f1_opens_help", "key: F1 opens help (lobby)"),
    ("key_escape_closes_help", "key: Escape closes help"),
    ("key_q_closes_help", "key: q closes help"),
    ("key_down_moves_highlight", "key: Down moves card highlight (game)"),
    ("key_enter_slogan_played", "key: Enter plays slogan (host trip)"),
    ("key_enter_judge_pick_shown", "key: Enter judge pick, outcome shown"),
]


def summarise(samples: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    return {
        key: {
            "n": len(values),
            "median_ms": round(statistics.median(values) * 1000, 1),
            "p90_ms": round(percentile(values, 0.9) * 1000, 1),
            "min_ms": round(min(values) * 1000, 1),
            "max_ms": round(max(values) * 1000, 1),
        }
        for key, values in samples.items()
        if values
    }


def tmux_version() -> str:
    return subprocess.run(
        ["tmux", "-V"], capture_output=True, text=True, check=False, encoding="utf-8"
    ).stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="launches of each kind")
    parser.add_argument("--keys", type=int, default=20, help="presses per key figure")
    parser.add_argument("--rounds", type=int, default=8, help="rounds played as a submitter")
    parser.add_argument("--poll", type=float, default=0.002, help="sleep between captures (s)")
    parser.add_argument(
        "--smoke", action="store_true", help="a quick check that it runs: 1 launch, 1 key, 1 round"
    )
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.keys, args.rounds = 1, 1, 1
    if shutil.which("tmux") is None:
        print("tui_latency: tmux is not installed", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="partyhost-tui-bench-") as folder_name:
        folder = Path(folder_name)
        client_env = {
            "PARTYHOST_CONFIG_DIR": str(folder / "config"),
            "PARTYHOST_DATA_DIR": str(folder / "data"),
        }
        tmux = TimedTmux(folder, args.poll, client_env)
        started = time.perf_counter()
        try:
            with (folder / "serve.log").open("wb") as log:
                port, host = serve(folder / "host", "bench host", log)
                try:
                    bench = Bench(tmux, f"127.0.0.1:{port}", args.runs, args.keys)
                    bench.launches(warm=not args.smoke)
                    bench.key_floors()
                    bench.game(args.rounds, folder / "bots.log")
                finally:
                    stop(host)
        except (BenchError, DriverError) as exc:
            print(f"tui_latency: {exc}", file=sys.stderr)
            return 1
        finally:
            tmux.close()
        wall = time.perf_counter() - started

    figures = summarise(bench.samples)
    capture_ms = statistics.median(tmux.capture_seconds) * 1000
    poll_ms = capture_ms + args.poll * 1000
    setup = {
        "terminal": f"{tmux_version()}, {WIDTH}x{HEIGHT}, TERM=xterm-256color",
        "python": platform.python_version(),
        "textual": version("textual"),
        "cpus": os.cpu_count(),
        "machine": platform.machine(),
    }
    print(
        f"partyhost TUI latency: {setup['terminal']}, Python {setup['python']}, "
        f"Textual {setup['textual']}, {setup['cpus']} CPUs, {wall:.0f} s"
    )
    print(
        f"polling: one capture-pane takes {capture_ms:.1f} ms (median) plus a "
        f"{args.poll * 1000:.0f} ms sleep, so every figure is late by up to ~{poll_ms:.1f} ms"
    )
    print("figures include spawning one tmux client (send-keys or new-session), as the floors do")
    print(
        "Escape is held back by Textual for ESCDELAY (default 100 ms) to tell it from an "
        "escape sequence; compare q"
    )
    print()
    print(f"{'what':<42}{'n':>4}{'median':>9}{'p90':>9}{'min':>9}{'max':>9}  (ms)")
    for key, label in FIGURES:
        row = figures.get(key)
        if row is None:
            continue
        print(
            f"{label:<42}{row['n']:>4.0f}{row['median_ms']:>9.1f}{row['p90_ms']:>9.1f}"
            f"{row['min_ms']:>9.1f}{row['max_ms']:>9.1f}"
        )
    print(
        json.dumps(
            {
                "setup": setup,
                "poll_ms": round(poll_ms, 2),
                "capture_ms": round(capture_ms, 2),
                "figures": figures,
            },
            sort_keys=True,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
