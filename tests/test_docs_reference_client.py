"""The reference client in the docs plays a whole game against a real host process."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from nethelpers import HostProcess

CLIENT = Path(__file__).resolve().parent.parent / "docs" / "reference_client.py"


def test_the_reference_client_is_short_and_needs_only_the_standard_library_and_msgpack() -> None:
    source = CLIENT.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 150
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported - {"msgpack", "__future__"} <= set(sys.stdlib_module_names)


async def test_the_reference_client_finishes_a_tshirt_game_against_bots(tmp_path: Path) -> None:
    host = HostProcess(tmp_path / "host")
    try:
        port = await host.ready()
        run = subprocess.run(
            [sys.executable, str(CLIENT), "127.0.0.1", str(port), "--target", "500"],
            capture_output=True,
            text=True,
            timeout=120,
            encoding="utf-8",
        )
    finally:
        errors = host.stop()
    assert run.returncode == 0, (run.stdout[-2000:], run.stderr[-2000:], errors[-2000:])
    lines = run.stdout.splitlines()
    assert lines[0].startswith("Connected to ")
    assert any(line.startswith("Round 1: seat ") for line in lines)
    assert any(line.startswith("Game over (") for line in lines)
    assert lines[-1].startswith("The game is over; winners: [")
    assert lines[-1] != "The game is over; winners: []."
