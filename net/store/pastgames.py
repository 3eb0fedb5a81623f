"""The host's answers about the past: the games it kept, their replays and the night's standings.

Lobby requests (no room needed): ``list_past_games``, ``get_replay`` and
``get_standings``. A replay is built in a worker thread (the engine replays
every command), one at a time and kept for a few requests, so a long game
being rebuilt never holds up the rooms; its steps go out in pages that stay
well under the frame limit.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import OrderedDict
from typing import Any, Protocol

from partyhost.engine.registry import get_game
from partyhost.net import protocol as p
from partyhost.net.store.records import GameEntry, StoreReader, night_of
from partyhost.net.store.replaybuilder import Replay, ReplayRefused, build_replay, check_replayable

REQUESTS = frozenset({p.LIST_PAST_GAMES, p.GET_REPLAY, p.GET_STANDINGS})
PAGE_STEPS = 40
"""Steps in a replay page unless the request asks for fewer or more."""
MAX_PAGE_STEPS = 200
PAGE_BYTES = 1024 * 1024
"""A page stops before its packed steps pass this (a page holds at least one step)."""
KEPT_REPLAYS = 4
NIGHT = re.compile(r"\d{4}-\d{2}-\d{2}")


class Sender(Protocol):
    def send(self, message: dict[str, Any]) -> None: ...


def game_name(game_id: str) -> str:
    try:
        return get_game(game_id).name
    except KeyError:
        return game_id


def describe_entry(entry: GameEntry) -> dict[str, Any]:
    return {**entry.describe(), "game_name": game_name(entry.game)}


def _night(message: dict[str, Any]) -> str | None:
    night = message.get("night")
    if night is not None and not NIGHT.fullmatch(night):
        raise ReplayRefused("bad_night", f"{night!r} is not a night: write it as YYYY-MM-DD.")
    return night if isinstance(night, str) else None


class PastGames:
    """Answers the three requests from the host's :class:`~partyhost.net.store.database.Store`."""

    def __init__(self, history: StoreReader) -> None:
        self.history = history
        self._replays: OrderedDict[int, Replay] = OrderedDict()
        self._building = asyncio.Lock()

    async def handle(self, sender: Sender, message: dict[str, Any]) -> None:
        kind = message["t"]
        try:
            if kind == p.LIST_PAST_GAMES:
                self._list(sender, _night(message))
            elif kind == p.GET_STANDINGS:
                self._standings(sender, _night(message))
            else:
                await self._replay(sender, message)
        except ReplayRefused as refused:
            sender.send(refused.frame())

    def _list(self, sender: Sender, night: str | None) -> None:
        games = [describe_entry(entry) for entry in self.history.games(night=night)]
        sender.send({"t": p.PAST_GAMES, "night": night, "games": games})

    def _standings(self, sender: Sender, night: str | None) -> None:
        tonight = night_of(time.time())
        shown = night or tonight
        sender.send(
            {
                "t": p.STANDINGS,
                "night": shown,
                "tonight": tonight,
                "nights": self.history.nights(),
                "rows": [row.describe() for row in self.history.standings(shown)],
            }
        )

    async def replay(self, game_id: int) -> Replay:
        """The replay of a finished game, built once and kept for the next few requests."""
        kept = self._replays.get(game_id)
        if kept is not None:
            self._replays.move_to_end(game_id)
            return kept
        entry = self.history.entry(game_id)
        if entry is None:
            raise ReplayRefused(
                "no_such_game", f"No past game on this host has the number {game_id}."
            )
        check_replayable(entry, game_name(entry.game))
        async with self._building:
            kept = self._replays.get(game_id)
            if kept is not None:
                return kept
            archived = self.history.archived(game_id)
            if archived is None:
                raise ReplayRefused("no_such_game", f"Game {game_id} is no longer kept.")
            built = await asyncio.to_thread(build_replay, archived)
            self._replays[game_id] = built
            while len(self._replays) > KEPT_REPLAYS:
                self._replays.popitem(last=False)
            return built

    async def _replay(self, sender: Sender, message: dict[str, Any]) -> None:
        game_id = int(message["id"])
        replay = await self.replay(game_id)
        total = replay.total
        first = message.get("first") or 0
        if not 0 <= first < total:
            raise ReplayRefused(
                "no_such_step", f"Game {game_id}'s replay has steps 0 to {total - 1}, not {first}."
            )
        wanted = message.get("count") or PAGE_STEPS
        wanted = max(1, min(wanted, MAX_PAGE_STEPS))
        steps = page(replay, first, wanted, PAGE_BYTES)
        sender.send(
            {
                "t": p.REPLAY,
                "id": game_id,
                "info": replay.info(),
                "first": first,
                "steps": steps,
                "total": total,
            }
        )


def page(replay: Replay, first: int, count: int, budget: int) -> list[dict[str, Any]]:
    """Up to ``count`` steps from ``first`` whose packed size stays within ``budget``."""
    steps: list[dict[str, Any]] = []
    used = 0
    for step in replay.steps(first, count):
        size = len(p.encode(step))
        if steps and used + size > budget:
            break
        steps.append(step)
        used += size
    return steps
