"""The chaos bench's players: network bots that remember every view they were shown.

A :class:`ChaosBot` is the shipped :class:`NetBot` (a reconnecting client that
plays from its own view with the game's bot policy) plus a record of each view
frame: its version and a digest of its content. Those records are what the
checker compares with a fault-free replay of the journal.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import random
from dataclasses import dataclass, field
from typing import Any

import msgpack
from partyhost.net import protocol as p
from partyhost.net.clients.client import (
    CONNECTION,
    ConnectionLost,
    Message,
    ReconnectingClient,
    ReconnectPolicy,
    build,
)
from partyhost.net.clients.netbot import NetBot

POLICY = ReconnectPolicy(attempts=60, first_delay=0.05, max_delay=0.5, total_seconds=60.0)
"""Reconnect quickly and for long enough to outlast any restart the harness makes."""


@dataclass(frozen=True)
class AwayOnce(ReconnectPolicy):
    """:data:`POLICY` whose first try waits ``away`` seconds: a bot stepping away waits once,
    then comes back as fast as after any cut (a host restart meanwhile adds no second wait)."""

    away: float = 0.0

    def delays(self) -> list[float]:
        return [self.away, *super().delays()[:-1]]


def digest(value: Any) -> bytes:
    """A short fingerprint of ``value`` as it travels on the wire."""
    return hashlib.blake2b(msgpack.packb(value, use_bin_type=True), digest_size=16).digest()


@dataclass
class SeenView:
    version: int
    fingerprint: bytes


class ChaosBot(NetBot):
    """A network bot that records its views and counts its reconnects."""

    def __init__(self, host: str, port: int, name: str, *, delay: tuple[float, float], seed: int):
        super().__init__(host, port, name, delay=delay, seed=seed, policy=POLICY)
        self.seat: int | None = None
        self.views: list[SeenView] = []
        self.reconnects = 0
        self.refusals: list[str] = []
        """The codes of the host's last refusals (for the report of a room that stalls)."""
        self._answers = random.Random(seed)
        self.reclaim_answers: list[str] = []
        """How this bot answered the table's "is it them?" questions: yes, no or silent."""
        self.seat_freed = False
        """Came back with its token and was told it no longer has a seat (``token_unknown``):
        away past the grace once its game had ended, so the host let the seat go."""

    def observe(self, message: Message) -> None:
        kind = message["t"]
        if kind == p.JOINED:
            self.seat = message.get("seat")
        elif kind == CONNECTION and message.get("state") == "restored":
            self.reconnects += 1
            if not message.get("resumed"):
                self.seat_freed = True
        elif kind == p.VIEW:
            self.views.append(SeenView(int(message["version"]), digest(message["view"])))
        elif kind == p.ERROR:
            self.refusals = [*self.refusals[-4:], str(message.get("code"))]
            if message.get("code") == "token_unknown":
                self.seat_freed = True
        elif kind == p.RECLAIM_ASK:
            self._answer_reclaim(int(message["ask"]))

    def _answer_reclaim(self, ask: int) -> None:
        """Say yes, no, or nothing (the host's time limit then says no)."""
        answer = self._answers.choice(["yes", "no", "silent"])
        self.reclaim_answers.append(answer)
        if answer != "silent" and self.client is not None:
            with contextlib.suppress(ConnectionLost):
                self.client.write(build.reclaim_answer(ask, answer == "yes"))

    def describe(self) -> str:
        """Where this bot stands, for the report of a room that did not finish."""
        last = self.views[-1].version if self.views else None
        status = self.room["status"] if self.room else None
        return (
            f"{self.name} (seat {self.seat}): room {status}, last view {last},"
            f" links {self.statuses[-3:]}, refusals {self.refusals}"
        )

    async def join_and_play(
        self, code: str | None = None, create: dict[str, Any] | None = None, start_with: int = 0
    ) -> None:
        """Join (or create) a room and play until its game is over; the link stays open."""
        self.client = await ReconnectingClient.open(
            self.host, self.port, self.name, policy=self.policy
        )
        if create is not None:
            await self.client.create_room(**create)
        else:
            assert code is not None
            await self.client.join_room(code)
        await self._loop(start_with or None, 1)
        await self._drain()

    async def _drain(self, quiet: float = 0.3, limit: float = 3.0) -> None:
        """Record what is still on its way after the game ended (bounded).

        A bot that comes back after the last move is sent the room (over) before
        the view of the final state; the loop stops at the first, so the second
        would go unrecorded.
        """
        assert self.client is not None
        with contextlib.suppress(TimeoutError, ConnectionLost):
            async with asyncio.timeout(limit):
                while True:
                    async with asyncio.timeout(quiet):
                        self.observe(await self.client.recv())

    def drop_link(self) -> bool:
        """Cut this bot's connection as a network failure would; False if it had none."""
        connection = self.client.connection if self.client is not None else None
        if connection is None or connection.closed:
            return False
        connection.abort()
        return True

    def step_away(self, seconds: float) -> bool:
        """Cut the link and stay away about ``seconds`` before coming back with the token
        (long enough for a stranger to ask for this seat by name).

        It waits that long once: the reconnection, which starts when the link drops,
        takes its delays from the policy then, and the policy is back to :data:`POLICY`
        once the wait is over, so a later cut (a host restart) is not another long wait.
        """
        client = self.client
        if client is None or client.connection is None or client.connection.closed:
            return False
        client.policy = AwayOnce(**dataclasses.asdict(POLICY), away=seconds)
        asyncio.get_running_loop().call_later(seconds, self._back_to_policy, client)
        return self.drop_link()

    @staticmethod
    def _back_to_policy(client: ReconnectingClient) -> None:
        client.policy = POLICY

    async def leave(self, attempts: int = 20) -> bool:
        """Leave the room (so the host can close it), retrying across restarts; then close."""
        client = self.client
        if client is None:
            return False
        left = False
        try:
            for _ in range(attempts):
                try:
                    await client.leave_room()
                    async with asyncio.timeout(3.0):
                        while not left:
                            message = await client.recv()
                            left = message["t"] == p.LEFT
                except (ConnectionLost, TimeoutError):
                    await asyncio.sleep(0.2)
                if left:
                    break
        finally:
            with contextlib.suppress(Exception):
                await client.close()
        return left


@dataclass
class RoomPlan:
    """One room the harness fills: a game, its options and how many bots sit down."""

    game: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict)
