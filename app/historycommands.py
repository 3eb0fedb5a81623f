"""``partyhost replay`` and ``partyhost stats``: the party's memory from the command line.

Both read a host's data folder (read-only: the host may be running) or, for replays, ask a
running host; a replay is the same plain data whichever way it came.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, TypeVar

import msgpack
from partyhost.net.address import parse_address
from partyhost.net.clients.client import (
    ConnectionFailed,
    HostConnection,
    HostRefused,
    fetch_past_games,
    fetch_replay,
)
from partyhost.net.store.database import StoreUnusable, read_store
from partyhost.net.store.pastgames import describe_entry, game_name
from partyhost.net.store.records import StoreReader, night_of
from partyhost.net.store.replaybuilder import ReplayRefused, build_replay
from partyhost.net.store.standings import Standing
from partyhost.paths import host_data_dir
from partyhost.tui.text import counted

Frame = dict[str, Any]
Fetched = TypeVar("Fetched")


class ReplayUnavailable(Exception):
    """No replay (or list) could be had; the message says why in one line."""


@dataclass
class ReplayData:
    """A finished game's ``info`` (its past-games entry, steps and rounds) and every step."""

    info: Frame
    steps: list[Frame]


def _plain(value: Any) -> Any:
    """``value`` exactly as it would arrive from a host (tuples become lists)."""
    return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False)


def _open(data: Path) -> StoreReader:
    try:
        return read_store(data)
    except StoreUnusable as unreadable:
        raise ReplayUnavailable(str(unreadable)) from None


def local_games(data: Path) -> list[Frame]:
    with contextlib.closing(_open(data)) as history:
        return [describe_entry(entry) for entry in history.games()]


def local_replay(data: Path, game_id: int) -> ReplayData:
    """Play the game again from the data folder's history (finished games only)."""
    with contextlib.closing(_open(data)) as history:
        archived = history.archived(game_id)
    if archived is None:
        raise ReplayUnavailable(f"no game {game_id} is kept in {data}")
    try:
        replay = build_replay(archived)
    except ReplayRefused as refused:
        raise ReplayUnavailable(refused.message) from None
    return ReplayData(_plain(replay.info()), _plain(replay.all_steps()))


def ask_host(address: str, fetch: Callable[[HostConnection], Awaitable[Fetched]]) -> Fetched:
    """What ``fetch`` gets from the host at ``address`` over a connection of its own."""

    async def ask() -> Fetched:
        try:
            host, port = parse_address(address)
            connection = await HostConnection.connect(host, port, "replay viewer")
        except (ValueError, ConnectionFailed) as failed:
            raise ReplayUnavailable(str(failed)) from None
        try:
            return await fetch(connection)
        except HostRefused as refused:
            raise ReplayUnavailable(refused.message) from None
        finally:
            await connection.close()

    return asyncio.run(ask())


# --- printing -------------------------------------------------------------------


def _clock(moment: object, pattern: str) -> str:
    return time.strftime(pattern, time.localtime(moment)) if isinstance(moment, float | int) else ""


def aligned(rows: Sequence[tuple[str, ...]], right: int = 0) -> list[str]:
    """Rows as columns of even width (the last left ragged); from column ``right`` on (if
    any), cells align right, as numbers do."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]) - 1)]
    return [
        "  ".join(
            cell.rjust(width) if right and column >= right else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=False))
        )
        + "  "
        + row[-1]
        for row in rows
    ]


def games_table(games: Iterable[Frame]) -> list[str]:
    """Past games, one line each, winners marked with ``*``."""
    rows = [("#", "NIGHT", "ENDED", "GAME", "ROOM", "PLAYERS (* won)")]
    for game in games:
        winners = {r["seat"] for r in game.get("results", []) if r.get("won")}
        players = ", ".join(
            f"{p['name']}{'*' if p['seat'] in winners else ''}" for p in game.get("players", [])
        )
        ended = _clock(game.get("ended"), "%H:%M") if game["status"] == "over" else "playing"
        night = str(game.get("night") or "")
        name = str(game.get("game_name") or game["game"])
        rows.append((str(game["id"]), night, ended, name, str(game["room"]), players))
    return aligned(rows)


def standings_table(night: str, rows: list[Standing], tonight: str) -> list[str]:
    """A night's standings as aligned columns (per game: won/played)."""
    title = f"Tonight ({night})" if night == tonight else f"The night of {night}"
    games = sum(row.games_won for row in rows)
    lines = [f"{title}: {counted(len(rows), 'player')}, {counted(games, 'game')} won"]
    table = [("PLAYER", "PLAYED", "WON", "POINTS", "MONEY", "BY GAME (won/played)")]
    for row in rows:
        name = row.name + (" (bot)" if row.bot else "")
        points = "-" if row.points is None else str(row.points)
        money = "-" if row.money is None else f"${row.money}"
        by_game = ", ".join(
            f"{game_name(game)} {row.won.get(game, 0)}/{count}"
            for game, count in sorted(row.played.items())
        )
        table.append((name, str(row.games_played), str(row.games_won), points, money, by_game))
    return lines + aligned(table, right=1)


def cmd_stats(args: argparse.Namespace) -> int:
    """``partyhost stats [--all]``: tonight's standings, or every night's."""
    data = host_data_dir(args.data)
    try:
        history = _open(data)
    except ReplayUnavailable as missing:
        print(f"partyhost stats: {missing}", file=sys.stderr)
        return 1
    with contextlib.closing(history):
        tonight = night_of(time.time())
        nights = history.nights() if args.all else [tonight]
        if not nights:
            print(f"No finished games are kept in {data}.")
        for index, night in enumerate(nights):
            if index:
                print()
            rows = history.standings(night)
            if not rows:
                print(f"Tonight ({night}): no finished games yet.")
                continue
            print("\n".join(standings_table(night, rows, tonight)))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    if args.host is not None and args.data is not None:
        print("partyhost replay: give --data or --host, not both", file=sys.stderr)
        return 2
    if args.game is None and (args.export or args.output):
        print("partyhost replay: --export needs a game number (see the list)", file=sys.stderr)
        return 2
    try:
        if args.game is None:
            if args.host is not None:
                games = ask_host(args.host, fetch_past_games)
            else:
                games = local_games(host_data_dir(args.data))
            print("\n".join(games_table(games)) if games else "No games kept yet.")
            return 0
        if args.host is not None:
            replay = ReplayData(*ask_host(args.host, lambda host: fetch_replay(host, args.game)))
        else:
            replay = local_replay(host_data_dir(args.data), args.game)
    except ReplayUnavailable as unavailable:
        print(f"partyhost replay: {unavailable}", file=sys.stderr)
        return 1
    if args.export is None:
        from partyhost.tui.replay.screen import run_replay_viewer

        return run_replay_viewer(replay.info, replay.steps, args.ascii)
    with contextlib.ExitStack() as stack:
        out: TextIO = sys.stdout
        if args.output:
            out = stack.enter_context(open(args.output, "w", encoding="utf-8"))
        if args.export == "jsonl":  # one JSON object per step, each naming its game
            for step in replay.steps:
                record = {"game_id": replay.info["id"], "game": replay.info["game"], **step}
                out.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
        else:
            from partyhost.tui.replay.narration import export_text
            from partyhost.tui.text import glyphs_for

            out.write(export_text(replay.info, replay.steps, glyphs_for(args.ascii)))
    return 0
