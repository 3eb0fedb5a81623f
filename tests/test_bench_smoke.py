"""Every benchmark still runs: each script under ``bench/`` once with ``--smoke``.

Nothing else runs the benchmarks, so a change to the host or the client that
breaks one would go unseen until someone measures again. Here each runs at
tiny sizes (its figures mean nothing) and must end with status 0, having
printed its table and, as its last line, one JSON object. The scripts are
found in the folder, so a new benchmark is covered without a line here (and
fails until it has a ``--smoke`` mode).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
NOT_BENCHES = {
    "relay.py": "the floor server host_load.py starts: its smoke run runs it",
    "load_report.py": "reads saved host_load.py output: checked on host_load's smoke output",
    "watched_host.py": "the host host_load.py starts and watches: its smoke run runs it",
    "traced_host.py": "the host chaos.py --trace-memory starts under tracemalloc (by hand)",
}
"""Scripts in bench/ that measure nothing themselves, with where they are run."""
NEEDS = {"tui_latency.py": "tmux", "ssh_door.py": "ssh", "web_door.py": "chromium"}
"""Benchmarks that drive a real terminal (tmux), the OpenSSH client or Debian's Chromium:
skipped without them."""
IN_A_TERMINAL = {"tui_latency.py"}
"""Benchmarks that wait on a real terminal as a person would: end-to-end, run one at a time."""
SMOKE_SECONDS = 120.0
"""Far above what each takes (under 40 s on a busy 2-core machine): only a hang reaches it."""


def benches() -> list[Path]:
    """The runnable scripts in bench/ (those with a ``__main__`` block) that measure."""
    return sorted(
        script
        for script in BENCH.glob("*.py")
        if 'if __name__ == "__main__":' in script.read_text(encoding="utf-8")
        and script.name not in NOT_BENCHES
    )


def smoke_case(script: Path) -> object:
    marks = [pytest.mark.e2e] if script.name in IN_A_TERMINAL else []
    tool = NEEDS.get(script.name)
    if tool is not None:
        reason = f"{script.name} needs {tool}, which is not installed"
        marks.append(pytest.mark.skipif(shutil.which(tool) is None, reason=reason))
    return pytest.param(script, id=script.stem, marks=marks)


def run_script(*command: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a Python script; on a hang, Ctrl+C it (so it stops what it started), then kill it."""
    process = subprocess.Popen(
        [sys.executable, *map(str, command)],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=SMOKE_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGINT)
        try:
            out, err = process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
        pytest.fail(f"{command[0]} took over {SMOKE_SECONDS:.0f} s:\n{out[-3000:]}\n{err[-3000:]}")
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def _no_constant(name: str) -> object:
    """JSON has no NaN or Infinity (Python writes them, other readers refuse them)."""
    raise ValueError(f"{name} is not JSON")


def check_smoke_run(script: Path, done: subprocess.CompletedProcess[str]) -> None:
    """Status 0, a table, and one JSON object on the last line."""
    said = f"{script.name} --smoke said:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert done.returncode == 0, said
    lines = done.stdout.strip().splitlines()
    assert len(lines) >= 2, f"no table before the figures; {said}"
    try:
        figures = json.loads(lines[-1], parse_constant=_no_constant)
    except ValueError:
        pytest.fail(f"the last line is no JSON; {said}")
    assert isinstance(figures, dict) and figures, f"the last line is no JSON object; {said}"


@pytest.mark.timeout(SMOKE_SECONDS + 60)
@pytest.mark.parametrize("script", [smoke_case(script) for script in benches()])
def test_bench_runs_in_smoke_mode(script: Path, tmp_path: Path) -> None:
    done = run_script(script, "--smoke", cwd=tmp_path)
    check_smoke_run(script, done)
    if script.name == "host_load.py":
        saved = tmp_path / "run.txt"
        saved.write_text(done.stdout, encoding="utf-8")
        report = run_script(BENCH / "load_report.py", saved, saved, cwd=tmp_path)
        assert report.returncode == 0 and "| " in report.stdout, report.stdout + report.stderr


def test_the_benchmarks_are_found() -> None:
    """The folder scan finds the benchmarks, and every script it leaves out still exists."""
    found = {script.name for script in benches()}
    assert {"tui_latency.py", "host_load.py", "gsm_solver.py"} <= found, found
    assert all((BENCH / name).is_file() for name in NOT_BENCHES), "a script named here is gone"


@pytest.mark.timeout(SMOKE_SECONDS + 60)
@pytest.mark.skipif(shutil.which("chromium") is None, reason="web_door.py needs chromium")
def test_the_browser_door_bench_runs_with_websockets_for_pages(tmp_path: Path) -> None:
    """Its visitors that speak as pages do reach the lobby and every tap opens its dialog."""
    script = BENCH / "web_door.py"
    done = run_script(script, "--smoke", "--visitors", "sockets", cwd=tmp_path)
    check_smoke_run(script, done)
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["visitors"] == "sockets"
    assert figures["pages_stopped_at_2"] == 0 and figures["taps_timed_at_2"] >= 6, figures
