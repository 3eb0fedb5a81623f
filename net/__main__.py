"""``python -m partyhost.net``: a bare host, without the rest of the ``partyhost`` command.

Every :class:`HostConfig` field is a flag (``max_rooms`` is ``--max-rooms``), so a new
setting needs no new code here; a few keep the shorter names they always had.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import sys
import types
import typing
from collections.abc import Sequence
from typing import Any

from partyhost.net.config import HostConfig
from partyhost.net.hosting.serve import run_host

SHORT_NAMES = {
    "data_dir": "--data",
    "host_name": "--name",
    "grace_seconds": "--grace",
    "ghost_grace_seconds": "--ghost-grace",
    "heartbeat_interval": "--heartbeat",
    "idle_room_seconds": "--idle-room",
    "extra_games": "--games",
    "max_connections_per_address": "--max-per-address",
}
"""Flags older than this rule, kept beside the field-named ones."""


def add_field_flag(parser: argparse.ArgumentParser, name: str, kind: Any) -> None:
    """One flag for one field; unset flags keep the field's default."""
    flags = [f"--{name.replace('_', '-')}"]
    if name == "deck_dirs":
        flags = ["--deck-dir", *flags]
    flags += [SHORT_NAMES[name]] if name in SHORT_NAMES else []
    options: dict[str, Any] = {"dest": name, "default": argparse.SUPPRESS}
    if isinstance(kind, types.UnionType):  # ``X | None``
        kind = next(arg for arg in typing.get_args(kind) if arg is not type(None))
    arguments = typing.get_args(kind)
    if kind is bool:
        options["action"] = argparse.BooleanOptionalAction
    elif typing.get_origin(kind) is tuple and arguments[-1] is Ellipsis:
        options.update(action="append", type=arguments[0])  # repeat the flag
    elif typing.get_origin(kind) is tuple:
        options.update(nargs=len(arguments), type=arguments[0])
    else:
        options["type"] = kind
    parser.add_argument(*flags, **options)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m partyhost.net", description=__doc__)
    hints = typing.get_type_hints(HostConfig)
    for field in dataclasses.fields(HostConfig):
        add_field_flag(parser, field.name, hints[field.name])
    parser.add_argument("--log", default="WARNING")
    return parser


def config_of(settings: dict[str, Any]) -> HostConfig:
    """The parsed flags (without ``log``) as a config; repeated flags become tuples."""
    given: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in settings.items()}
    return HostConfig(**given)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m partyhost.net``: a host without the rest of the CLI."""
    parser = build_parser()
    settings = vars(parser.parse_args(argv))
    logging.basicConfig(
        level=settings.pop("log").upper(),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    config = config_of(settings)
    with contextlib.suppress(KeyboardInterrupt):
        try:
            asyncio.run(run_host(config))
        except OSError as error:  # a port in use, a data folder that cannot be used
            print(f"{parser.prog}: {error}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
