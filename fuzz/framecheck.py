"""What the host promises about the bytes a client sends, checked on any input.

A client's byte stream goes through the same pure steps the host runs in
``Connection.data_received``: :class:`FrameDecoder` (length check), then
:func:`decode_body`, then :func:`validate_client_message`. Whatever the
bytes, each frame must end as an accepted message or as a
:class:`ProtocolError` whose code is in ``ERROR_CODES``; anything else escapes
as an exception (a crash for the fuzzer, a failure for the corpus test).

Accepted messages also get the pure next steps the host applies to them
(name and chat cleaning, rule options), so a value that passes validation but
breaks what comes after is caught here too.
"""

from __future__ import annotations

import itertools
import unicodedata
from typing import Any

import msgpack
from partyhost.engine.core import IllegalMove
from partyhost.engine.playertext import clean_text
from partyhost.engine.registry import all_games
from partyhost.net import protocol as p
from partyhost.net.names import clean_name, name_key, unique_name
from partyhost.net.protocol import ProtocolError

FATAL = "fatal:"
"""Outcome prefix of a stream the decoder gave up on (the host disconnects)."""
ACCEPTED = "ok:"
"""Outcome prefix of an accepted message, followed by its type."""
PARTIAL = "partial"
"""Outcome of bytes left over at the end: an incomplete frame the host still waits for."""
MAX_ERROR_TEXT = 400
"""An error sentence may quote the client, but only so much of it."""
BYTEWISE_UP_TO = 512
"""Streams up to this long are also read one byte at a time (longer ones: too slow to fuzz)."""
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def check_frame(data: bytes) -> list[str]:
    """Run a client byte stream through the host's frame path; return each frame's outcome.

    The reference reading hands the decoder one whole frame per read; it must
    agree with byte-at-a-time reads (short streams), one read, and uneven
    reads: how TCP splits the bytes must not change what the host makes of them.
    """
    ideal = _outcomes(_frame_reads(data))
    if len(data) <= BYTEWISE_UP_TO:
        assert _outcomes([data[i : i + 1] for i in range(len(data))]) == ideal
    step = 1 + (data[-1] % 13 if data else 0)
    for reads in ([data], [data[i : i + step] for i in range(0, len(data), step)]):
        _same_as_ideal(_outcomes(reads), ideal)
    return ideal


def _frame_reads(data: bytes) -> list[bytes]:
    """``data`` cut after each complete frame (an independent reading of the length prefixes)."""
    cuts, at = [0], 0
    while at + p.HEADER.size <= len(data):
        (length,) = p.HEADER.unpack_from(data, at)
        end = at + p.HEADER.size + length
        if length > p.MAX_CLIENT_FRAME or end > len(data):
            break
        cuts.append(end)
        at = end
    cuts.append(len(data))
    return [data[a:b] for a, b in itertools.pairwise(cuts) if b > a]


def check_body(data: bytes) -> list[str]:
    """``data`` as one frame body, framed with its true length (reaches validation sooner)."""
    return check_frame(p.HEADER.pack(len(data)) + data)


def _same_as_ideal(got: list[str], ideal: list[str]) -> None:
    """Reads in other chunks give exactly the same outcomes.

    Even when one read holds complete frames and then an oversized length,
    those frames are handled before the connection is dropped.
    """
    assert got == ideal, (got, ideal)


def _outcomes(reads: list[bytes]) -> list[str]:
    decoder = p.FrameDecoder(p.MAX_CLIENT_FRAME)
    outcomes: list[str] = []
    for chunk in reads:
        try:
            bodies = decoder.feed(chunk)
        except ProtocolError as broken:
            return [*outcomes, _fatal(broken)]
        assert decoder.pending < p.HEADER.size + p.MAX_CLIENT_FRAME, decoder.pending
        for body in bodies:
            assert len(body) <= p.MAX_CLIENT_FRAME
            outcomes.append(body_outcome(body))
        if decoder.error is not None:  # met after the frames just handled
            return [*outcomes, _fatal(decoder.error)]
    if decoder.pending:
        outcomes.append(PARTIAL)
    return outcomes


def _fatal(broken: ProtocolError) -> str:
    """The outcome that ends a stream: only an oversized length may."""
    assert broken.fatal and broken.code == "frame_too_large", broken.code
    _check_refusal(broken)
    return FATAL + broken.code


def body_outcome(body: bytes) -> str:
    """One frame body: ``ok:<type>`` or the error code the host would answer with."""
    try:
        message = p.validate_client_message(p.decode_body(body))
    except ProtocolError as refused:
        _check_refusal(refused)
        assert not refused.fatal, refused.code
        return refused.code
    _check_accepted(message)
    return ACCEPTED + str(message["t"])


def _check_refusal(refused: ProtocolError) -> None:
    """The refusal has a documented code and becomes a small, well-formed error frame."""
    assert refused.code in p.ERROR_CODES, refused.code
    assert isinstance(refused.message, str) and refused.message
    assert len(refused.message) <= MAX_ERROR_TEXT, len(refused.message)
    frame = p.encode(p.error(refused.code, refused.message))
    echoed = p.decode_body(frame[p.HEADER.size :], strict_keys=False)
    assert echoed["code"] == refused.code


def depth(value: Any) -> int:
    """How many lists/maps nest in ``value`` (iterative: no recursion limit to hit)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            stack.extend((child, level + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, level + 1) for child in item)
        else:
            continue
        deepest = max(deepest, level + 1)
    return deepest


def _check_accepted(message: dict[str, Any]) -> None:
    """An accepted message is what the docs promise, and survives the host's next steps."""
    fields = p.CLIENT_MESSAGES[message["t"]]
    assert set(message) <= {"t", *fields}, sorted(map(str, message))
    assert all(name in message for name, field in fields.items() if field.required)
    assert depth(message) <= p.MAX_DEPTH + 1, depth(message)
    # The host journals and replays accepted commands: they must pack and come back the same.
    packed = msgpack.packb(message, use_bin_type=True)
    again = p.validate_client_message(p.decode_body(packed))
    assert msgpack.packb(again, use_bin_type=True) == packed
    kind = message["t"]
    if kind == p.HELLO:
        _check_name(message["name"])
    elif kind == p.CHAT:
        _check_clean(clean_text(message["text"], p.MAX_CHAT_LENGTH), p.MAX_CHAT_LENGTH)
    elif kind in (p.CREATE_ROOM, p.SET_OPTIONS) and message.get("options"):
        _check_options(message["options"])


def _check_clean(text: str, limit: int) -> None:
    """Cleaned player text: capped, trimmed, and nothing that can steer a terminal."""
    assert len(text) <= limit, len(text)
    assert text == text.strip()
    for char in text:
        assert unicodedata.category(char) not in ("Cc", "Cs"), hex(ord(char))
        assert char not in _BIDI, hex(ord(char))


def _check_name(raw: str) -> None:
    name = clean_name(raw, p.MAX_NAME_LENGTH)
    _check_clean(name, p.MAX_NAME_LENGTH)
    assert name, "a cleaned name is never empty"
    twin = unique_name(name, [name], p.MAX_NAME_LENGTH)
    assert name_key(twin) != name_key(name), (name, twin)
    assert len(twin) <= max(p.MAX_NAME_LENGTH, len(name)), twin


def _check_options(options: dict[str, Any]) -> None:
    """Every game either takes the options or refuses them with ``bad_option``."""
    for game in all_games():
        try:
            rules = game.rules_for(options)
        except IllegalMove as refused:
            assert refused.code == "bad_option", refused.code
            continue
        assert set(rules) == {option.name for option in game.options}
