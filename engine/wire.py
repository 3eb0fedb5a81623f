"""What each game's commands and views look like to a client, declared as plain data.

A view's ``legal`` list holds command *templates*: complete commands, or forms
to fill in. Each game declares them as ``WIRE`` in its ``wire`` module;
``docs/games-wire.md`` is generated from it and the tests hold real views to it.
Types are written as the protocol document writes them (``int or nil``,
``array of map``); the tests read them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class WireField:
    """One key of a command, a template or a view."""

    name: str
    type: str
    doc: str
    optional: bool = False
    """The key may be missing (commands: the client may leave it out)."""


def keys(table: str) -> tuple[WireField, ...]:
    """Fields written one a line as ``name | type | meaning``; ``name?`` may be missing, and a
    line without ``|`` goes on with the meaning above it.
    """
    found: list[WireField] = []
    for line in filter(str.strip, table.splitlines()):
        if "|" not in line:
            found[-1] = dataclasses.replace(found[-1], doc=f"{found[-1].doc} {line.strip()}")
            continue
        name, kind, doc = (cell.strip() for cell in line.split("|", 2))
        found.append(WireField(name.removesuffix("?"), kind, doc, name.endswith("?")))
    return tuple(found)


@dataclass(frozen=True)
class CommandSpec:
    """One command type: what a client sends, and the template a view offers for it."""

    type: str
    doc: str
    """What it does and when the view offers it."""
    fields: tuple[WireField, ...]
    """The command as sent, besides ``type``."""
    template: tuple[WireField, ...] | None = None
    """The template's keys besides ``type``; ``None``: the command's own fields, filled in."""
    fill: str = ""
    """How to turn a template into a command; empty when a template is sent as is."""
    example: Mapping[str, Any] | None = None
    """One command as a client would send it."""

    @property
    def complete(self) -> bool:
        """Whether every template of this type is a command to send as is."""
        return not self.fill

    @property
    def template_fields(self) -> tuple[WireField, ...]:
        return self.fields if self.template is None else self.template


@dataclass(frozen=True)
class GameSpec:
    """A game's commands and the keys of its views."""

    game: str
    commands: tuple[CommandSpec, ...]
    view: tuple[WireField, ...]
    notes: str = ""
    """What holds for every command or view of this game."""

    def command(self, kind: str) -> CommandSpec | None:
        return next((spec for spec in self.commands if spec.type == kind), None)
