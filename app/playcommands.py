"""``partyhost play|serve|party|join|bot|games``: hosting a party and sitting down at it."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from partyhost.net.address import DEFAULT_SSH_PORT, DEFAULT_WEB_PORT, parse_address
from partyhost.net.platform import PSEUDO_TERMINALS, address_in_use

if TYPE_CHECKING:
    from partyhost.net.config import HostConfig


def cmd_games(args: argparse.Namespace) -> int:
    from partyhost.engine.registry import all_games

    rows = [("ID", "GAME", "PLAYERS")]
    for game in all_games():
        low, high = game.min_players, game.max_players
        rows.append((game.id, game.name, str(low) if low == high else f"{low}-{high}"))
    width, name_width = (max(len(row[column]) for row in rows) for column in (0, 1))
    for game_id, name, players in rows:
        print(f"{game_id:<{width}}  {name:<{name_width}}  {players}")
    return 0


SSH_PASSWORD_ENV = "PARTYHOST_SSH_PASSWORD"
"""Where ``serve`` also looks for the SSH door's password: unlike a flag, other
users of the machine cannot read it in ``ps``."""


def serve_config(args: argparse.Namespace) -> HostConfig:
    """The host settings ``partyhost serve`` asked for (flags first, then the environment)."""
    from partyhost.net.config import HostConfig
    from partyhost.paths import host_data_dir

    password = args.ssh_password
    if password is None and args.ssh is not None:
        password = os.environ.get(SSH_PASSWORD_ENV) or None
    return HostConfig(
        host=args.host,
        port=args.port,
        data_dir=host_data_dir(args.data),
        host_name=args.name,
        max_connections=args.max_clients,
        max_connections_per_address=args.max_per_address,
        max_rooms=args.max_rooms,
        max_rooms_per_address=args.max_rooms_per_address,
        idle_room_seconds=args.idle_room_minutes * 60.0,
        max_history_mib=args.max_history_mib,
        ssh_port=args.ssh,
        ssh_password=password,
        ssh_max_sessions=args.ssh_max_sessions,
        ssh_max_connections=args.ssh_max_connections,
        ssh_max_per_address=args.ssh_max_per_address,
        ssh_login_timeout=args.ssh_login_timeout,
        web_port=args.web,
        web_idle_timeout=args.web_idle_minutes * 60.0,
        deck_dirs=tuple(Path(folder).expanduser() for folder in args.deck_dir),
        discovery=not args.no_discovery,
    )


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio

    from partyhost.net.hosting.serve import run_host

    if args.ssh_password is not None and args.ssh is None:
        print("partyhost serve: --ssh-password needs --ssh", file=sys.stderr)
        return 2
    if args.ssh is not None and not PSEUDO_TERMINALS:
        print(NO_DOOR_HERE, file=sys.stderr)
        return 2
    config = serve_config(args)
    with contextlib.suppress(KeyboardInterrupt):
        try:
            asyncio.run(run_host(config, console=True))
        except OSError as exc:
            print(f"partyhost serve: {_why_not_listening(exc, args)}", file=sys.stderr)
            return 1
    return 0


NO_DOOR_HERE = (
    "partyhost serve: the SSH door needs pseudo-terminals, which this system does not have;"
    " open the door on a Linux or macOS host, open the browser door here instead"
    " (`serve --web`: friends play in a browser, phones too), or have each friend run"
    " `partyhost join` on their own laptop."
)


def _why_not_listening(error: OSError, args: argparse.Namespace) -> str:
    """One line for a host that could not start; a taken port is named, with the flag to change."""
    if not address_in_use(error):
        return str(error)
    port, flag = args.port, "--port"
    named = re.search(r", (\d+)\)", str(error))  # asyncio names the address: ('HOST', PORT)
    for door_flag, door_port in (("--ssh", args.ssh), ("--web", args.web)):
        if named is not None and door_port is not None and int(named.group(1)) == door_port:
            port, flag = door_port, door_flag
    return (
        f"port {port} is already in use (another partyhost serve, or another program);"
        f" try {flag} {port + 1 if port < 65535 else port - 1}"
    )


def cmd_join(args: argparse.Namespace) -> int:
    """The full-screen client until it quits; its exit code is the process's."""
    from partyhost.tui.app import PartyApp

    if args.locked and args.address is None:
        print("partyhost join: --locked needs the host's address", file=sys.stderr)
        return 2
    if args.address is None and not args.no_discovery:  # with an address, nothing to look for
        from partyhost.net.discovery import HostBrowser
        from partyhost.tui.shared.connect import use_discovery

        use_discovery(HostBrowser)

    if args.deck is not None:  # checked now: the host would find problems only once asked
        from partyhost.decks.files import DeckFileError, load_deck_file

        deck = Path(args.deck).expanduser()
        if not deck.is_file():
            print(f"partyhost join: --deck {args.deck}: no such file", file=sys.stderr)
            return 2
        try:
            load_deck_file(deck)
        except DeckFileError as exc:
            problems = f"{len(exc.errors)} problem(s) to fix first:"
            print(f"partyhost join: --deck {deck}: {problems}", file=sys.stderr)
            print(*exc.errors, sep="\n", file=sys.stderr)
            return 2
    result = PartyApp(
        address=args.address,
        name=args.name,
        room=args.room,
        ascii_only=args.ascii,
        deck_file=args.deck,
        remember=not args.no_remember,
        locked=args.locked,
        resume=args.resume,
        own_process=True,
    ).run()
    return result if isinstance(result, int) else 0


def cmd_play(args: argparse.Namespace) -> int:
    from partyhost.tui.play import play, until_interrupted

    return until_interrupted(
        play(args.game, args.bots, args.name, args.ascii, args.level, args.option, args.bot_pace)
    )


NO_SSH_HERE = "this system has no pseudo-terminals (friends use the other ways in)"


def party_refusal(args: argparse.Namespace) -> str | None:
    """Why these ``partyhost party`` flags do not go together, or None."""
    if args.game is None:
        for flag, given in (
            ("--bots", args.bots is not None),
            ("--level", args.level is not None),
            ("--option", bool(args.option)),
        ):
            if given:
                return f"{flag} needs a GAME (e.g. partyhost party tshirt {flag} ...)"
    if args.ssh_password is not None and args.no_ssh:
        return "--ssh-password is for the SSH door, which --no-ssh turns off"
    if args.ssh is not None and not PSEUDO_TERMINALS:
        return f"--ssh: no SSH door here: {NO_SSH_HERE}"
    return None


def cmd_party(args: argparse.Namespace) -> int:
    from partyhost.tui.hostplays import run_party
    from partyhost.tui.play import QuickGame, choose_table, player_name

    refusal = party_refusal(args)
    if refusal is not None:
        print(f"partyhost party: {refusal}", file=sys.stderr)
        return 2
    table = None
    if args.game is not None:
        chosen = choose_table("party", args.game, args.bots, args.option, friends_coming=True)
        if chosen is None:
            return 2
        game, bots, rules = chosen
        table = QuickGame(game.id, bots, args.level, rules, start=False)
    ssh_off = None if args.no_ssh or PSEUDO_TERMINALS else NO_SSH_HERE
    doors = with_party_doors(args)
    try:
        return run_party(
            serve_config(doors),
            table,
            player_name(args.player),
            ascii_only=args.ascii,
            wait=not args.no_wait,
            ssh_off=ssh_off,
            stdin=sys.stdin,
            out=sys.stdout,
        )
    except OSError as exc:
        print(f"partyhost party: {_why_not_listening(exc, doors)}", file=sys.stderr)
        return 1


def with_party_doors(args: argparse.Namespace) -> argparse.Namespace:
    """``partyhost party``'s flags as ``serve``'s: both doors open unless turned off (the
    SSH door only where the system can host it)."""
    doors = argparse.Namespace(**vars(args))
    if args.no_ssh or (args.ssh is None and not PSEUDO_TERMINALS):
        doors.ssh = None
    elif args.ssh is None:
        doors.ssh = DEFAULT_SSH_PORT
    doors.web = None if args.no_web else (DEFAULT_WEB_PORT if args.web is None else args.web)
    return doors


def cmd_bot(args: argparse.Namespace) -> int:
    import asyncio

    from partyhost.net.clients.netbot import run_network_bots

    try:
        host, port = parse_address(args.address)
    except ValueError as exc:
        print(f"partyhost bot: {exc}", file=sys.stderr)
        return 2
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_network_bots(host, port, args.room.upper(), args.count, args.delay))
    return 0
