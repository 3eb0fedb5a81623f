"""The network layer's modules import each other without circles.

Every import counts, ``TYPE_CHECKING`` ones too: a circle there still ties
two modules' jobs together. What one side needs of the other goes in a
Protocol (``roomqueue.Peer``, ``connection.ConnectionHost``, ``room.RoomServices``).
"""

from __future__ import annotations

import ast
from pathlib import Path

NET = Path(__file__).resolve().parent.parent / "net"
PACKAGE = "partyhost.net"


def net_imports(folder: Path) -> dict[str, set[str]]:
    """Each module of ``folder`` (a copy of net/) and the modules of it that it imports."""
    modules = {path.stem for path in folder.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in folder.glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(_inside(alias.name, modules) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = "." * node.level + (node.module or "")
                found.add(_inside(base, modules))
                found.update(_inside(f"{base}.{alias.name}", modules) for alias in node.names)
        graph[path.stem] = found & modules - {path.stem}
    return graph


def _inside(name: str, modules: set[str]) -> str:
    """The net module ``name`` names (absolute or relative), else an empty string."""
    for prefix in (PACKAGE + ".", "."):
        if name.startswith(prefix):
            head = name[len(prefix) :].split(".")[0]
            return head if head in modules else ""
    return ""


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle as the modules along it (first repeated at the end), or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        for imported in sorted(graph[module]):
            circle = visit(imported, [*path, module])
            if circle is not None:
                return circle
        done.add(module)
        return None

    for module in sorted(graph):
        circle = visit(module, [])
        if circle is not None:
            return circle
    return None


def test_no_net_module_imports_itself_round_a_circle() -> None:
    circle = find_circle(net_imports(NET))
    assert circle is None, "import circle in net/: " + " -> ".join(circle or [])


def test_the_circle_check_finds_a_circle_through_type_checking_and_relative_imports(
    tmp_path: Path,
) -> None:
    (tmp_path / "host.py").write_text("from partyhost.net.connection import Connection\n")
    (tmp_path / "connection.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .host import Host\n"
    )
    (tmp_path / "protocol.py").write_text("from partyhost.net import host as h\n")
    assert find_circle(net_imports(tmp_path)) == ["connection", "host", "connection"]


def test_the_room_modules_are_found_importing_each_other() -> None:
    graph = net_imports(NET)
    assert {"room", "roomqueue", "outbox"} <= graph["roomtask"]
    assert "roomqueue" in graph["connection"]
    assert "protocol" in graph["roombroadcast"]  # ``from partyhost.net import protocol as p``
