"""Bots that are real network clients (``partyhost bot HOST:PORT --room CODE``).

Each bot joins like a person, marks itself ready and, on every view it is
sent, asks the game's ``bot_command`` (from that view alone, with its own
seeded generator) what to do after a short thinking delay. If the link drops
it comes back with its seat token (see :class:`ReconnectingClient`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Awaitable
from typing import Any

from partyhost.engine.core import Game
from partyhost.engine.registry import get_game
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from partyhost.net.clients.client import CONNECTION, Message, ReconnectingClient, ReconnectPolicy

log = logging.getLogger(__name__)

MAX_REFUSALS = 20
"""Consecutive refused commands after which a bot stops retrying until the next view."""
RETRY_BACKOFF = 0.05
"""Seconds more to wait before each further retry after a refusal (a bot that thinks for
no time would otherwise spend the host's rate limit on retries in a few milliseconds)."""
GIVE_UP_ON = ("room_full", "no_such_room", "game_in_progress", "wrong_password", "token_unknown")
"""Refusals that leave a bot no seat to play: it stops."""

Delay = float | tuple[float, float]


class NetBot:
    """One network bot. :meth:`play` returns when its games are over or it is out."""

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        *,
        delay: Delay = 0.8,
        seed: int | None = None,
        policy: ReconnectPolicy | None = None,
    ) -> None:
        self.host, self.port, self.name = host, port, name
        self.delay = delay
        self.rng = Rng(secrets.randbits(63) if seed is None else seed)
        self.policy = policy
        self.client: ReconnectingClient | None = None
        self.code: str | None = None
        self.room: Message | None = None
        self.view: Message | None = None
        self._view_at = 0.0
        """When the last view came (monotonic): the game clock has run on since."""
        self.game: Game | None = None
        self.statuses: list[str] = []
        self._act_at: float | None = None
        self._refusals = 0
        self._started = False

    def _think(self) -> float:
        return random.uniform(*self.delay) if isinstance(self.delay, tuple) else self.delay

    async def play(
        self,
        code: str | None = None,
        *,
        password: str | None = None,
        create: dict[str, Any] | None = None,
        start_with: int | None = None,
        games: int = 1,
    ) -> None:
        """Join room ``code`` (or create one with ``create`` kwargs) and play ``games`` games;
        owning the room, start it once ``start_with`` players are seated and ready."""
        self.client = await ReconnectingClient.open(
            self.host, self.port, self.name, policy=self.policy
        )
        try:
            if create is not None:
                await self.client.create_room(**create)
            else:
                assert code is not None
                await self.client.join_room(code, password)
            await self._loop(start_with, games)
        finally:
            await self.client.close()

    async def _loop(self, start_with: int | None, games: int) -> None:
        assert self.client is not None
        finished = 0
        while finished < games:
            timeout = None if self._act_at is None else max(0.0, self._act_at - time.monotonic())
            try:
                async with asyncio.timeout(timeout):
                    message = await self.client.recv()
            except TimeoutError:
                await self._act()
                continue
            self.observe(message)
            kind = message["t"]
            if kind == CONNECTION:
                self.statuses.append(message["state"])
                if message["state"] == "failed":
                    return
                if message["state"] == "restored" and not message.get("resumed"):
                    return  # the seat is gone (room closed or kicked)
            elif kind == p.JOINED:
                self.code = message["code"]
            elif kind == p.ROOM:
                if self._on_room(message):
                    finished += 1
                if self._waited_for(message):  # a round's result: "read" it, go on
                    await self._send_quietly(self.client.seen())
                if finished < games:  # after the last game, start nothing more
                    await self._lobby_duties(message, start_with)
            elif kind == p.VIEW:
                self.view, self._view_at = message, time.monotonic()
                self._refusals = 0
                self._act_at = time.monotonic() + self._think()
            elif kind == p.ERROR:
                log.debug("%s: host refused: %s", self.name, message)
                if message.get("code") in GIVE_UP_ON:
                    return
                self._refusals += 1
                if self.view is not None and self._refusals < MAX_REFUSALS:
                    wait = max(self._think(), RETRY_BACKOFF * self._refusals)
                    self._act_at = time.monotonic() + wait
            elif kind == p.LEFT:
                return

    def observe(self, message: Message) -> None:
        """Every message the bot receives, before it acts on it (for tools to override)."""

    def _game_time(self) -> float:
        """The room's game clock now, which the view's times are on: the view's ``now``
        plus the time since it came (a view sent while the clock stood still says when)."""
        assert self.view is not None
        now = self.view.get("now")
        if not isinstance(now, float):
            return time.time()
        return now + (time.monotonic() - self._view_at)

    @staticmethod
    def _waited_for(room: Message) -> bool:
        """Whether the room has stopped for a round's result and waits for this seat."""
        pause = room.get("pause")
        return isinstance(pause, dict) and room.get("you") in (pause.get("waiting") or [])

    def _on_room(self, room: Message) -> bool:
        """Track the room; True when a game this bot played has just ended."""
        self.room = room
        if self.game is None or self.game.id != room["game"]:
            self.game = get_game(room["game"])
        if room["status"] == p.PLAYING:
            self._started = True
            return False
        if room["status"] == p.OVER and self._started:
            self._started = False
            self._act_at = None
            return True
        return False

    async def _lobby_duties(self, room: Message, start_with: int | None) -> None:
        assert self.client is not None
        if room["status"] == p.PLAYING:
            return
        you = room.get("you")
        mine = next((seat for seat in room["seats"] if seat["seat"] == you), None)
        if mine is not None and not mine["ready"]:
            await self._send_quietly(self.client.set_ready(True))
        if start_with is None or room.get("owner") != you:
            return
        seated = [seat for seat in room["seats"] if not seat["left"]]
        others_ready = all(seat["ready"] for seat in seated if seat["seat"] != you)
        if len(seated) >= start_with and others_ready:
            await self._send_quietly(self.client.start_game())

    async def _act(self) -> None:
        self._act_at = None
        if self.client is None or self.game is None or self.view is None:
            return
        if self.room is None or self.room["status"] != p.PLAYING or self.room.get("paused"):
            return
        try:
            command = self.game.bot_command(self.view["view"], self.rng, self._game_time())
        except Exception:
            log.exception("%s: bot_command failed", self.name)
            return
        if command is not None:
            await self._send_quietly(self.client.play(command))

    async def _send_quietly(self, sending: Awaitable[None]) -> None:
        """Send; a lost link is not this bot's to handle (the reconnecting stream reports it)."""
        try:
            await sending
        except Exception as exc:
            log.debug("%s: could not send: %s", self.name, exc)


async def run_network_bots(
    host: str,
    port: int,
    room_code: str,
    count: int,
    delay: Delay,
    *,
    password: str | None = None,
    games: int = 1,
) -> None:
    """Seat ``count`` network bots in room ``room_code``; return when they are done."""
    bots = [NetBot(host, port, f"Netbot {n}", delay=delay) for n in range(1, count + 1)]
    results = await asyncio.gather(
        *(bot.play(room_code, password=password, games=games) for bot in bots),
        return_exceptions=True,
    )
    for bot, result in zip(bots, results, strict=True):
        if isinstance(result, BaseException):
            log.warning("%s stopped: %s", bot.name, result)
