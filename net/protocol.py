"""The partyhost wire protocol: frames, message types and their validation.

Every message is one frame: a 4-byte big-endian length, then one msgpack map
with a text key ``"t"`` naming its type. This module is the single list of
message types and error codes; ``docs/protocol.md`` explains each with an
example session (a test keeps the two in step).

Client frames are capped at :data:`MAX_CLIENT_FRAME` bytes and checked against
:data:`CLIENT_MESSAGES` before the host acts on them, so a hostile or buggy
client gets an ``error`` frame (or, for broken framing, a disconnect) and
nothing else happens.
"""

from __future__ import annotations

import operator
import struct
from collections.abc import Callable, Mapping, Sequence
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
ROOM_CODE_LETTERS: Final = "ACDEFHJKMNPRTWXY"
"""Letters a room code is made of: none that reads like a digit or another letter."""
MAX_ROOM_DECKS: Final = 8
"""Decks one room may play together (host decks and uploaded files)."""
MAX_DECK_FILES: Final = 4
"""Deck files one ``create_room`` may carry (all of them within the frame cap)."""
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
LIST_DECKS: Final = "list_decks"
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
DECKS: Final = "decks"
JOINED: Final = "joined"
ROOM: Final = "room"
VIEW: Final = "view"
CHAT_LINE: Final = "chat_line"
NOTICE: Final = "notice"
LEFT: Final = "left"
BYE: Final = "bye"

# Room statuses (the ``status`` of ``room`` and ``rooms`` entries)
LOBBY: Final = "lobby"
PLAYING: Final = "playing"
OVER: Final = "over"

# --- error codes -----------------------------------------------------------

ERROR_CODES: Final[dict[str, str]] = {
    # framing and messages (connection-level)
    "bad_frame": "The frame body is not valid msgpack, or uses ext types (but see bad_message).",
    "frame_too_large": "The announced length is over the limit; the host disconnects.",
    "bad_message": (
        "Not a map with a text 't', a missing or wrong-typed field, or an extra one"
        " (a msgpack timestamp, which decodes without the ext hook, is refused here)."
    ),
    "unknown_type": "The 't' names no client message type.",
    "too_deep": "Lists/maps nested deeper than the limit.",
    "hello_required": "The first message was not 'hello'; the host disconnects.",
    "protocol_mismatch": "Client and host protocol versions differ; the host disconnects.",
    "already_greeted": "A second 'hello' on one connection.",
    "rate_limited": (
        "Too many messages (or chat lines, or deck files) too fast; this one was dropped."
    ),
    "host_full": (
        "The host has too many connections, in all or from the client's address; it disconnects."
    ),
    "journal_unavailable": (
        "The host cannot save games (a full disk?); it refuses requests until it can again."
    ),
    "token_unknown": "The seat token in 'hello' matches no seat (room closed, kicked, left).",
    "internal": "The host failed to handle the request; nothing changed.",
    # lobby
    "unknown_game": "No game with that id on this host.",
    "unknown_deck": "No deck with that name for that game on this host.",
    "bad_deck": (
        "A deck cannot be used (a broken file of the host, an uploaded file with problems,"
        " or decks that cannot be played together); 'problems' lists each at its line."
    ),
    "bad_option": "A rule option is unknown or has a bad value.",
    "too_many_rooms": "The host has as many rooms as it allows, in all or from this address.",
    "no_such_room": "No open room has that code.",
    "wrong_password": "The room's password does not match.",
    "room_full": "Every seat is taken.",
    "game_in_progress": "The game has started and takes no new players; spectate instead.",
    "too_many_spectators": "The room has as many spectators as it allows.",
    "already_in_room": "Leave your current room first.",
    "not_in_room": "That request needs you to be in a room.",
    # room
    "not_owner": "Only the room's owner may do that.",
    "not_a_player": "Spectators cannot do that.",
    "not_in_lobby": "Only before the game starts (or after it ends).",
    "player_count": "The game needs a different number of players.",
    "bad_seat": "No such seat, or not one this request can apply to.",
    "not_a_bot": "That seat is not a bot.",
    "bad_level": "A bot level other than easy, normal or hard.",
    "cannot_start": "The game could not be set up (its message says why).",
    "empty_chat": "A chat line with nothing left after cleaning.",
    "not_playing": "No game is running in this room.",
    "no_change": "The command would leave the table exactly as it is; nothing was done.",
    "game_too_long": "The game reached the host's ceiling of moves or journal bytes and stopped.",
}
"""Every error code the host itself sends. Game rules add their own
``IllegalMove`` codes (for example ``stale``, ``bad_command``, ``not_your_turn``)
in replies to ``play``."""

FATAL_ERRORS: Final = frozenset(
    {"frame_too_large", "hello_required", "protocol_mismatch", "host_full"}
)
"""Error codes after which the host closes the connection."""

# --- field checks ----------------------------------------------------------

Check = Callable[[Any], bool]


def _is_text(limit: int) -> Check:
    return lambda value: isinstance(value, str) and len(value) <= limit


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -(2**53) <= value <= 2**53


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _is_plain(value: Any) -> bool:
    """Plain data only: text-keyed maps, lists, text, numbers, booleans, nil (no bin)."""
    if value is None or isinstance(value, bool | int | float | str):
        return True
    if isinstance(value, list):
        return all(_is_plain(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and _is_plain(item) for key, item in value.items())
    return False


def _is_text_list(items: int, limit: int) -> Check:
    return lambda value: (
        isinstance(value, list) and len(value) <= items and all(map(_is_text(limit), value))
    )


def _is_deck_files(value: Any) -> bool:
    """A short list of ``{name, text}`` maps: deck files sent with ``create_room``."""
    return (
        isinstance(value, list)
        and len(value) <= MAX_DECK_FILES
        and all(
            isinstance(item, dict)
            and set(item) == {"name", "text"}
            and _is_text(255)(item["name"])
            and isinstance(item["text"], str)
            for item in value
        )
    )


def _is_map(value: Any) -> bool:
    return isinstance(value, dict) and _is_plain(value)


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
        "name": _f(_is_text(200), "your name as text of at most 200 characters"),
        "client": _f(_is_text(64), "a client description", required=False),
        "token": _f(_optional(_is_text(128)), "a seat token", required=False),
    },
    PING: {"n": _f(_is_int, "an integer", required=False)},
    PONG: {"n": _f(_is_int, "an integer", required=False)},
    LIST_ROOMS: {},
    LIST_DECKS: {},
    CREATE_ROOM: {
        "game": _f(_TEXT_SHORT, "a game id"),
        "deck": _f(_optional(_TEXT_SHORT), "a deck name", required=False),
        "decks": _f(
            _optional(_is_text_list(MAX_ROOM_DECKS, 64)),
            f"a list of at most {MAX_ROOM_DECKS} deck names",
            required=False,
        ),
        "deck_files": _f(
            _optional(_is_deck_files),
            f"a list of at most {MAX_DECK_FILES} maps {{name, text}}",
            required=False,
        ),
        "options": _f(_optional(_is_map), "a map of rule options", required=False),
        "password": _f(_optional(_is_text(MAX_PASSWORD_LENGTH)), "a password", required=False),
        "bot_takeover": _f(_optional(_is_bool), "true or false", required=False),
    },
    JOIN_ROOM: {
        "code": _f(_is_text(16), "a room code"),
        "password": _f(_optional(_is_text(MAX_PASSWORD_LENGTH)), "a password", required=False),
        "spectate": _f(_optional(_is_bool), "true or false", required=False),
    },
    LEAVE_ROOM: {},
    SET_READY: {"ready": _f(_is_bool, "true or false")},
    SET_OPTIONS: {
        "options": _f(_is_map, "a map of rule options"),
        "bot_takeover": _f(_optional(_is_bool), "true or false", required=False),
    },
    START_GAME: {},
    KICK: {"seat": _f(_is_int, "a seat number")},
    ADD_BOT: {"level": _f(_optional(_TEXT_SHORT), "a bot level", required=False)},
    REMOVE_BOT: {"seat": _f(_is_int, "a seat number")},
    CHAT: {
        "text": _f(
            _is_text(MAX_CHAT_LENGTH * 4), f"chat text of at most {MAX_CHAT_LENGTH * 4} characters"
        )
    },
    PLAY: {
        "cmd": _f(_is_map, "a game command (a map with a 'type')"),
        "ref": _f(_optional(_is_int), "an integer reference", required=False),
    },
}
"""Every message a client may send, with the fields each must or may carry."""

HOST_MESSAGES: Final[dict[str, tuple[str, ...]]] = {
    WELCOME: ("protocol", "host", "resumed", "games", "limits"),
    ERROR: ("code", "message", "ref", "host_protocol", "client_protocol", "problems"),
    ROOMS: ("rooms",),
    DECKS: ("decks",),
    JOINED: ("code", "seat", "token"),
    ROOM: (
        "code",
        "game",
        "game_name",
        "deck",
        "decks",
        "options",
        "rules",
        "bot_takeover",
        "has_password",
        "owner",
        "you",
        "status",
        "seats",
        "spectators",
        "min_players",
        "max_players",
    ),
    VIEW: ("version", "view", "events", "now"),
    CHAT_LINE: ("seat", "name", "text", "at"),
    NOTICE: ("text",),
    LEFT: ("code", "reason"),
    BYE: ("reason",),
    PING: ("n",),
    PONG: ("n",),
}
"""Every message the host sends, with the fields it may carry (see docs/protocol.md)."""


def _too_deep(value: Any, levels_left: int) -> bool:
    """Whether ``value`` nests more containers than ``levels_left`` (no deep recursion)."""
    if isinstance(value, dict):
        children: Any = value.values()
    elif isinstance(value, list):
        children = value
    else:
        return False
    if levels_left <= 0:
        return True
    return any(_too_deep(child, levels_left - 1) for child in children)


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
    if _too_deep(message, MAX_DEPTH):
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
        listed = ", ".join(repr(key) for key in unknown)[:80]
        raise ProtocolError("bad_message", f"'{kind}' has unknown field(s): {listed}.")
    return message


# --- framing ---------------------------------------------------------------


def encode(message: dict[str, Any]) -> bytes:
    """One frame: length prefix plus the msgpack map."""
    body = msgpack.packb(message, use_bin_type=True)
    return HEADER.pack(len(body)) + body


def _map_header(size: int) -> bytes:
    if size < 16:
        return bytes((0x80 | size,))
    if size < 0x10000:
        return b"\xde" + size.to_bytes(2, "big")
    return b"\xdf" + size.to_bytes(4, "big")


def _array_header(size: int) -> bytes:
    if size < 16:
        return bytes((0x90 | size,))
    if size < 0x10000:
        return b"\xdc" + size.to_bytes(2, "big")
    return b"\xdd" + size.to_bytes(4, "big")


class ViewFrames:
    """The ``view`` frames of one change, one per seat, packing what the seats share once.

    After a change every seat gets its own view, but most of a view is the
    same objects in every seat's copy (a game builds its public parts once per
    state). Keys whose values are the very same object in every view are
    packed once; per seat only the other values are packed. Events shown alike
    to several seats are packed once too. Each frame is byte for byte
    ``encode(message)`` of the message it stands for:
    ``{"t": "view", "version": ..., "view": ..., "events": ..., "now": ...}``.
    """

    def __init__(self, version: int, views: Sequence[dict[str, Any]], now: float) -> None:
        self._pack = msgpack.Packer(use_bin_type=True).pack
        self._head = _map_header(5) + self._items(["t", VIEW, "version", version, "view"])
        self._events_key: bytes = self._pack("events")
        self._tail = self._items(["now", now])
        self._events: dict[int, bytes] = {}
        self._views = list(views)
        self._planned: set[int] = set()
        self._map_header = b""
        self._slots: list[tuple[bytes, str]] = []
        """Per key that differs between views: the packed shared items before it, then it."""
        self._rest = b""
        """The packed shared items after the last key that differs."""
        if len(views) > 1:
            self._plan(views)

    def _items(self, items: list[Any]) -> bytes:
        """The packed items back to back: a list's packing without its header."""
        packed: bytes = self._pack(items)
        return packed[len(_array_header(len(items))) :]

    def _plan(self, views: Sequence[dict[str, Any]]) -> None:
        first, others = views[0], views[1:]
        keys = list(first)
        if any(list(view) != keys for view in others):
            return  # views of different shapes: each is packed whole
        values = list(first.values())
        same: Any = [True] * len(values)
        for view in others:
            same = list(map(operator.and_, same, map(operator.is_, values, view.values())))
        if not any(same):
            return
        pending: list[Any] = []
        for key, value, shared in zip(keys, values, same, strict=True):
            pending.append(key)
            if shared:
                pending.append(value)
            else:
                self._slots.append((self._items(pending), key))
                pending = []
        self._rest = self._items(pending)
        self._map_header = _map_header(len(keys))
        self._planned = {id(view) for view in views}

    def _view(self, view: dict[str, Any]) -> list[bytes]:
        if id(view) not in self._planned:
            return [self._pack(view)]
        pack = self._pack
        parts = [self._map_header]
        for before, key in self._slots:
            parts.append(before)
            parts.append(pack(view[key]))
        parts.append(self._rest)
        return parts

    def event(self, index: int, kind: str, data: Mapping[str, Any]) -> bytes:
        """Event ``index`` as every seat without private fields sees it, packed once."""
        packed = self._events.get(index)
        if packed is None:
            packed = self._events[index] = self._pack({"kind": kind, **data})
        return packed

    def pack(self, value: Any) -> bytes:
        """``value`` packed on its own (an event only one seat sees that way)."""
        packed: bytes = self._pack(value)
        return packed

    def frame(self, view: dict[str, Any], events: Sequence[bytes]) -> bytes:
        """One seat's frame: its view (one of those given) and its events, each packed.

        Pack events with :meth:`event` (shown alike to several seats) or :meth:`pack`.
        """
        parts = [b"", self._head, *self._view(view), self._events_key, _array_header(len(events))]
        parts.extend(events)
        parts.append(self._tail)
        parts[0] = HEADER.pack(sum(map(len, parts)))
        return b"".join(parts)


def decode_body(body: bytes, *, strict_keys: bool = True) -> Any:
    """Decode one frame's body; only plain msgpack types are accepted.

    The host decodes client frames with ``strict_keys`` (text or bin keys
    only); clients may relax it so a game that slips an integer key into a
    view does not break the table.
    """
    try:
        return msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=strict_keys,
            ext_hook=_refuse_ext,
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
        self.error: ProtocolError | None = None
        """The fatal framing error met after the frames :meth:`feed` last returned."""

    def feed(self, data: bytes) -> list[bytes]:
        """Add received bytes; return every complete frame body now available.

        An oversized length is fatal (``frame_too_large``, decided before its
        body arrives). If complete frames came before it, they are returned and
        the error waits in :attr:`error`, so a client's last good messages are
        handled however its bytes were split into reads; otherwise it is raised.
        A decoder that met one raises it again on every later call.
        """
        if self.error is not None:
            raise self.error
        self._buffer += data
        bodies: list[bytes] = []
        start = 0
        try:
            while len(self._buffer) - start >= HEADER.size:
                (length,) = HEADER.unpack_from(self._buffer, start)
                if length > self.max_frame:
                    self.error = ProtocolError(
                        "frame_too_large",
                        f"Frame of {length} bytes is over the {self.max_frame}-byte limit.",
                        fatal=True,
                    )
                    if not bodies:
                        raise self.error
                    break
                end = start + HEADER.size + length
                if len(self._buffer) < end:
                    break
                bodies.append(bytes(self._buffer[start + HEADER.size : end]))
                start = end
        finally:
            del self._buffer[:start]
        return bodies

    @property
    def pending(self) -> int:
        return len(self._buffer)


def error(code: str, message: str, ref: int | None = None, **extra: Any) -> dict[str, Any]:
    """An ``error`` frame's map."""
    frame: dict[str, Any] = {"t": ERROR, "code": code, "message": message}
    if ref is not None:
        frame["ref"] = ref
    frame.update(extra)
    return frame


def mismatch_error(client_protocol: int) -> dict[str, Any]:
    """The error a client of another protocol version gets, naming both versions."""
    return error(
        "protocol_mismatch",
        f"This host speaks partyhost protocol {PROTOCOL_VERSION}, your client speaks "
        f"protocol {client_protocol}. Use the same partyhost version as the host.",
        host_protocol=PROTOCOL_VERSION,
        client_protocol=client_protocol,
    )
