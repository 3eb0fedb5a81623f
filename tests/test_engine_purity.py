"""The engine stays pure: no I/O, no clock, no network, no UI, no global randomness."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "engine"
FORBIDDEN = {
    "asyncio",
    "socket",
    "textual",
    "msgpack",
    "sqlite3",
    "time",
    "random",
    "os",
    "subprocess",
    "threading",
    "selectors",
    "ssl",
    "pathlib",
    "io",
}


def _imported_roots(source: str) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_engine_sources_import_nothing_impure() -> None:
    offenders = {
        str(path.relative_to(ENGINE)): sorted(
            _imported_roots(path.read_text(encoding="utf-8")) & FORBIDDEN
        )
        for path in ENGINE.rglob("*.py")
    }
    assert {name: found for name, found in offenders.items() if found} == {}


def test_importing_every_game_loads_no_network_or_ui_module() -> None:
    probe = (
        "import sys\n"
        "from partyhost.engine.registry import all_games\n"
        "assert all_games()\n"
        "banned = ('asyncio', 'socket', 'textual', 'msgpack', 'sqlite3')\n"
        "bad = [name for name in banned if name in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, encoding="utf-8"
    )
    assert result.stdout.strip() == ""
