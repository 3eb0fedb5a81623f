"""The ``partyhost`` command: its arguments, and which module runs each subcommand.

Each subcommand imports its layer when it runs, so ``partyhost decks validate`` does not
load Textual and ``partyhost serve`` runs without a terminal UI.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

from partyhost import __version__, playcommands
from partyhost.engine.core import BOT_LEVELS
from partyhost.net.address import DEFAULT_PORT, DEFAULT_SSH_PORT, DEFAULT_WEB_PORT

Runner = Callable[[argparse.Namespace], int]
YOUR_NAME = "your name at the table"
DATA_FOLDER = "the host's data folder (default: the one serve uses)"


Number = TypeVar("Number", int, float)


def _number(
    read: Callable[[str], Number], fits: Callable[[Number], bool], what: str
) -> Callable[[str], Number]:
    """An argparse type: a number ``read`` from the text that ``fits``, else an error naming it."""

    def parse(text: str) -> Number:
        try:
            value = read(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not fits(value):
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
        return value

    return parse


_positive = _number(int, lambda value: value >= 1, "a whole number of at least 1")
_port = _number(int, lambda value: 0 <= value <= 65535, "a port number (0 picks a free one)")
_seconds = _number(float, lambda value: 0 < value < 86400, "a number of seconds (0-86400)")
_minutes = _number(float, lambda value: 0 < value < float("inf"), "a number of minutes above 0")
_mebibytes = _number(float, lambda value: 0 < value < float("inf"), "a number of MiB above 0")


Limit = tuple[str, Callable[[str], int | float], int | float, str, str]
"""A host limit's flag, how its value is read, its default, metavar and what it limits."""
SERVE_LIMITS: tuple[Limit, ...] = (
    ("--max-clients", int, 256, "N", "connections at once"),
    ("--max-per-address", int, 16, "N", "connections from one address at once"),
    ("--max-rooms", int, 64, "N", "rooms at once"),
    ("--max-rooms-per-address", int, 3, "N", "open rooms one address may have created"),
    (
        "--idle-room-minutes",
        _minutes,
        10.0,
        "MINUTES",
        "close a room nobody has been connected to for this long",
    ),
    (
        "--max-history-mib",
        _mebibytes,
        200,
        "MIB",
        "size of the host's database; past it the oldest finished games are deleted",
    ),
)
DOOR_LIMITS: tuple[Limit, ...] = (
    ("--ssh-max-sessions", _positive, 32, "N", "door visitors playing at once"),
    ("--ssh-max-connections", _positive, 64, "N", "SSH connections at once, logging in or playing"),
    ("--ssh-max-per-address", _positive, 4, "N", "SSH connections from one address at once"),
    (
        "--ssh-login-timeout",
        _seconds,
        20.0,
        "SECONDS",
        "time to log in and open a session before the door hangs up",
    ),
    (
        "--web-idle-minutes",
        _minutes,
        30.0,
        "MINUTES",
        "close a browser door session that sent nothing (no key or tap) for this long",
    ),
)


def _add_limits(
    command: argparse.ArgumentParser, limits: Sequence[Limit], group: str | None = None
) -> None:
    """One option per limit, in a ``group`` of the help if named."""
    add_argument = command.add_argument_group(group).add_argument if group else command.add_argument
    for flag, read, default, metavar, what in limits:
        add_argument(
            flag, type=read, default=default, metavar=metavar, help=f"{what} (default {default:g})"
        )


def _imported_when_run(module: str, name: str) -> Runner:
    """The subcommand ``name`` of ``module``, imported only when that subcommand runs."""

    def run(args: argparse.Namespace) -> int:
        command: Runner = getattr(importlib.import_module(module), name)
        return command(args)

    return run


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="partyhost",
        description="Party card games for friends on one LAN, played in the terminal.",
    )
    parser.add_argument("--version", action="version", version=f"partyhost {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play against bots right now (host built in)")
    _add_table(
        play,
        "tshirt",
        "game id (see `partyhost games`)",
        "how many bots to seat",
        "how well the bots play: easy, normal or hard (default normal)",
        "a room option, e.g. --option target=1000 --option submit_timer=off",
    )
    play.add_argument(
        "--bot-pace",
        type=float,
        default=1.0,
        metavar="FACTOR",
        help="multiply how long bots think (0.1: ten times quicker; for demos and tests)",
    )
    play.add_argument("--name", help=YOUR_NAME)
    _add_ascii(play)
    play.set_defaults(run=playcommands.cmd_play)

    serve = sub.add_parser("serve", help="host games for your LAN")
    _add_host(serve)
    _add_limits(serve, SERVE_LIMITS)
    _add_doors(
        serve,
        f"open an SSH door: `ssh -t -p PORT NAME@HOST` plays (default {DEFAULT_SSH_PORT})",
        f"open a browser door: http://HOST:PORT/ plays, on phones too (default {DEFAULT_WEB_PORT})",
        can_close=False,
    )
    _add_limits(serve, DOOR_LIMITS, "door limits (the SSH and browser doors, each its own)")
    serve.set_defaults(run=playcommands.cmd_serve)

    _add_party(sub.add_parser("party", help="host for your LAN and play at your own table"))

    join = sub.add_parser("join", help="join a host on your LAN")
    join.add_argument("address", nargs="?", help="HOST or HOST:PORT")
    join.add_argument("--name", help=YOUR_NAME)
    join.add_argument(
        "--room",
        help="room code to join straight away (back to your seat there, if you hold one)",
    )
    _add_ascii(join)
    join.add_argument(
        "--deck",
        metavar="FILE",
        help="bring this deck file: the create-room dialog opens with it chosen",
    )
    join.add_argument(
        "--no-discovery", action="store_true", help="do not look for hosts on the LAN"
    )
    join.add_argument(
        "--no-remember",
        action="store_true",
        help="keep nothing on this computer: no address, name or seat tokens (a shared terminal)",
    )
    join.add_argument(
        "--locked",
        action="store_true",
        help="stay with this host: after a disconnect, only reconnecting or quitting"
        " (what the SSH door runs)",
    )
    join.add_argument(
        "--resume",
        action="store_true",
        help="back to the seat held at this host at once, without asking (a reloaded browser page)",
    )
    join.set_defaults(run=playcommands.cmd_join)

    bot = sub.add_parser("bot", help="seat network bots in a room")
    bot.add_argument("address", help="HOST:PORT of the host")
    bot.add_argument("--room", required=True, help="room code")
    bot.add_argument("--count", type=int, default=1, help="how many bots (default 1)")
    bot.add_argument("--delay", type=float, default=0.8, help="seconds a bot thinks (default 0.8)")
    bot.set_defaults(run=playcommands.cmd_bot)

    replay = sub.add_parser(
        "replay",
        help="watch or export a finished game with every hand shown (no GAME: list them)",
    )
    replay.add_argument("game", nargs="?", type=int, help="the game's number")
    replay.add_argument("--data", help=DATA_FOLDER)
    replay.add_argument("--host", metavar="HOST:PORT", help="ask a running host")
    replay.add_argument(
        "--export", choices=("text", "jsonl"), help="write it instead of showing it"
    )
    replay.add_argument("--output", "-o", help="export to this file (default: stdout)")
    _add_ascii(replay)
    replay.set_defaults(run=_imported_when_run("partyhost.historycommands", "cmd_replay"))

    stats = sub.add_parser("stats", help="tonight's standings from a host's data folder")
    stats.add_argument("--data", help=DATA_FOLDER)
    stats.add_argument("--all", action="store_true", help="every night kept, not just tonight")
    stats.set_defaults(run=_imported_when_run("partyhost.historycommands", "cmd_stats"))

    games = sub.add_parser("games", help="list the games this partyhost can run")
    games.set_defaults(run=playcommands.cmd_games)

    decks = sub.add_parser("decks", help="list, show and check deck files")
    decks_sub = decks.add_subparsers(dest="decks_command", required=True, metavar="ACTION")
    decks_sub.add_parser("list", help="shipped decks and your own")
    show = decks_sub.add_parser("show", help="print a deck's cards")
    show.add_argument("name", help="deck name or file path")
    validate = decks_sub.add_parser("validate", help="check deck files; non-zero exit on errors")
    validate.add_argument("paths", nargs="+", help="deck files to check")
    validate.add_argument(
        "--watch", action="store_true", help="check the file again every time it is saved"
    )
    new = decks_sub.add_parser(
        "new", help="write a commented starter deck for a game into your deck folder"
    )
    new.add_argument("game", help="game id (see `partyhost games`)")
    new.add_argument("name", help="the deck's file name without .yaml, e.g. office-party")
    decks.set_defaults(run=_imported_when_run("partyhost.deckcommands", "cmd_decks"))
    return parser


def _add_host(command: argparse.ArgumentParser) -> None:
    """Where the host listens, what it is called, what it keeps and offers: serve's and
    party's flags alike."""
    command.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    command.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})"
    )
    command.add_argument("--data", help="folder for the host's database")
    command.add_argument("--name", help="the host's name shown to players")
    command.add_argument(
        "--deck-dir",
        action="append",
        default=[],
        metavar="DIR",
        help="also offer the decks in this folder (repeatable; watched like your deck folder)",
    )
    command.add_argument(
        "--no-discovery", action="store_true", help="do not advertise this host on the LAN"
    )


def _add_doors(
    command: argparse.ArgumentParser, ssh_help: str, web_help: str, *, can_close: bool
) -> None:
    """The doors' ports and the SSH door's password: serve opens a door only when asked (its
    port then optional); party opens both unless ``--no-ssh``/``--no-web`` (``can_close``)."""

    def add_door(flag: str, port: int, text: str, shut: str) -> None:
        if not can_close:
            command.add_argument(flag, type=_port, nargs="?", const=port, metavar="PORT", help=text)
            return
        door = command.add_mutually_exclusive_group()
        door.add_argument(flag, type=_port, metavar="PORT", help=text)
        door.add_argument(f"--no-{flag.removeprefix('--')}", action="store_true", help=shut)

    add_door("--ssh", DEFAULT_SSH_PORT, ssh_help, "no SSH door")
    command.add_argument(
        "--ssh-password",
        metavar="PASS",
        help=f"party password for the SSH door (or set {playcommands.SSH_PASSWORD_ENV}, which ps"
        " does not show; default: open to the LAN)",
    )
    add_door("--web", DEFAULT_WEB_PORT, web_help, "no browser door")


def _add_table(
    command: argparse.ArgumentParser,
    game: str | None,
    game_help: str,
    bots_help: str,
    level_help: str,
    option_help: str,
) -> None:
    """The game to sit down at, its bots and its room's options: play's and party's flags."""
    command.add_argument("game", nargs="?", default=game, help=game_help)
    command.add_argument("--bots", type=int, help=bots_help)
    command.add_argument("--level", choices=BOT_LEVELS, help=level_help)
    command.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help=option_help
    )


def _add_ascii(command: argparse.ArgumentParser) -> None:
    """For every command that draws cards."""
    command.add_argument("--ascii", action="store_true", help="ASCII-only glyphs and borders")


def _add_party(party: argparse.ArgumentParser) -> None:
    """``partyhost party``: serve's flags that fit a party, both doors on, and play's table."""
    _add_table(
        party,
        None,
        "make a room of this game, with bots, and wait for friends (default: the lobby)",
        "how many bots to seat in GAME's room",
        "how well the bots play (default normal)",
        "an option of GAME's room, e.g. --option target=1000",
    )
    party.add_argument("--player", help=YOUR_NAME)  # its --name is the host's
    _add_ascii(party)
    party.add_argument(
        "--no-wait",
        action="store_true",
        help="open your client at once instead of waiting for Enter after the join lines",
    )
    _add_host(party)
    _add_doors(
        party,
        f"the SSH door's port (default {DEFAULT_SSH_PORT}; the door opens where the"
        " system has pseudo-terminals)",
        f"the browser door's port (default {DEFAULT_WEB_PORT})",
        can_close=True,
    )
    _add_limits(party, SERVE_LIMITS, "host limits")
    _add_limits(party, DOOR_LIMITS, "door limits")
    party.set_defaults(run=playcommands.cmd_party)


def main(argv: Sequence[str] | None = None) -> int:
    # Output redirected to a file or a pipe is UTF-8 (Windows would write cp1252 and stop at
    # the first card glyph it lacks), anything unwritable a ``?``; a terminal is left as is.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and not stream.isatty():
            with contextlib.suppress(OSError, ValueError):
                stream.reconfigure(encoding="utf-8", errors="replace")
    args = build_parser().parse_args(argv)
    try:
        result: int = args.run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader of our output went away (``| head``): what is left goes nowhere, quietly.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return result


if __name__ == "__main__":
    sys.exit(main())
