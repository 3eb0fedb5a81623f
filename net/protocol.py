"""The partyhost wire protocol: frames, message types and their validation.

Every message is one frame: a 4-byte big-endian length, then one msgpack map
with a text key ``"t"`` naming its type. This module is the single list of
message types; ``docs/protocol.md`` explains each with an example session.

Client frames are capped at :data:`MAX_CLIENT_FRAME` bytes and checked against
:data:`CLIENT_MESSAGES` before the host acts on them, so a hostile or buggy
client gets an ``error`` frame (or, for broken framing, a disconnect) and
nothing else happens.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final

import msgpack

PROTOCOL_VERSION: Final = 1
MAX_CLIENT_FRAME: Final = 64 * 1024
MAX_HOST_FRAME: Final = 4 * 1024 * 1024
HEADER: Final = struct.Struct(">I")

MAX_NAME_LENGTH: Final = 24
MAX_CHAT_LENGTH: Final = 300
MAX_PASSWORD_LENGTH: Final = 64
ROOM_CODE_LENGTH: Final = 4
MAX_DEPTH: Final = 8
"""Deepest nesting of lists/maps accepted inside a client message."""


class ProtocolError(Exception):
    """A frame or message that breaks the protocol. ``fatal`` ones end the connection."""

    def __init__(self, code: str, message: str, *, fatal: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fatal = fatal


# --- message types ---------------------------------------------------------

# Client -> host
HELLO: Final = "hello"
PING: Final = "ping"
PONG: Final = "pong"
LIST_ROOMS: Final = "list_rooms"
CREATE_ROOM: Final = "create_room"
JOIN_ROOM: Final = "join_room"
LEAVE_ROOM: Final = "leave_room"
SET_READY: Final = "set_ready"
SET_OPTIONS: Final = "set_options"
START_GAME: Final = "start_game"
KICK: Final = "kick"
ADD_BOT: Final = "add_bot"
REMOVE_BOT: Final = "remove_bot"
CHAT: Final = "chat"
PLAY: Final = "play"

# Host -> client
WELCOME: Final = "welcome"
ERROR: Final = "error"
ROOMS: Final = "rooms"
JOINED: Final = "joined"
ROOM: Final = "room"
VIEW: Final = "view"
CHAT_LINE: Final = "chat_line"
NOTICE: Final = "notice"
LEFT: Final = "left"
BYE: Final = "bye"

# --- field checks ----------------------------------------------------------

Check = Callable[[Any], bool]


def _is_text(limit: int) -> Check:
    return lambda value: isinstance(value, str) and len(value) <= limit


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -(2**53) <= value <= 2**53


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _is_map(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(key, str) for key in value)


def _optional(check: Check) -> Check:
    return lambda value: value is None or check(value)


@dataclass(frozen=True)
class Field:
    check: Check
    expected: str
    required: bool = True


def _f(check: Check, expected: str, required: bool = True) -> Field:
    return Field(check, expected, required)


_TEXT_SHORT = _is_text(64)

CLIENT_MESSAGES: Final[dict[str, dict[str, Field]]] = {
    HELLO: {
        "protocol": _f(_is_int, "an integer protocol version"),
        "name": _f(_is_text(200), "your name as text"),
        "client": _f(_is_text(64), "a client description", required=False),
        "token": _f(_optional(_is_text(128)), "a seat token", required=False),
    },
    PING: {"n": _f(_is_int, "an integer", required=False)},
    PONG: {"n": _f(_is_int, "an integer", required=False)},
    LIST_ROOMS: {},
    CREATE_ROOM: {
        "game": _f(_TEXT_SHORT, "a game id"),
        "deck": _f(_optional(_TEXT_SHORT), "a deck name", required=False),
        "options": _f(_optional(_is_map), "a map of rule options", required=False),
        "password": _f(_optional(_is_text(MAX_PASSWORD_LENGTH)), "a password", required=False),
    },
    JOIN_ROOM: {
        "code": _f(_is_text(16), "a room code"),
        "password": _f(_optional(_is_text(MAX_PASSWORD_LENGTH)), "a password", required=False),
        "spectate": _f(_optional(_is_bool), "true or false", required=False),
    },
    LEAVE_ROOM: {},
    SET_READY: {"ready": _f(_is_bool, "true or false")},
    SET_OPTIONS: {"options": _f(_is_map, "a map of rule options")},
    START_GAME: {},
    KICK: {"seat": _f(_is_int, "a seat number")},
    ADD_BOT: {"level": _f(_optional(_TEXT_SHORT), "a bot level", required=False)},
    REMOVE_BOT: {"seat": _f(_is_int, "a seat number")},
    CHAT: {"text": _f(_is_text(MAX_CHAT_LENGTH * 4), "chat text")},
    PLAY: {
        "cmd": _f(_is_map, "a game command (a map with a 'type')"),
        "ref": _f(_optional(_is_int), "an integer reference", required=False),
    },
}
"""Every message a client may send, with the fields each must or may carry."""

HOST_MESSAGES: Final = (
    WELCOME,
    ERROR,
    ROOMS,
    JOINED,
    ROOM,
    VIEW,
    CHAT_LINE,
    NOTICE,
    LEFT,
    BYE,
    PING,
    PONG,
)
"""Every message the host sends (see docs/protocol.md for their fields)."""


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of ``value``, stopping early once past ``limit``."""
    if isinstance(value, dict):
        items: Iterator[Any] = iter(value.values())
    elif isinstance(value, list):
        items = iter(value)
    else:
        return 0
    deepest = 0
    for item in items:
        deepest = max(deepest, _depth(item, limit))
        if deepest > limit:
            break
    return deepest + 1


def validate_client_message(message: Any) -> dict[str, Any]:
    """Check a decoded client message; return it or raise :class:`ProtocolError`."""
    if not isinstance(message, dict):
        raise ProtocolError("bad_message", "A message must be a map with a 't' type.")
    kind = message.get("t")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "A message needs a text 't' naming its type.")
    fields = CLIENT_MESSAGES.get(kind)
    if fields is None:
        raise ProtocolError("unknown_type", f"Unknown message type {kind[:32]!r}.")
    if _depth(message, MAX_DEPTH) > MAX_DEPTH:
        raise ProtocolError("too_deep", f"Message nested deeper than {MAX_DEPTH} levels.")
    for name, field in fields.items():
        if name not in message:
            if field.required:
                raise ProtocolError("bad_message", f"'{kind}' needs field {name!r}.")
            continue
        if not field.check(message[name]):
            raise ProtocolError(
                "bad_message", f"Field {name!r} of '{kind}' must be {field.expected}."
            )
    unknown = [key for key in message if key != "t" and key not in fields]
    if unknown:
        raise ProtocolError(
            "bad_message", f"'{kind}' has unknown field(s): {', '.join(map(str, unknown))[:80]}."
        )
    return message


# --- framing ---------------------------------------------------------------


def encode(message: dict[str, Any]) -> bytes:
    """One frame: length prefix plus the msgpack map."""
    body = msgpack.packb(message, use_bin_type=True)
    return HEADER.pack(len(body)) + body


def decode_body(body: bytes) -> Any:
    """Decode one frame's body; only plain msgpack types are accepted."""
    try:
        return msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            ext_hook=_refuse_ext,
            max_buffer_size=len(body),
        )
    except ProtocolError:
        raise
    except Exception as exc:  # msgpack raises several unrelated exception types
        raise ProtocolError(
            "bad_frame", f"Frame is not valid msgpack ({type(exc).__name__})."
        ) from None


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ProtocolError("bad_frame", "msgpack extension types are not accepted.")


class FrameDecoder:
    """Splits a byte stream into frame bodies, refusing oversized lengths early."""

    def __init__(self, max_frame: int) -> None:
        self.max_frame = max_frame
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        """Add received bytes; return every complete frame body now available."""
        self._buffer += data
        bodies: list[bytes] = []
        while len(self._buffer) >= HEADER.size:
            (length,) = HEADER.unpack_from(self._buffer)
            if length > self.max_frame:
                raise ProtocolError(
                    "frame_too_large",
                    f"Frame of {length} bytes is over the {self.max_frame}-byte limit.",
                    fatal=True,
                )
            end = HEADER.size + length
            if len(self._buffer) < end:
                break
            bodies.append(bytes(self._buffer[HEADER.size : end]))
            del self._buffer[:end]
        return bodies

    @property
    def pending(self) -> int:
        return len(self._buffer)


def error(code: str, message: str, ref: int | None = None) -> dict[str, Any]:
    """An ``error`` frame's map."""
    frame: dict[str, Any] = {"t": ERROR, "code": code, "message": message}
    if ref is not None:
        frame["ref"] = ref
    return frame
