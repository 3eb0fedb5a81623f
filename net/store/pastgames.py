"""The host's answers about the past: the games it kept, their replays and the night's standings.

Replays are built one at a time in a worker thread, at a per-address rate, and
kept under a byte budget; a password room's game opens only with a player's
seat token or the room's password.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import time
from collections import OrderedDict
from typing import Any, Protocol

from partyhost.engine.registry import get_game
from partyhost.net import protocol as p
from partyhost.net.addresslimits import MAX_TRACKED, BucketsByAddress, PasswordThrottle
from partyhost.net.config import HostConfig
from partyhost.net.credentials import token_hash, verify_password
from partyhost.net.store.records import GameEntry, StoreReader, night_of
from partyhost.net.store.replaybuilder import Replay, ReplayRefused, build_replay, check_replayable

REQUESTS = frozenset({p.LIST_PAST_GAMES, p.GET_REPLAY, p.GET_STANDINGS})
PAGE_STEPS = 40
"""Steps in a replay page unless the request asks for fewer or more."""
MAX_PAGE_STEPS = 200
PAGE_BYTES = 1024 * 1024
"""A page stops before its packed steps pass this (a page holds at least one step)."""
NIGHT = re.compile(r"\d{4}-\d{2}-\d{2}")


class Sender(Protocol):
    peer_host: str
    """The asker's address: replay builds are counted per address."""

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

    def __init__(
        self, history: StoreReader, config: HostConfig, passwords: PasswordThrottle
    ) -> None:
        self.history = history
        self.config = config
        self._passwords = passwords
        self.cache_budget = int(self.config.replay_cache_mib * 2**20)
        self._replays: OrderedDict[int, Replay] = OrderedDict()
        self.cached_bytes = 0
        """The bytes the kept replays hold, each counted when built (never over the budget)."""
        self._building = asyncio.Lock()
        self._build_buckets = BucketsByAddress(
            self.config.replay_builds_per_address_per_second,
            self.config.replay_build_address_burst,
        )
        self._opened: OrderedDict[tuple[int, str], None] = OrderedDict()
        """(game, digest of the password given) for the right passwords of locked games: the
        next pages asked with the same password need no second costly check."""

    def kept_replays(self) -> list[Replay]:
        """The replays kept for the next requests, asked for longest ago first."""
        return list(self._replays.values())

    def forget_replays(self) -> None:
        """Drop every kept replay (the next request for one builds it again)."""
        self._replays.clear()
        self.cached_bytes = 0

    def _keep(self, game_id: int, built: Replay) -> None:
        """Keep ``built`` for the next requests, dropping the oldest past the byte budget."""
        if built.size > self.cache_budget:
            return
        self._replays[game_id] = built
        self.cached_bytes += built.size
        while self.cached_bytes > self.cache_budget:
            _, dropped = self._replays.popitem(last=False)
            self.cached_bytes -= dropped.size

    async def handle(self, sender: Sender, message: dict[str, Any]) -> None:
        kind = message["t"]
        try:
            if kind == p.LIST_PAST_GAMES:
                night = _night(message)
                listed = self.history.games(night=night, running=False)
                games = [describe_entry(entry) for entry in listed]
                sender.send({"t": p.PAST_GAMES, "night": night, "games": games})
            elif kind == p.GET_STANDINGS:
                tonight = night_of(time.time())
                shown = _night(message) or tonight
                rows = [row.describe() for row in self.history.standings(shown)]
                nights = self.history.nights()
                sender.send(
                    {
                        "t": p.STANDINGS,
                        "night": shown,
                        "tonight": tonight,
                        "nights": nights,
                        "rows": rows,
                    }
                )
            else:
                await self._replay(sender, message)
        except ReplayRefused as refused:
            sender.send(refused.frame())

    async def replay(
        self,
        game_id: int,
        address: str = "?",
        token: str | None = None,
        password: str | None = None,
    ) -> Replay:
        """The replay of a finished game, built once and kept while the budget allows."""
        entry = self.history.entry(game_id)
        if entry is None:
            raise ReplayRefused(
                "no_such_game", f"No past game on this host has the number {game_id}."
            )
        if entry.locked:
            await self._unlock(game_id, address, token, password)
        check_replayable(entry, game_name(entry.game))
        kept = self._replays.get(game_id)
        if kept is not None:
            self._replays.move_to_end(game_id)
            return kept
        if not self._build_buckets.of(address).take():
            raise ReplayRefused(
                "rate_limited",
                "You are asking for replays faster than this host builds them; wait a moment"
                " (a replay already open keeps its pages coming).",
            )
        async with self._building:
            kept = self._replays.get(game_id)
            if kept is not None:
                return kept
            archived = self.history.archived(game_id)
            if archived is None:
                raise ReplayRefused("no_such_game", f"Game {game_id} is no longer kept.")
            built = await asyncio.to_thread(build_replay, archived)
            self._keep(game_id, built)
            return built

    async def _unlock(
        self, game_id: int, address: str, token: str | None, password: str | None
    ) -> None:
        """Let a locked game's replay through for its players' tokens or its room's password."""
        password_hash, keys = self.history.replay_keys(game_id)
        if token and token_hash(token) in keys:
            return
        if password and password_hash is not None:
            given = (game_id, hashlib.sha256(password.encode("utf-8", "surrogatepass")).hexdigest())
            if given in self._opened:
                return
            await asyncio.sleep(self._passwords.wait_before_try(address))
            if await asyncio.to_thread(verify_password, password, password_hash):
                self._opened[given] = None
                while len(self._opened) > MAX_TRACKED:
                    self._opened.popitem(last=False)
                return
            self._passwords.failed(address, f"game {game_id}")
        raise ReplayRefused(
            "replay_locked",
            f"Game {game_id} was played in a room with a password: its replay opens for its"
            " players (with the seat token they played it with) or with the room's password.",
        )

    async def _replay(self, sender: Sender, message: dict[str, Any]) -> None:
        game_id = int(message["id"])
        replay = await self.replay(
            game_id, sender.peer_host, message.get("token"), message.get("password")
        )
        total = replay.total
        first = message.get("first") or 0
        if not 0 <= first < total:
            raise ReplayRefused(
                "no_such_step", f"Game {game_id}'s replay has steps 0 to {total - 1}, not {first}."
            )
        wanted = max(1, min(message.get("count") or PAGE_STEPS, MAX_PAGE_STEPS))
        steps = await asyncio.to_thread(page, replay, first, wanted, PAGE_BYTES)
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
