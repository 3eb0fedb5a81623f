"""Rewrite the generated tables of the wire docs from the code's own declarations.

``docs/protocol.md`` and ``docs/games-wire.md`` hold regions between

    <!-- BEGIN GENERATED name -->
    <!-- END GENERATED name -->

markers. Each region's text comes from a declaration in the code: a client
message's fields, a host message's or an inner map's, the error codes (all
in ``partyhost.net.protocol``), or a game's commands and view
(``partyhost.engine.wire``). Run ``python scripts/gen_docs.py`` after changing
any of them; ``--check`` only reports which documents differ (the test suite
runs the same comparison).
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from partyhost.engine.registry import all_games, get_game
from partyhost.engine.wire import CommandSpec, GameSpec, WireField
from partyhost.net import protocol as p
from partyhost.net.config import HostConfig

DOCS = Path(__file__).resolve().parent.parent / "docs"
REGION = re.compile(
    r"(<!-- BEGIN GENERATED (?P<name>[^>]+?) -->\n)(?P<body>.*?)(<!-- END GENERATED (?P=name) -->)",
    re.DOTALL,
)
COMMAND = "python scripts/gen_docs.py"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(header: tuple[str, ...], rows: Iterable[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# --- protocol.md -------------------------------------------------------------------


def _message_table(fields: p.Fields, defaults: Mapping[str, Any] | None = None) -> str:
    if not fields:
        return "No fields.\n"
    header: tuple[str, ...] = ("field", "type", "required", "meaning")
    rows = []
    for name, field in fields.items():
        row = (f"`{name}`", field.type.label, "yes" if field.required else "no", field.doc)
        if defaults is not None:
            row = (*row[:2], f"`{_json(defaults[name])}`", row[3])
        rows.append(row)
    if defaults is not None:
        header = ("field", "type", "default", "meaning")
    return _table(header, rows)


def _error_table() -> str:
    rows = []
    for code, meaning in p.ERROR_CODES.items():
        fatal = " **Disconnects.**" if code in p.FATAL_ERRORS else ""
        rows.append((f"`{code}`", meaning + fatal))
    return _table(("code", "when"), rows)


def protocol_regions() -> dict[str, Callable[[], str]]:
    """Every region of docs/protocol.md and how to write it."""
    regions: dict[str, Callable[[], str]] = {}
    for kind, fields in p.CLIENT_MESSAGES.items():
        regions[f"client {kind}"] = functools.partial(_message_table, fields)
    for kind, fields in p.HOST_MESSAGES.items():
        regions[f"host {kind}"] = functools.partial(_message_table, fields)
    limits = HostConfig().welcome_limits()
    for name, fields in p.SHAPES.items():
        defaults = limits if name == "limits" else None
        regions[f"shape {name}"] = functools.partial(_message_table, fields, defaults)
    regions["error codes"] = _error_table
    return regions


# --- games-wire.md -----------------------------------------------------------------


def _fields_table(fields: tuple[WireField, ...], first: str = "field") -> str:
    rows = [
        (f"`{f.name}`", f.type, "no" if f.optional else "yes", f.doc)
        for f in fields
        if f.name != "type"
    ]
    presence = "always there" if first == "key" else "required"
    return _table((first, "type", presence, "meaning"), rows)


def _command(spec: CommandSpec, versioned: bool) -> str:
    parts = [f"#### `{spec.type}`\n", f"{spec.doc}\n"]
    if spec.fields:
        parts.append("The command, besides `type`:\n")
        parts.append(_fields_table(spec.fields))
    else:
        parts.append("The command has no fields besides `type`.\n")
    if spec.complete:
        parts.append("**Template:** a complete command; send the one chosen as is.\n")
    else:
        parts.append("**Template** (a form), besides `type`:\n")
        parts.append(_fields_table(spec.template_fields, "key"))
        parts.append(f"**To fill it in:** {spec.fill}\n")
    if versioned:
        parts.append(
            "**Versioned:** a `v` other than the table's current `version` is refused as"
            " `stale`; a command without `v` is taken as meant for the current table.\n"
        )
    parts.append(f"**Example:** `{_json(spec.example)}`\n")
    return "\n".join(parts)


def _game(spec: GameSpec) -> str:
    game = get_game(spec.game)
    versioned = sorted(game.versioned_commands)
    facts = [
        f"Game id `{game.id}`: {game.min_players} to {game.max_players} players;",
        "players may join a game in progress."
        if game.joins_mid_game
        else "nobody joins a game in progress.",
        "Versioned commands: " + (", ".join(f"`{k}`" for k in versioned) or "none") + ".",
    ]
    parts = [" ".join(facts) + "\n", f"{spec.notes}\n", "### Commands\n"]
    parts += [_command(command, command.type in versioned) for command in spec.commands]
    parts += ["### View\n", _fields_table(spec.view, "key")]
    return "\n".join(parts)


def games_regions() -> dict[str, Callable[[], str]]:
    regions: dict[str, Callable[[], str]] = {}
    for game in all_games():
        spec = game.wire
        if spec is not None:
            regions[f"game {game.id}"] = functools.partial(_game, spec)
    return regions


DOCUMENTS: dict[str, Callable[[], dict[str, Callable[[], str]]]] = {
    "protocol.md": protocol_regions,
    "games-wire.md": games_regions,
}


# --- rewriting ---------------------------------------------------------------------


class RegionError(Exception):
    """A document whose markers do not match the regions the code declares."""


def regenerate(text: str, regions: Mapping[str, Callable[[], str]], where: str) -> str:
    """``text`` with every generated region rewritten; each must appear exactly once."""
    found = [match.group("name") for match in REGION.finditer(text)]
    missing = sorted(set(regions) - set(found))
    unknown = sorted(set(found) - set(regions))
    twice = sorted({name for name in found if found.count(name) > 1})
    if missing or unknown or twice:
        raise RegionError(
            f"{where}: regions missing {missing}, unknown {unknown}, repeated {twice}"
        )
    return REGION.sub(lambda m: m.group(1) + regions[m.group("name")]() + m.group(4), text)


def stale_documents(docs: Path = DOCS) -> list[str]:
    """The documents whose generated regions differ from what the code declares."""
    stale = []
    for name, regions in DOCUMENTS.items():
        path = docs / name
        text = path.read_text(encoding="utf-8")
        if regenerate(text, regions(), name) != text:
            stale.append(name)
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only report stale documents")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_documents()
        for name in stale:
            print(f"docs/{name} is out of date; run: {COMMAND}")
        return 1 if stale else 0
    for name, regions in DOCUMENTS.items():
        path = DOCS / name
        text = path.read_text(encoding="utf-8")
        new = regenerate(text, regions(), name)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"rewrote docs/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
