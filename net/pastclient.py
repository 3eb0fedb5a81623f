"""Asking a host about its past games with the client library: the list, and whole replays.

A replay comes in pages (``get_replay``); :func:`fetch_replay` asks for them
one after the other until it holds every step. A refusal (a running game, an
unknown number) raises :class:`HostRefused` with the host's code and words.
"""

from __future__ import annotations

from typing import Any

from partyhost.net import protocol as p
from partyhost.net.client import HostConnection
from partyhost.net.clientbase import NetError

PAGE = 200


class HostRefused(NetError):
    """The host answered with an ``error`` (``code`` is its stable code)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


async def _answer(connection: HostConnection, kind: str) -> dict[str, Any]:
    message = await connection.wait_for(kind, p.ERROR, timeout=30.0)
    if message["t"] == p.ERROR:
        raise HostRefused(str(message.get("code")), str(message.get("message")))
    return message


async def fetch_past_games(connection: HostConnection) -> list[dict[str, Any]]:
    """The host's kept games, newest first (``past_games``)."""
    await connection.list_past_games()
    games: list[dict[str, Any]] = (await _answer(connection, p.PAST_GAMES))["games"]
    return games


async def fetch_replay(
    connection: HostConnection, game_id: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A finished game's ``info`` and every step of its replay."""
    steps: list[dict[str, Any]] = []
    info: dict[str, Any] = {}
    while True:
        await connection.get_replay(game_id, len(steps), PAGE)
        page = await _answer(connection, p.REPLAY)
        info = page["info"]
        steps += page["steps"]
        if len(steps) >= page["total"] or not page["steps"]:
            return info, steps


async def fetch_standings(connection: HostConnection, night: str | None = None) -> dict[str, Any]:
    await connection.get_standings(night)
    return await _answer(connection, p.STANDINGS)
