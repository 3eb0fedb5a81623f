"""The chaos bench's hostile clients: what a broken or malicious laptop might send.

Each attack is one short-lived TCP connection with a hard time limit. They
return how many frames (or raw byte blobs posing as frames) they sent. None of
them may crash the host, stall a room or change a game: the referee's replay
check and the host's liveness check catch either.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import struct
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import msgpack
from partyhost.net import protocol as p

HEADER = struct.Struct(">I")
ATTACK_SECONDS = 3.0
"""No attack connection lives longer than this."""


def frame(value: Any) -> bytes:
    body = msgpack.packb(value, use_bin_type=True)
    return HEADER.pack(len(body)) + body


def hello(name: str = "mallory", **extra: Any) -> bytes:
    return frame({"t": p.HELLO, "protocol": p.PROTOCOL_VERSION, "name": name, **extra})


def junk_value(rng: random.Random, depth: int = 0) -> Any:
    """A random msgpack-able value: wrong types, huge numbers, odd strings, nesting."""
    choices: list[Callable[[], Any]] = [
        lambda: rng.randint(-(2**63), 2**64 - 1),
        lambda: rng.random() * 10 ** rng.randint(-5, 300),
        lambda: "".join(chr(rng.randint(0, 0x2FFF)) for _ in range(rng.randint(0, 40))),
        lambda: bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 40))),
        lambda: None,
        lambda: rng.random() < 0.5,
        lambda: "\x1b[31m\x1b]0;pwned\x07[bold red]x[/]",
    ]
    if depth < 4:
        choices.append(lambda: [junk_value(rng, depth + 1) for _ in range(rng.randint(0, 5))])
        choices.append(
            lambda: {
                rng.choice(["t", "cmd", "type", "card", "seat", "code", "x"]): junk_value(
                    rng, depth + 1
                )
                for _ in range(rng.randint(0, 5))
            }
        )
    return rng.choice(choices)()


def junk_message(rng: random.Random, codes: Sequence[str]) -> dict[str, Any]:
    """A map that looks like a client message but is wrong somewhere."""
    kind = rng.choice([*p.CLIENT_MESSAGES, "nonsense", ""])
    message: dict[str, Any] = {"t": kind}
    for _ in range(rng.randint(0, 4)):
        message[rng.choice(["cmd", "code", "text", "ready", "seat", "options", "ref", "zz"])] = (
            junk_value(rng)
        )
    if kind == p.PLAY and rng.random() < 0.5:
        message["cmd"] = {
            "type": rng.choice(["play", "claim", "bet", "pick", "x"]),
            **{rng.choice(["card", "cards", "seat", "at", "slot", "amount"]): junk_value(rng)},
        }
    if kind == p.JOIN_ROOM and codes and rng.random() < 0.7:
        message["code"] = rng.choice(codes)
    return message


async def _session(port: int, payloads: Sequence[bytes], pause: float = 0.0) -> int:
    """Send ``payloads`` on one connection (reading and discarding replies); frames sent."""
    sent = 0
    async with asyncio.timeout(ATTACK_SECONDS):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        drain = asyncio.create_task(_discard(reader))
        try:
            for payload in payloads:
                if writer.is_closing() or reader.at_eof():
                    break  # the host hung up on us, as it should
                writer.write(payload)
                sent += 1
                if pause:
                    await asyncio.sleep(pause)
            with contextlib.suppress(ConnectionError):
                await writer.drain()
            await asyncio.sleep(0.2)
        finally:
            drain.cancel()
            writer.transport.abort()
    return sent


async def _discard(reader: asyncio.StreamReader) -> None:
    with contextlib.suppress(ConnectionError):
        while await reader.read(65536):
            pass


async def garbage_bytes(port: int, rng: random.Random, codes: Sequence[str]) -> int:
    blobs = [bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 300))) for _ in range(5)]
    return await _session(port, blobs)


async def oversized_frame(port: int, rng: random.Random, codes: Sequence[str]) -> int:
    return await _session(port, [HEADER.pack(rng.choice([2**32 - 1, 10**7, 70_000])) + b"x" * 64])


async def bad_hellos(port: int, rng: random.Random, codes: Sequence[str]) -> int:
    first = rng.choice(
        [
            frame({"t": p.HELLO, "protocol": "one", "name": "x"}),
            frame({"t": p.HELLO, "protocol": 999, "name": "x"}),
            frame({"t": p.PLAY, "cmd": {}}),
            frame([1, 2, 3]),
            hello(token="forged-token-" + str(rng.getrandbits(64))),
            hello(name="\x1b[2J\x1b[H" + "A" * 500),
        ]
    )
    return await _session(port, [first, frame(junk_message(rng, codes))])


async def greeted_junk(port: int, rng: random.Random, codes: Sequence[str]) -> int:
    """A proper hello, then a burst of malformed, unknown and out-of-place messages."""
    payloads = [hello()] + [frame(junk_message(rng, codes)) for _ in range(rng.randint(5, 60))]
    return await _session(port, payloads)


async def meddling_spectator(port: int, rng: random.Random, codes: Sequence[str]) -> int:
    """Spectates a live game and tries to play, start, kick and spam chat in it."""
    if not codes:
        return 0
    code = rng.choice(codes)
    payloads = [hello(), frame({"t": p.JOIN_ROOM, "code": code, "spectate": True})]
    for _ in range(rng.randint(5, 40)):
        payloads.append(
            frame(
                rng.choice(
                    [
                        {"t": p.PLAY, "cmd": junk_value(rng)},
                        {"t": p.START_GAME},
                        {"t": p.KICK, "seat": rng.randint(0, 5)},
                        {"t": p.CHAT, "text": "spam " * rng.randint(1, 200)},
                        {"t": p.JOIN_ROOM, "code": code},
                    ]
                )
            )
        )
    return await _session(port, payloads, pause=0.01)


async def slow_half_frame(port: int, rng: random.Random, codes: Sequence[str]) -> int:
    """Half a header, then silence: the host must not wait on it with anything else."""
    return await _session(port, [HEADER.pack(100)[:2]], pause=1.0)


Attack = Callable[[int, random.Random, Sequence[str]], Awaitable[int]]
ATTACKS: dict[str, Attack] = {
    "garbage bytes": garbage_bytes,
    "oversized frame": oversized_frame,
    "bad hello": bad_hellos,
    "greeted junk": greeted_junk,
    "meddling spectator": meddling_spectator,
    "half a frame": slow_half_frame,
}


async def attack(port: int, rng: random.Random, codes: Sequence[str]) -> tuple[str, int]:
    """One random attack; (its name, frames sent). Connection errors count as sent-nothing."""
    name = rng.choice(sorted(ATTACKS))
    try:
        return name, await ATTACKS[name](port, rng, codes)
    except (OSError, TimeoutError):
        return name, 0
