"""The partyhost wire protocol: frames, message types and their validation.

Every message is one frame: a 4-byte big-endian length, then one msgpack map
with a text key ``"t"`` naming its type. The message types and their fields
are declared in :mod:`.messages`, :mod:`.hostmessages` and :mod:`.hostshapes`
(and re-exported here), the error codes below; ``docs/protocol.md``'s tables
are generated from these declarations, and a test keeps the two in step.

Client frames are capped at :data:`MAX_CLIENT_FRAME` bytes and checked against
:data:`CLIENT_MESSAGES` before the host acts on them, so a hostile or buggy
client gets an ``error`` frame (or, for broken framing, a disconnect) and
nothing else happens.
"""

from __future__ import annotations

from typing import Any, Final

import msgpack
from partyhost.net.frames import HEADER, ViewFrames, encode
from partyhost.net.hostmessages import HOST_MESSAGES, host_problems, welcome_limits
from partyhost.net.hostshapes import SHAPES
from partyhost.net.messages import (
    ACCEPTED,
    ADD_BOT,
    BYE,
    CHAT,
    CHAT_LINE,
    CLIENT_MESSAGES,
    CREATE_ROOM,
    DECKS,
    ERROR,
    GET_REPLAY,
    GET_STANDINGS,
    GIVE_OWNERSHIP,
    HELLO,
    JOIN_ROOM,
    JOINED,
    KICK,
    LEAVE_ROOM,
    LEFT,
    LIST_DECKS,
    LIST_PAST_GAMES,
    LIST_ROOMS,
    LOBBY,
    MAX_CHAT_LENGTH,
    MAX_DECK_FILES,
    MAX_PASSWORD_LENGTH,
    MAX_ROOM_DECKS,
    NOTICE,
    OVER,
    PAST_GAMES,
    PAUSE_GAME,
    PING,
    PLAY,
    PLAYING,
    PONG,
    REMOVE_BOT,
    REPLACE_WITH_BOT,
    REPLAY,
    RESUME_GAME,
    RESUME_SEAT,
    ROOM,
    ROOMS,
    SEEN,
    SET_OPTIONS,
    SET_READY,
    STANDINGS,
    START_GAME,
    VIEW,
    WELCOME,
    Field,
)

__all__ = [
    "ACCEPTED",
    "ADD_BOT",
    "BYE",
    "CHAT",
    "CHAT_LINE",
    "CLIENT_MESSAGES",
    "CREATE_ROOM",
    "DECKS",
    "ERROR",
    "ERROR_CODES",
    "FATAL_ERRORS",
    "GET_REPLAY",
    "GET_STANDINGS",
    "GIVE_OWNERSHIP",
    "HEADER",
    "HELLO",
    "HOST_MESSAGES",
    "JOINED",
    "JOIN_ROOM",
    "KICK",
    "LEAVE_ROOM",
    "LEFT",
    "LIST_DECKS",
    "LIST_PAST_GAMES",
    "LIST_ROOMS",
    "LOBBY",
    "MAX_CHAT_LENGTH",
    "MAX_DECK_FILES",
    "MAX_PASSWORD_LENGTH",
    "MAX_ROOM_DECKS",
    "NOTICE",
    "OVER",
    "PAST_GAMES",
    "PAUSE_GAME",
    "PING",
    "PLAY",
    "PLAYING",
    "PONG",
    "REMOVE_BOT",
    "REPLACE_WITH_BOT",
    "REPLAY",
    "RESUME_GAME",
    "RESUME_SEAT",
    "ROOM",
    "ROOMS",
    "SEEN",
    "SET_OPTIONS",
    "SET_READY",
    "SHAPES",
    "STANDINGS",
    "START_GAME",
    "VIEW",
    "WELCOME",
    "Field",
    "FrameDecoder",
    "ProtocolError",
    "ViewFrames",
    "decode_body",
    "encode",
    "error",
    "host_problems",
    "mismatch_error",
    "validate_client_message",
    "welcome_limits",
]

PROTOCOL_VERSION: Final = 1
MAX_CLIENT_FRAME: Final = 64 * 1024
MAX_HOST_FRAME: Final = 4 * 1024 * 1024

MAX_NAME_LENGTH: Final = 24
ROOM_CODE_LENGTH: Final = 4
ROOM_CODE_LETTERS: Final = "ACDEFHJKMNPRTWXY"
"""Letters a room code is made of: none that reads like a digit or another letter."""
MAX_DEPTH: Final = 8
"""Deepest nesting of lists/maps accepted inside a client message."""


class ProtocolError(Exception):
    """A frame or message that breaks the protocol. ``fatal`` ones end the connection."""

    def __init__(self, code: str, message: str, *, fatal: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fatal = fatal


# --- error codes -----------------------------------------------------------

ERROR_CODES: Final[dict[str, str]] = {
    # framing and messages (connection-level)
    "bad_frame": "The frame body is not valid msgpack, or uses ext types (but see bad_message).",
    "frame_too_large": "The announced length is over the limit; the host disconnects.",
    "bad_message": (
        "Not a map with a text 't', a map key that is not text (anywhere in the message),"
        " a missing or wrong-typed field, or an extra one (a msgpack timestamp, which"
        " decodes without the ext hook, is refused here too)."
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
    "token_unknown": (
        "The seat token in 'hello' or 'resume_seat' matches no seat (room closed, kicked, left,"
        " or the seat was taken back by name)."
    ),
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
    "name_in_use": "During a game, a connected player already has that name in the room.",
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
    "paused": "The game is paused: no moves until the owner resumes it (or it is already paused).",
    "not_paused": "'resume_game' while the game is not paused.",
    "player_connected": "'replace_with_bot' on a player who is connected.",
    "not_connected": "'give_ownership' to a player who is not connected.",
    # past games
    "no_such_game": "No past game on this host has that number.",
    "game_running": "That game is still being played; its replay opens when it is over.",
    "game_unfinished": "That game's room closed before it ended; it cannot be replayed.",
    "replay_failed": "The game could not be played again on this host (its message says why).",
    "no_such_step": "The replay has no step with that number.",
    "bad_night": "A night is written YYYY-MM-DD.",
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
        if strict_keys and _is_msgpack(body):
            raise ProtocolError(
                "bad_message", "Map keys must be text; this frame has a map with other keys."
            ) from None
        raise ProtocolError(
            "bad_frame", f"Frame is not valid msgpack ({type(exc).__name__})."
        ) from None


def _is_msgpack(body: bytes) -> bool:
    """Whether ``body`` is well-formed msgpack with any map keys (a message breaking the rules).

    Maps are read as lists of pairs, so keys of any type (even arrays) need no hashing.
    """
    try:
        msgpack.unpackb(
            body, raw=False, strict_map_key=False, object_pairs_hook=list, ext_hook=_refuse_ext
        )
    except Exception:
        return False
    return True


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
