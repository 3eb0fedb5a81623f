"""The chaos bench's visitors: people using the host's other features while games run.

Each visit is one short connection with a hard time limit and returns its
outcome as a short label, so the harness can count what the host accepted and
what it refused:

- an upload creates a room with deck files sent from "this computer" (valid
  ones, broken ones, the same ones again in another order), then leaves it;
- a replay request asks for a page of a finished game's replay (or of one that
  does not exist);
- a reclaim joins a live room under the name of a player whose link was just
  cut: the table is asked "is it them?", and its bots answer yes, no or not at
  all (then the host's time limit says no).

A visit that meets a host being killed ends as ``lost``: it is part of the chaos.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from partyhost.net import protocol as p
from partyhost.net.clients.client import ConnectionFailed, ConnectionLost, HostConnection

VISIT_SECONDS = 8.0
"""No visit lives longer than this (a reclaim waits for the table's answer)."""
DECKS = Path(__file__).resolve().parent.parent / "decks"


def _renamed(text: str, name: str) -> str:
    return text.replace("name: Classic", f"name: {name}", 1)


def upload_pool() -> dict[str, tuple[bool, str]]:
    """Deck files to send with a T-shirt room, by file name: (valid?, text)."""
    shirts = (DECKS / "the-t-shirt-game.yaml").read_text(encoding="utf-8")
    memes = (DECKS / "what-do-you-meme.yaml").read_text(encoding="utf-8")
    return {
        "shirts-a.yaml": (True, _renamed(shirts, "Shirts A")),
        "shirts-b.yaml": (True, _renamed(shirts, "Shirts B")),
        "twice-versioned.yaml": (False, shirts.replace("version: 1", "version: 1\nversion: 2")),
        "cut-short.yaml": (False, shirts[: len(shirts) // 3] + '\n  - "unterminated'),
        "other-game.yaml": (False, _renamed(memes, "Memes here")),
        "not-a-deck.yaml": (False, "just: [a, list\n\tof: nothing"),
        "python-tag.yaml": (False, "game: tshirt\nversion: !!python/name:os.system 1\n"),
    }


async def _connect(port: int, name: str) -> HostConnection:
    return await HostConnection.connect("127.0.0.1", port, name, timeout=3.0)


async def upload(
    port: int, rng: random.Random, number: int, *, broken: bool
) -> tuple[str, list[str]]:
    """Create a T-shirt room with one or two deck files, one of them ``broken`` or all valid:
    (``accepted``, ``refused:CODE`` or ``lost``; ``valid`` or ``broken`` for each file
    sent). A room that was made is left at once (the host closes it)."""
    pool = upload_pool()
    valid = sorted(name for name, (ok, _) in pool.items() if ok)
    names = rng.sample(valid, rng.randint(1, len(valid)))
    if broken:
        bad = sorted(name for name, (ok, _) in pool.items() if not ok)
        names[rng.randrange(len(names))] = rng.choice(bad)
    if sum(len(pool[name][1]) for name in names) > p.MAX_CLIENT_FRAME - 4096:
        names = sorted(names, key=lambda name: pool[name][0])[:1]  # the broken one stays
    files = [{"name": name, "text": pool[name][1]} for name in names]
    kinds = ["valid" if pool[name][0] else "broken" for name in names]
    return await _create_with(port, files, number), kinds


async def _create_with(port: int, files: list[dict[str, str]], number: int) -> str:
    try:
        async with asyncio.timeout(VISIT_SECONDS):
            connection = await _connect(port, f"Uploader {number}")
            try:
                await connection.create_room("tshirt", deck_files=files)
                answer = await connection.wait_for(p.JOINED, p.ERROR, timeout=VISIT_SECONDS)
                if answer["t"] == p.ERROR:
                    return f"refused:{answer.get('code')}"
                await connection.leave_room()
                return "accepted"
            finally:
                await connection.close()
    except (ConnectionFailed, ConnectionLost, TimeoutError, OSError):
        return "lost"


async def replay(port: int, rng: random.Random, number: int) -> str:
    """Ask for a page of a kept game's replay (sometimes of a made-up game);
    ``served``, ``refused:CODE`` or ``lost``."""
    try:
        async with asyncio.timeout(VISIT_SECONDS):
            connection = await _connect(port, f"Watcher {number}")
            try:
                await connection.list_past_games()
                listing = await connection.wait_for(p.PAST_GAMES, p.ERROR, timeout=VISIT_SECONDS)
                games: list[dict[str, Any]] = listing.get("games") or []
                if games and rng.random() < 0.85:
                    game_id = int(rng.choice(games)["id"])
                else:
                    game_id = rng.randint(10**6, 10**7)
                await connection.get_replay(
                    game_id, rng.choice([0, 0, 5, 50, 10**6]), rng.choice([1, 40, 200])
                )
                answer = await connection.wait_for(p.REPLAY, p.ERROR, timeout=VISIT_SECONDS)
                return "served" if answer["t"] == p.REPLAY else f"refused:{answer.get('code')}"
            finally:
                await connection.close()
    except (ConnectionFailed, ConnectionLost, TimeoutError, OSError):
        return "lost"


async def reclaim(port: int, code: str, name: str) -> str:
    """Join room ``code`` as ``name`` (a player whose link was just cut); ``given`` if the
    table said yes, ``refused:CODE`` (no, no answer in time, or the player came back
    first) or ``lost``. A visitor given the seat walks away at once: the player's own
    token takes it back."""
    try:
        async with asyncio.timeout(VISIT_SECONDS):
            connection = await _connect(port, name)
            try:
                await connection.join_room(code)
                answer = await connection.wait_for(p.JOINED, p.ERROR, timeout=VISIT_SECONDS)
                return "given" if answer["t"] == p.JOINED else f"refused:{answer.get('code')}"
            finally:
                connection.abort()
                await connection.close()
    except (ConnectionFailed, ConnectionLost, TimeoutError, OSError):
        return "lost"
