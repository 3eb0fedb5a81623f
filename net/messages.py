"""Every message of the wire protocol, field by field.

One declaration serves two readers: the host checks each client message
against :data:`CLIENT_MESSAGES` before acting on it, and the message tables
of ``docs/protocol.md`` are generated from it (with the host's messages,
declared the same way in :mod:`.hostmessages`), so the document cannot drift
from the code.

A field's type is a :class:`WireType`: the label the docs show (``int``,
``str ≤ 200``, ``bool or nil``) and the check that enforces it. Maps with
known keys (the ``limits`` of ``welcome``, a room's seats) name a shape in
:data:`~.hostshapes.SHAPES`, declared the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

# --- message types ---------------------------------------------------------

# Client -> host
HELLO: Final = "hello"
PING: Final = "ping"
PONG: Final = "pong"
LIST_ROOMS: Final = "list_rooms"
LIST_DECKS: Final = "list_decks"
CREATE_ROOM: Final = "create_room"
JOIN_ROOM: Final = "join_room"
RESUME_SEAT: Final = "resume_seat"
LEAVE_ROOM: Final = "leave_room"
SET_READY: Final = "set_ready"
SET_OPTIONS: Final = "set_options"
START_GAME: Final = "start_game"
KICK: Final = "kick"
ADD_BOT: Final = "add_bot"
REMOVE_BOT: Final = "remove_bot"
REPLACE_WITH_BOT: Final = "replace_with_bot"
GIVE_OWNERSHIP: Final = "give_ownership"
PAUSE_GAME: Final = "pause_game"
RESUME_GAME: Final = "resume_game"
CHAT: Final = "chat"
PLAY: Final = "play"
SEEN: Final = "seen"
LIST_PAST_GAMES: Final = "list_past_games"
GET_REPLAY: Final = "get_replay"
GET_STANDINGS: Final = "get_standings"

# Host -> client
WELCOME: Final = "welcome"
ACCEPTED: Final = "accepted"
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
PAST_GAMES: Final = "past_games"
REPLAY: Final = "replay"
STANDINGS: Final = "standings"

# Room statuses (the ``status`` of ``room`` and ``rooms`` entries)
LOBBY: Final = "lobby"
PLAYING: Final = "playing"
OVER: Final = "over"

MAX_PASSWORD_LENGTH: Final = 64
MAX_CHAT_LENGTH: Final = 300
MAX_ROOM_DECKS: Final = 8
"""Decks one room may play together (host decks and uploaded files)."""
MAX_DECK_FILES: Final = 4
"""Deck files one ``create_room`` may carry (all of them within the frame cap)."""
INT_LIMIT: Final = 2**53
"""Integers a client sends stay within +-2**53, so every language reads them exactly."""

# --- types -----------------------------------------------------------------

Check = Callable[[Any], bool]


@dataclass(frozen=True)
class WireType:
    """A value's type as the docs name it, and the check that holds values to it."""

    label: str
    check: Check
    shape: str | None = None
    """For maps with declared keys (or arrays of them): the name of their shape in SHAPES."""


def _is_int(value: Any) -> bool:
    return (
        isinstance(value, int) and not isinstance(value, bool) and -INT_LIMIT <= value <= INT_LIMIT
    )


def _is_plain(value: Any) -> bool:
    """Plain data only: text-keyed maps, lists, text, numbers, booleans, nil (no bin)."""
    if value is None or isinstance(value, bool | int | float | str):
        return True
    if isinstance(value, list):
        return all(_is_plain(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and _is_plain(item) for key, item in value.items())
    return False


INT = WireType("int", _is_int)
FLOAT = WireType("float", lambda value: isinstance(value, float))
BOOL = WireType("bool", lambda value: isinstance(value, bool))
STR = WireType("str", lambda value: isinstance(value, str))
MAP = WireType("map", lambda value: isinstance(value, dict) and _is_plain(value))
ANY = WireType("any", _is_plain)


def text(limit: int) -> WireType:
    return WireType(f"str ≤ {limit}", lambda value: isinstance(value, str) and len(value) <= limit)


def nil_or(inner: WireType) -> WireType:
    return WireType(
        f"{inner.label} or nil", lambda value: value is None or inner.check(value), inner.shape
    )


def array_of(inner: WireType) -> WireType:
    return WireType(
        f"array of {inner.label}",
        lambda value: isinstance(value, list) and all(inner.check(item) for item in value),
        inner.shape,
    )


def text_list(items: int, limit: int) -> WireType:
    """An array of at most ``items`` texts of at most ``limit`` characters each."""
    single = text(limit)
    return WireType(
        f"array of str ≤ {limit}, at most {items}",
        lambda value: (
            isinstance(value, list) and len(value) <= items and all(map(single.check, value))
        ),
    )


def _is_deck_files(value: Any) -> bool:
    """A short list of ``{name, text}`` maps: deck files sent with ``create_room``."""
    name = text(255)
    return (
        isinstance(value, list)
        and len(value) <= MAX_DECK_FILES
        and all(
            isinstance(item, dict)
            and set(item) == {"name", "text"}
            and name.check(item["name"])
            and isinstance(item["text"], str)
            for item in value
        )
    )


DECK_FILES = WireType(
    f"array of map (deck file), at most {MAX_DECK_FILES}", _is_deck_files, "deck file"
)


def shaped(name: str) -> WireType:
    """A map whose keys are declared in SHAPES[name]."""
    return WireType(f"map ({name})", lambda value: isinstance(value, dict), name)


@dataclass(frozen=True)
class Field:
    """One field of a message: its type, what it means, whether it must be there.

    ``expected`` is how an error to a client words a wrong value.
    """

    type: WireType
    doc: str
    required: bool = True
    expected: str = ""

    @property
    def check(self) -> Check:
        return self.type.check


def spec(kind: WireType, doc: str, required: bool = True, expected: str = "") -> Field:
    return Field(kind, doc, required, expected or kind.label)


Fields = dict[str, Field]

# --- client messages -------------------------------------------------------

_SHORT = text(64)
_PASSWORD = nil_or(text(MAX_PASSWORD_LENGTH))
_N = spec(INT, "any number; the answer carries it back", False, "an integer")

CLIENT_MESSAGES: Final[dict[str, Fields]] = {
    HELLO: {
        "protocol": spec(
            INT,
            "the protocol version you speak (this document: 1)",
            True,
            "an integer protocol version",
        ),
        "name": spec(
            text(200),
            "your display name (cleaned, then cut to 24 characters)",
            True,
            "your name as text of at most 200 characters",
        ),
        "client": spec(
            _SHORT, "your program and version, e.g. `mygame/1.0`", False, "a client description"
        ),
        "token": spec(
            nil_or(text(128)),
            "a seat token from `joined`: back to that seat",
            False,
            "a seat token",
        ),
    },
    PING: {"n": _N},
    PONG: {"n": spec(INT, "the `n` of the host's `ping` you answer", False, "an integer")},
    LIST_ROOMS: {},
    LIST_DECKS: {},
    CREATE_ROOM: {
        "game": spec(_SHORT, "a game `id` from `welcome.games`", True, "a game id"),
        "deck": spec(
            nil_or(_SHORT),
            "a deck `name` from that game's `decks` (nil: its default deck)",
            False,
            "a deck name",
        ),
        "decks": spec(
            nil_or(text_list(MAX_ROOM_DECKS, 64)),
            f"deck names played together (instead of `deck`); at most {MAX_ROOM_DECKS} decks"
            " in all, files included",
            False,
            f"a list of at most {MAX_ROOM_DECKS} deck names",
        ),
        "deck_files": spec(
            nil_or(DECK_FILES),
            "deck files sent from your computer (see Sending a deck file)",
            False,
            f"a list of at most {MAX_DECK_FILES} maps {{name, text}}",
        ),
        "options": spec(
            nil_or(MAP),
            "rule options by name (the game's `options`); missing ones take defaults",
            False,
            "a map of rule options",
        ),
        "password": spec(
            _PASSWORD,
            "others must give it to join (the host keeps a salted hash)",
            False,
            "a password",
        ),
        "bot_takeover": spec(
            nil_or(BOOL),
            "whether a bot plays for an away player (nil: true)",
            False,
            "true or false",
        ),
    },
    JOIN_ROOM: {
        "code": spec(text(16), "the room code, in any case", True, "a room code"),
        "password": spec(_PASSWORD, "the room's password, if it has one", False, "a password"),
        "spectate": spec(nil_or(BOOL), "true: watch without a seat", False, "true or false"),
    },
    RESUME_SEAT: {
        "token": spec(
            text(128),
            "a seat token from `joined`: back to that seat, once connected",
            True,
            "a seat token",
        )
    },
    LEAVE_ROOM: {},
    SET_READY: {"ready": spec(BOOL, "whether you are set to go", True, "true or false")},
    SET_OPTIONS: {
        "options": spec(
            MAP,
            "merged into the room's options, then checked by the game",
            True,
            "a map of rule options",
        ),
        "bot_takeover": spec(
            nil_or(BOOL), "change the room's bot takeover setting", False, "true or false"
        ),
    },
    START_GAME: {},
    KICK: {"seat": spec(INT, "the seat of the player to remove", True, "a seat number")},
    ADD_BOT: {
        "level": spec(
            nil_or(_SHORT), "`easy`, `normal` or `hard` (nil: `normal`)", False, "a bot level"
        ),
    },
    REMOVE_BOT: {"seat": spec(INT, "the bot's seat", True, "a seat number")},
    REPLACE_WITH_BOT: {
        "seat": spec(
            INT, "the seat of a disconnected or away player a bot takes now", True, "a seat number"
        )
    },
    GIVE_OWNERSHIP: {
        "seat": spec(
            INT, "the seat of the connected player who owns the room next", True, "a seat number"
        )
    },
    PAUSE_GAME: {},
    RESUME_GAME: {},
    CHAT: {
        "text": spec(
            text(MAX_CHAT_LENGTH * 4),
            f"the line; cleaned, then cut to {MAX_CHAT_LENGTH} characters",
            True,
            f"chat text of at most {MAX_CHAT_LENGTH * 4} characters",
        ),
    },
    PLAY: {
        "cmd": spec(
            MAP,
            'a game command `{"type": ..., ...}` (see the game\'s commands)',
            True,
            "a game command (a map with a 'type')",
        ),
        "ref": spec(
            nil_or(INT),
            "your number for this command: `accepted`, or the `error` about it, repeats it",
            False,
            "an integer reference",
        ),
    },
    SEEN: {},
    LIST_PAST_GAMES: {
        "night": spec(
            nil_or(text(16)),
            "only that night's games (`YYYY-MM-DD`)",
            False,
            "a night as YYYY-MM-DD",
        ),
    },
    GET_REPLAY: {
        "id": spec(INT, "a game's `id` from `past_games`", True, "a past game's number"),
        "first": spec(nil_or(INT), "the first step wanted (nil: 0)", False, "a step number"),
        "count": spec(
            nil_or(INT), "how many steps (nil: 40; at most 200)", False, "how many steps"
        ),
    },
    GET_STANDINGS: {
        "night": spec(
            nil_or(text(16)), "a night (`YYYY-MM-DD`); nil: tonight", False, "a night as YYYY-MM-DD"
        ),
    },
}
"""Every message a client may send, with the fields each must or may carry."""
