"""A msgpack-aware mutator, so the fuzzers spend their time past the decoder.

Byte flips mostly break msgpack framing (a map's count, a string's length),
and then only the decoder is tested. Here an input's msgpack is decoded,
one place in it is changed (a value swapped for a nasty one, a key added or
dropped, a value wrapped in a list) and it is packed again. Some mutations
are left to libFuzzer's own byte mutator so broken msgpack keeps coming too.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgpack
from partyhost.net import protocol as p

ByteMutator = Callable[[bytes, int], bytes]

NASTY: tuple[Any, ...] = (
    0,
    1,
    -1,
    2,
    7,
    60,
    61,
    True,
    False,
    None,
    0.5,
    1.0,
    float("nan"),
    float("inf"),
    -0.0,
    2**31,
    2**53,
    2**53 + 1,
    2**63 - 1,
    -(2**63),
    2**64 - 1,
    "",
    " ",
    "1",
    "x" * 301,
    "\x1b[2J\x07",
    "\u202e\u0000",
    "\ud7ff\U0010ffff",
    b"bin",
    [],
    {},
    [0],
    [[0, 0]],
    {"seat": 0, "amount": 1},
    [{"seat": 1, "amount": 99}],
)
"""Values every check should survive: edges of ints, bools as ints, NaN, text, containers."""


def words(extra: set[str]) -> tuple[str, ...]:
    """Protocol names and field names, plus ``extra`` (command words from the games)."""
    found = {"t", "type", "seat", "v", *p.CLIENT_MESSAGES, *extra}
    for fields in p.CLIENT_MESSAGES.values():
        found.update(fields)
    return tuple(sorted(found))


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every place in ``value`` (bounded, so a huge input stays cheap)."""
    out = [path]
    stack = [(value, path)]
    while stack and len(out) < 200:
        item, at = stack.pop()
        children = (
            item.items()
            if isinstance(item, dict)
            else enumerate(item)
            if isinstance(item, list)
            else ()
        )
        for key, child in children:
            out.append((*at, key))
            stack.append((child, (*at, key)))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    parent = _get(value, path[:-1])
    parent[path[-1]] = new
    return value


def mutate_value(value: Any, rng: random.Random, vocabulary: tuple[str, ...]) -> Any:
    """``value`` with one place changed."""
    path = rng.choice(_nodes(value))
    here = _get(value, path)
    roll = rng.randrange(7)
    if roll == 0 and isinstance(here, dict):
        here[rng.choice(vocabulary)] = rng.choice((*NASTY, *vocabulary))
        return value
    if roll == 1 and isinstance(here, dict) and here:
        del here[rng.choice(list(here))]
        return value
    if roll == 2 and isinstance(here, list):
        here.append(rng.choice(NASTY))
        return value
    if roll == 3:
        return _replace(value, path, [here])
    if roll == 4:
        return _replace(value, path, rng.choice(vocabulary))
    if roll == 5 and isinstance(here, int) and not isinstance(here, bool):
        return _replace(value, path, here + rng.choice((-1, 1, 2**32, -(2**32))))
    return _replace(value, path, rng.choice(NASTY))


def _pack(value: Any) -> bytes | None:
    try:
        packed: bytes = msgpack.packb(value, use_bin_type=True)
    except (OverflowError, ValueError, TypeError):
        return None
    return packed


def _decode(body: bytes) -> Any:
    """Lenient decode (int keys, ext kept) or ``None``; an unhashable key is skipped too."""
    try:
        return msgpack.unpackb(body, raw=False, strict_map_key=False, use_list=True)
    except Exception:
        return None


def mutate_msgpack(
    body: bytes,
    max_size: int,
    rng: random.Random,
    vocabulary: tuple[str, ...],
    fallback: ByteMutator,
) -> bytes:
    """One structural change to msgpack ``body``, or a byte-level one now and then."""
    value = _decode(body) if rng.randrange(5) else None
    if value is None:
        return fallback(body, max_size)
    packed = _pack(mutate_value(value, rng, vocabulary))
    if packed is None or len(packed) > max_size:
        return fallback(body, max_size)
    return packed


def mutate_frames(
    data: bytes,
    max_size: int,
    rng: random.Random,
    vocabulary: tuple[str, ...],
    fallback: ByteMutator,
) -> bytes:
    """Change one frame's body in a stream and fix its length; or add, drop or copy a frame."""
    frames: list[bytes] = []
    at = 0
    while at + p.HEADER.size <= len(data):
        (length,) = p.HEADER.unpack_from(data, at)
        body = data[at + p.HEADER.size : at + p.HEADER.size + length]
        if len(body) < length:
            break
        frames.append(body)
        at += p.HEADER.size + length
    tail = data[at:]
    if not frames or rng.randrange(6) == 0:
        return fallback(data, max_size)
    index = rng.randrange(len(frames))
    roll = rng.randrange(4)
    if roll == 0:
        frames.insert(index, frames[index])
    elif roll == 1 and len(frames) > 1:
        del frames[index]
    else:
        frames[index] = mutate_msgpack(frames[index], max_size, rng, vocabulary, fallback)
    joined = b"".join(p.HEADER.pack(len(body)) + body for body in frames) + tail
    return joined if len(joined) <= max_size else fallback(data, max_size)


def mutate_command(
    data: bytes,
    max_size: int,
    rng: random.Random,
    vocabulary: tuple[str, ...],
    fallback: ByteMutator,
) -> bytes:
    """Change the state, seat or base byte, or the msgpack overlay after them."""
    head, body = bytearray(data[:3].ljust(3, b"\0")), data[3:]
    if rng.randrange(4) == 0:
        head[rng.randrange(3)] = rng.randrange(256)
        return bytes(head) + body
    if not body:
        body = msgpack.packb({})
    return bytes(head) + mutate_msgpack(body, max_size - 3, rng, vocabulary, fallback)
