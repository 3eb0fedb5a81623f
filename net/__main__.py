"""``python -m partyhost.net``: a bare host, without the rest of the ``partyhost`` command."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from partyhost.net.address import DEFAULT_PORT
from partyhost.net.config import HostConfig
from partyhost.net.hosting.serve import run_host


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m partyhost.net``: a host without the rest of the CLI."""
    parser = argparse.ArgumentParser(prog="python -m partyhost.net", description=__doc__)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--data", default=None, help="data folder (default: in memory)")
    parser.add_argument("--name", default=None)
    parser.add_argument("--grace", type=float, default=120.0)
    parser.add_argument("--ghost-grace", type=float, default=15.0)
    parser.add_argument("--bot-delay", type=float, nargs=2, default=(0.4, 1.2))
    parser.add_argument("--heartbeat", type=float, default=5.0)
    parser.add_argument(
        "--idle-room",
        type=float,
        default=HostConfig.idle_room_seconds,
        help="seconds an unwatched room stays open",
    )
    parser.add_argument(
        "--max-rooms-per-address",
        type=int,
        default=HostConfig.max_rooms_per_address,
        help="open rooms one address may create",
    )
    parser.add_argument(
        "--max-game-commands",
        type=int,
        default=HostConfig.max_game_commands,
        help="commands one game may journal",
    )
    parser.add_argument(
        "--max-game-journal-bytes",
        type=int,
        default=HostConfig.max_game_journal_bytes,
        help="journal bytes one game's commands may take",
    )
    parser.add_argument("--deck-dir", action="append", default=[])
    parser.add_argument(
        "--games",
        action="append",
        default=[],
        help="import this module first (it registers more games)",
    )
    parser.add_argument(
        "--max-per-address", type=int, default=HostConfig.max_connections_per_address
    )
    parser.add_argument("--log", default="WARNING")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=args.log.upper(),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    config = HostConfig(
        host=args.host,
        port=args.port,
        data_dir=Path(args.data) if args.data else None,
        host_name=args.name,
        grace_seconds=args.grace,
        ghost_grace_seconds=args.ghost_grace,
        bot_delay=tuple(args.bot_delay),
        heartbeat_interval=args.heartbeat,
        idle_room_seconds=args.idle_room,
        max_rooms_per_address=args.max_rooms_per_address,
        max_game_commands=args.max_game_commands,
        max_game_journal_bytes=args.max_game_journal_bytes,
        deck_dirs=tuple(Path(d) for d in args.deck_dir),
        extra_games=tuple(args.games),
        max_connections_per_address=args.max_per_address,
    )
    with contextlib.suppress(KeyboardInterrupt):
        try:
            asyncio.run(run_host(config))
        except OSError as error:  # a port in use, a data folder that cannot be used
            print(f"{parser.prog}: {error}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
