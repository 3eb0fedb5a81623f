"""The partyhost wire protocol: every message, field by field, and its frames.

A frame is a 4-byte big-endian length, then one msgpack map whose ``"t"``
names its type. The declarations here are checked against client messages by
the host, against host messages by the tests (:func:`host_problems`), and make
the tables of ``docs/protocol.md`` (``make docs``), so doc and code agree.
"""

from __future__ import annotations

import math
import operator
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import msgpack

PROTOCOL_VERSION: Final = 1
MAX_CLIENT_FRAME: Final = 64 * 1024
MAX_HOST_FRAME: Final = 4 * 1024 * 1024

MAX_NAME_LENGTH: Final = 24
ROOM_CODE_LENGTH: Final = 4
ROOM_CODE_LETTERS: Final = "ACDEFHJKMNPRTWXY"
"""Letters a room code is made of: none that reads like a digit or another letter."""
MAX_DEPTH: Final = 8
"""Deepest nesting of lists/maps accepted inside a client message."""
MAX_PASSWORD_LENGTH: Final = 64
MAX_CHAT_LENGTH: Final = 300
MAX_URL_LENGTH: Final = 200
"""The longest ``welcome.web_door`` a client shows (an IPv6 address's URL is about 50)."""
LOG_EVENTS: Final = 40
"""Recent events a first view carries in its ``log``, at most."""
MAX_ROOM_DECKS: Final = 8
"""Decks one room may play together (host decks and uploaded files)."""
MAX_DECK_FILES: Final = 4
"""Deck files one ``create_room`` may carry (all of them within the frame cap)."""
INT_LIMIT: Final = 2**53
"""Integers a client sends stay within +-2**53, so every language reads them exactly."""


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
RECLAIM_ANSWER: Final = "reclaim_answer"
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
RECLAIM_ASK: Final = "reclaim_ask"
RECLAIM_WAITING: Final = "reclaim_waiting"

# Room statuses (the ``status`` of ``room`` and ``rooms`` entries)
LOBBY: Final = "lobby"
PLAYING: Final = "playing"
OVER: Final = "over"

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


_BASIC: Final[dict[str, Check]] = {
    "int": _is_int,
    "float": lambda value: isinstance(value, float),
    "bool": lambda value: isinstance(value, bool),
    "str": lambda value: isinstance(value, str),
    "map": lambda value: isinstance(value, dict) and _is_plain(value),
    "any": _is_plain,
}


def wire_type(label: str) -> WireType:
    """The type a label names: a basic one (``int``, ``map``...), ``str ≤ N``, ``map (shape)``
    (its keys declared in SHAPES), ``array of T`` (``, at most N``) or ``T or nil``."""
    if label.endswith(" or nil"):
        inner = wire_type(label.removesuffix(" or nil"))
        return WireType(label, lambda value: value is None or inner.check(value), inner.shape)
    if label.startswith("array of "):
        item, _, most = label.removeprefix("array of ").partition(", at most ")
        inner, limit = wire_type(item), int(most or 0)
        return WireType(
            label,
            lambda value: (
                isinstance(value, list)
                and (not limit or len(value) <= limit)
                and all(inner.check(entry) for entry in value)
            ),
            inner.shape,
        )
    if label.startswith("str ≤ "):
        length = int(label.removeprefix("str ≤ "))
        return WireType(label, lambda value: isinstance(value, str) and len(value) <= length)
    if label.startswith("map ("):
        return WireType(label, lambda value: isinstance(value, dict), label[5:-1])
    return WireType(label, _BASIC[label])


@dataclass(frozen=True)
class Field:
    """One field of a message: its type, what it means, whether it must be there, and how
    an error to a client words a wrong value."""

    type: WireType
    doc: str
    required: bool = True
    expected: str = ""


Fields = dict[str, Field]


def _rows(table: str) -> list[list[str]]:
    """The cells of a table written one row a line, ``|`` between cells; a more indented line
    goes on with the one above, and a line starting with ``#`` is a comment."""
    rows: list[str] = []
    margin = 0
    for line in table.splitlines():
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if rows and line.index(text) > margin:
            rows[-1] += f" {text}"
        else:
            rows.append(text)
            margin = line.index(text)
    return [[cell.strip() for cell in row.split("|")] for row in rows]


def fields(table: str) -> Fields:
    """Fields written as ``name | type | meaning`` rows (:func:`_rows`), a client message's as
    ``name | type | how an error words a wrong value | meaning``; ``name?`` may be missing."""
    found: Fields = {}
    for key, label, *expected, doc in _rows(table):
        name = key.removesuffix("?")
        found[name] = Field(wire_type(label), doc, not key.endswith("?"), "".join(expected))
    return found


# --- client messages -------------------------------------------------------

CLIENT_MESSAGES: Final[dict[str, Fields]] = {
    HELLO: fields("""
    protocol | int | an integer protocol version | the protocol version you speak (this document: 1)
    name | str ≤ 200 | your name as text of at most 200 characters | your display name (cleaned,
        then cut to 24 characters)
    client? | str ≤ 64 | a client description | your program and version, e.g. `mygame/1.0`
    token? | str ≤ 128 or nil | a seat token | a seat token from `joined`: back to that seat
    """),
    PING: fields("n? | int | an integer | any number; the answer carries it back"),
    PONG: fields("n? | int | an integer | the `n` of the host's `ping` you answer"),
    LIST_ROOMS: {},
    LIST_DECKS: {},
    CREATE_ROOM: fields(f"""
    game | str ≤ 64 | a game id | a game `id` from `welcome.games`
    deck? | str ≤ 64 or nil | a deck name | a deck `name` from that game's `decks` (nil: its default
        deck)
    decks? | array of str ≤ 64, at most {MAX_ROOM_DECKS} or nil
        | a list of at most {MAX_ROOM_DECKS} deck names | deck names played together (instead of
        `deck`); at most {MAX_ROOM_DECKS} decks in all, files included
    deck_files? | array of map (deck file), at most {MAX_DECK_FILES} or nil
        | a list of at most {MAX_DECK_FILES} maps {{name, text}} | deck files sent from your
        computer (see Sending a deck file)
    options? | map or nil | a map of rule options | rule options by name (the game's `options`);
        missing ones take defaults
    password? | str ≤ {MAX_PASSWORD_LENGTH} or nil | a password | others must give it to join (the
        host keeps a salted hash)
    bot_takeover? | bool or nil | true or false | whether a bot plays for an away player (nil: true)
    """),
    JOIN_ROOM: fields(f"""
    code | str ≤ 16 | a room code | the room code, in any case
    password? | str ≤ {MAX_PASSWORD_LENGTH} or nil | a password | the room's password, if it has one
    spectate? | bool or nil | true or false | true: watch without a seat
    """),
    RESUME_SEAT: fields("""
    token | str ≤ 128 | a seat token | a seat token from `joined`: back to that seat, once connected
    """),
    LEAVE_ROOM: {},
    SET_READY: fields("ready | bool | true or false | whether you are set to go"),
    SET_OPTIONS: fields("""
    options | map | a map of rule options | merged into the room's options, then checked by the game
    bot_takeover? | bool or nil | true or false | change the room's bot takeover setting
    """),
    START_GAME: {},
    KICK: fields("seat | int | a seat number | the seat of the player to remove"),
    ADD_BOT: fields("""
    level? | str ≤ 64 or nil | a bot level | `easy`, `normal` or `hard` (nil: `normal`)
    """),
    REMOVE_BOT: fields("seat | int | a seat number | the bot's seat"),
    REPLACE_WITH_BOT: fields("""
    seat | int | a seat number | the seat of a disconnected or away player a bot takes now
    """),
    GIVE_OWNERSHIP: fields("""
    seat | int | a seat number | the seat of the connected player who owns the room next
    """),
    PAUSE_GAME: {},
    RESUME_GAME: {},
    CHAT: fields(f"""
    text | str ≤ {MAX_CHAT_LENGTH * 4} | chat text of at most {MAX_CHAT_LENGTH * 4} characters | the
        line; cleaned, then cut to {MAX_CHAT_LENGTH} characters
    """),
    PLAY: fields("""
    cmd | map | a game command (a map with a 'type') | a game command `{"type": ..., ...}` (see the
        game's commands)
    ref? | int or nil | an integer reference | your number for this command: `accepted`, or the
        `error` about it, repeats it
    """),
    SEEN: {},
    RECLAIM_ANSWER: fields("""
    ask | int | an ask number | the `ask` of the `reclaim_ask` you answer
    yes | bool | true or false | true: it is them, give the seat back; false: refuse
    """),
    LIST_PAST_GAMES: fields("""
    night? | str ≤ 16 or nil | a night as YYYY-MM-DD | only that night's games (`YYYY-MM-DD`)
    """),
    GET_REPLAY: fields(f"""
    id | int | a past game's number | a game's `id` from `past_games`
    first? | int or nil | a step number | the first step wanted (nil: 0)
    count? | int or nil | how many steps | how many steps (nil: 40; at most 200)
    token? | str ≤ 128 or nil | a seat token | a `locked` game: the seat token you played it with
    password? | str ≤ {MAX_PASSWORD_LENGTH} or nil | a password | a `locked` game: its room's
        password
    """),
    GET_STANDINGS: fields("""
    night? | str ≤ 16 or nil | a night as YYYY-MM-DD | a night (`YYYY-MM-DD`); nil: tonight
    """),
}
"""Every message a client may send, with the fields each must or may carry."""

# --- the maps inside host messages --------------------------------------------

HOST_TIME: Final = "seconds since the Unix epoch on the host's clock"
"""How a host message's times are told: the words every time field's description ends with."""

_PAST_PLAYER: Final = fields("""
    seat | int | the seat
    name | str | the player's name
    bot | bool | an in-host bot
""")
_PAST_GAME: Final = fields(f"""
    id | int | the game's number (random; what `get_replay` takes)
    room | str | the room's code
    game | str | the game's id
    game_name | str | the game's name
    deck | str | the deck's name
    status | str | `over` (running games are never listed)
    started | float | when it started, {HOST_TIME}
    ended | float or nil | when it ended; nil while it runs
    night | str or nil | the night it ended in (`YYYY-MM-DD`)
    players | array of map (past player) | who played
    results | array of map (result) | each seat's result, once it is over
    locked | bool | a password room's game: replayed with a player's token or the password
""")

SHAPES: Final[dict[str, Fields]] = {
    "game": fields("""
    id | str | the id `create_room` takes
    name | str | the game's name
    min_players | int | the fewest players it starts with
    max_players | int | the most players it seats
    deck_game | str | the `game:` its deck files declare
    default_deck | str | the deck a room gets when it names none
    options | array of map (option) | the rule options a room may set
    joins_mid_game | bool | whether players may join once the game has started
    decks | array of map (deck) | its usable decks on this host (`problem` nil)
    """),
    "option": fields("""
    name | str | the key in `options`
    label | str | a short label for people
    kind | str | `int`, `bool` or `choice`
    default | any | the value when the room sets none (int, bool, str or nil)
    help | str | a sentence for people
    min | int or nil | the smallest `int` allowed
    max | int or nil | the largest `int` allowed
    choices | array of str | the values a `choice` takes
    allow_none | bool | whether nil (shown as "off") is allowed too
    """),
    "deck": fields("""
    name | str | the file name without `.yaml`: what `create_room.deck` takes
    title | str | the deck's `name:` (the file name if it has none)
    description | str | a sentence about it; may be empty
    game | str or nil | the `game:` it declares (a `deck_game`); nil if unreadable
    source | str | `shipped` or `host` (one of the host's deck folders)
    cards | map | cards per section, e.g. `{"slogans": 160, "tshirts": 70}`
    samples | array of str | a few cards, one short line each
    problem | str or nil | why it cannot be used (`file:line:column: ...`); nil when usable
    """),
    "deck problem": fields("""
    file | str | the file's name as sent (or the host's file)
    line | int | the line, from 1
    column | int | the column, from 1
    message | str | what is wrong, and what would be right
    """),
    "room deck": fields("""
    name | str | the deck's name
    title | str | its title
    source | str | `host` or `upload` (sent with `create_room`)
    """),
    "past game": _PAST_GAME,
    "replay info": {
        **_PAST_GAME,
        **fields("""
        steps | int | how many steps in all
        rounds | array of int | the first step of each round
        """),
    },
    "past player": _PAST_PLAYER,
    "result": {
        **_PAST_PLAYER,
        **fields("""
        won | bool | one of the winners
        points | int or nil | points scored, in games that keep them
        money | int or nil | money held, in games that keep it
        """),
    },
    "replay step": fields(f"""
    step | int | the step's number (0: the game as dealt)
    version | int | the game state's version after it
    round | any | the round it belongs to, as the game's view names it
    kind | str | `setup`, `move`, `system` or `timer`
    seat | int or nil | who moved (-1: the host's seat change)
    command | map or nil | the command applied
    at | float or nil | when, {HOST_TIME}
    events | array of map | what it caused, each as the log tells it
    private | array of map | what single seats were told besides: `{{event, seat, fields}}`
    view | map | the game's replay view: the table with nothing hidden
    """),
    "standing": fields("""
    name | str | the player's name
    bot | bool | an in-host bot
    played | int | games played
    won | int | games won
    games | array of map | per game id: `{game, played, won}`
    points | int or nil | points over the games that keep them
    money | int or nil | money over the games that keep it
    """),
    "deck file": fields("""
    name | str ≤ 255 | the file's name: shown in messages, never a path on the host
    text | str | the whole file as text
    """),
    "limits": fields("""
    max_frame | int | largest client frame body, in bytes
    max_name | int | characters a name is cut to
    max_chat | int | characters a chat line is cut to
    max_password | int | characters a password may have
    chat_per_second | float | chat lines a second, on average
    chat_burst | int | chat lines at once
    messages_per_second | float | messages a second, on average
    message_burst | int | messages at once
    heartbeat_interval | float | seconds between the host's pings
    heartbeat_misses | int | intervals of silence after which you are dropped
    grace_seconds | float | seconds a dropped player keeps their seat as it was
    ghost_grace_seconds | float | the same for a player who joined mid-game and has not acted yet
    max_unsent_bytes | int | bytes queued for you past which you are dropped
    """),
    "seat": fields("""
    seat | int | the seat number
    name | str | the member's name
    ready | bool | set to go (bots always are)
    bot | bool | an in-host bot
    bot_level | str or nil | a bot's `easy`, `normal` or `hard`; nil for a person
    connected | bool | connected now (bots always are)
    away | bool | gone past the grace period
    stand_in | bool | a bot plays this away seat
    left | bool | a player who left during the game (listed until it ends)
    presence | str | `connected`, `disconnected` (within the grace), `away` (past it) or `gone`
    grace_left | float or nil | seconds of grace left while disconnected, else nil
    """),
    "pause": fields(f"""
    by | str | the name of who paused
    at | float | when, {HOST_TIME}
    until | float | when the game goes on by itself (the host's pause limit), {HOST_TIME}
    asking | array of int | the seats that sent `resume_game` without owning the room: once they are
        more than half of the people seated and connected, the game resumes
    """),
    "log entry": fields("""
    version | int | the game state's version the change made
    events | array of map | what it caused, as your seat may see it: `{kind, ...}`
    """),
    "result pause": fields(f"""
    until | float | when the table goes on by itself, {HOST_TIME}
    waiting | array of int | the seats of the people who have not sent `seen` yet
    at | float | where the game's clock stands meanwhile, {HOST_TIME}
    """),
    "room summary": fields("""
    code | str | the code `join_room` takes
    game | str | the game's id
    game_name | str | the game's name
    deck | str | the deck's name
    decks? | array of map (room deck) | the decks in play, each with its source
    seats | int | seated members
    max_seats | int | the game's most players
    status | str | `lobby`, `playing` or `over`
    has_password | bool | whether joining takes a password
    owner_name | str or nil | the owner's name
    spectators | int | how many watch
    """),
}
"""The maps with declared keys inside host messages, by the name their type gives."""


# --- host messages ---------------------------------------------------------

HOST_MESSAGES: Final[dict[str, Fields]] = {
    WELCOME: fields(f"""
    protocol | int | the host's protocol version
    host | str | the host's name
    host_id | str | stays the same across restarts of this host's data folder
    resumed | bool | whether `hello.token` took you back to a seat
    games | array of map (game) | every game this host runs
    limits | map (limits) | the host's limits (see Limits)
    web_door | str ≤ {MAX_URL_LENGTH} or nil | the browser door's `http://ADDR:PORT/` at the host's
        LAN address, nil without one
    """),
    ERROR: fields("""
    code | str | stable; see Error codes (a refused `play` gives the game's own code)
    message | str | a sentence for people
    ref? | int | the request's `ref`, when it had one
    host_protocol? | int | with `protocol_mismatch` only: the host's version
    client_protocol? | int | with `protocol_mismatch` only: yours
    retry_after? | float | with `rate_limited` for a seat taken back too often (`resume_seat`, or a
        `hello` with its token): seconds until it may be taken back; wait that long before trying
        again
    problems? | array of map (deck problem) | with `bad_deck` for a deck that failed its checks:
        each problem (at most 50)
    """),
    ACCEPTED: fields("""
    ref | int | the `ref` of your `play`, which the game accepted
    version | int | the game's version after it; the `view` showing it comes next
    """),
    ROOMS: fields("rooms | array of map (room summary) | every open room"),
    DECKS: fields("""
    decks | array of map (deck) | every deck file in the host's deck folders, in search order,
        broken ones too
    """),
    JOINED: fields("""
    code | str | the room's code
    seat | int or nil | your seat; nil when you spectate
    token | str or nil | your seat token (keep it to come back); nil for spectators
    """),
    ROOM: fields("""
    code | str | the room's code
    game | str | the game's id
    game_name | str | the game's name
    deck | str | the deck's name (decks played together: their names joined by ` + `)
    decks | array of map (room deck) | the decks in play
    options | map | the options as the owner set them
    rules | map | every option, defaults filled in
    bot_takeover | bool | whether a bot plays for an away player
    has_password | bool | whether joining takes a password
    owner | int or nil | the owner's seat
    you | int or nil | your seat; nil for spectators
    status | str | `lobby`, `playing` or `over`
    seats | array of map (seat) | every seated member, in seat order
    spectators | int | how many watch
    min_players | int | the fewest players the game starts with
    max_players | int | the most players the game seats
    paused | map (pause) or nil | who paused the game and when; nil while it runs
    pause | map (result pause) or nil | the table stopped to show a round's result: until when, and
        who has not read it
    """),
    VIEW: fields(f"""
    version | int | the game state's version (one more per change)
    view | map | your seat's view of the game (spectators: the public one), with `legal`
    events | array of map | what just happened, as your seat may see it: `{{kind, ...}}`
    now | float | when the host sent the frame, {HOST_TIME}
    log? | array of map (log entry) | only in the first view after you join, come back or take a
        seat: the game's recent changes (at most {LOG_EVENTS} events, oldest first) as your seat may
        see them, for the log
    """),
    CHAT_LINE: fields(f"""
    seat | int or nil | the speaker's seat; nil for a spectator
    name | str | the speaker's name
    text | str | the line, cleaned
    at | float | when it was said, {HOST_TIME}
    """),
    NOTICE: fields("text | str | an announcement for people; do not parse it"),
    LEFT: fields("""
    code | str | the room you are no longer in
    reason | str | `left`, `kicked`, `removed`, `disconnected`, `replaced`, `room_closed` or
        `closed_by_host`
    """),
    BYE: fields("reason | str | why the host is closing the connection"),
    PAST_GAMES: fields("""
    night | str or nil | the night asked for; nil for every kept night
    games | array of map (past game) | newest first, at most 200
    """),
    REPLAY: fields("""
    id | int | the game's number
    info | map (replay info) | the game's `past_games` entry, its step count and rounds
    first | int | the number of the first step in `steps`
    steps | array of map (replay step) | consecutive steps from `first` on
    total | int | steps in the whole replay
    """),
    STANDINGS: fields("""
    night | str | the night shown, as its evening's date (`YYYY-MM-DD`)
    tonight | str | tonight's date the same way
    nights | array of str | every night with a finished game, oldest first
    rows | array of map (standing) | best first
    """),
    RECLAIM_ASK: fields("""
    ask | int | the number to answer with (`reclaim_answer`)
    name | str | the name of the absent player the visitor says they are
    seat | int | that player's seat
    seconds | float | seconds left to answer; no answer by then is no
    """),
    RECLAIM_WAITING: fields("""
    code | str | the room's code
    name | str | the absent player whose seat you asked for
    seat | int | that seat
    seconds | float | seconds the table has to confirm; then `joined` or `error`
    """),
    PING: fields("n | int | answer with `pong` carrying the same `n`"),
    PONG: fields("n | int | the `n` of your `ping` (0 if it had none)"),
}
"""Every message the host sends, with the fields it carries."""


def host_problems(message: Mapping[str, Any]) -> list[str]:
    """What in a host message disagrees with :data:`HOST_MESSAGES` (nothing: ``[]``)."""
    kind = message.get("t")
    fields = HOST_MESSAGES.get(kind) if isinstance(kind, str) else None
    if fields is None:
        return [f"unknown host message type {kind!r}"]
    return _map_problems(str(kind), message, fields, skip=("t",))


def _map_problems(
    where: str, value: Mapping[str, Any], fields: Fields, skip: tuple[str, ...] = ()
) -> list[str]:
    problems = [
        f"{where}: undeclared field {key!r}" for key in value if key not in (*skip, *fields)
    ]
    for name, field in fields.items():
        if name in value:
            problems += _field_problems(f"{where}.{name}", field, value[name])
        elif field.required:
            problems.append(f"{where}: missing {name!r}")
    return problems


def _field_problems(where: str, field: Field, value: Any) -> list[str]:
    """What in one field's value disagrees with its type, inside maps of declared keys too."""
    if not field.type.check(value):
        return [f"{where}: {value!r} is not {field.type.label}"]
    shape = field.type.shape
    if shape is None or value is None:
        return []
    if not isinstance(value, list):
        return _map_problems(where, value, SHAPES[shape])
    return [
        problem
        for index, entry in enumerate(value)
        for problem in _map_problems(f"{where}[{index}]", entry, SHAPES[shape])
    ]


class Refused(Exception):
    """Anything refused with a wire error ``code``: its asker gets an ``error`` frame."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def frame(self, ref: int | None = None) -> dict[str, Any]:
        return error(self.code, self.message, ref)


class RetryLater(Refused):
    """Refused for now: the ``error`` frame says in ``retry_after`` when to ask again."""

    def __init__(self, code: str, message: str, retry_after: float) -> None:
        super().__init__(code, message)
        self.retry_after = math.ceil(retry_after * 10) / 10 or 0.1
        """Seconds, rounded up to a tenth (never 0: a client told 0 would not wait at all)."""

    def frame(self, ref: int | None = None) -> dict[str, Any]:
        return error(self.code, self.message, ref, retry_after=float(self.retry_after))


class ProtocolError(Refused):
    """A frame or message that breaks the protocol. ``fatal`` ones end the connection."""

    def __init__(self, code: str, message: str, *, fatal: bool = False) -> None:
        super().__init__(code, message)
        self.fatal = fatal


# --- error codes -----------------------------------------------------------

ERROR_CODES: Final[dict[str, str]] = dict(
    _rows("""
    # framing and messages (connection-level)
    bad_frame | The frame body is not valid msgpack, or uses ext types (but see bad_message).
    frame_too_large | The announced length is over the limit; the host disconnects.
    bad_message | Not a map with a text 't', a map key that is not text (anywhere in the message), a
        missing or wrong-typed field, or an extra one (a msgpack timestamp, which decodes without
        the ext hook, is refused here too).
    unknown_type | The 't' names no client message type.
    too_deep | Lists/maps nested deeper than the limit.
    hello_required | The first message was not 'hello'; the host disconnects.
    protocol_mismatch | Client and host protocol versions differ; the host disconnects.
    already_greeted | A second 'hello' on one connection.
    rate_limited | Too many messages (or chat lines, or deck files) too fast; this one was dropped.
    host_full | The host has too many connections, in all or from the client's address; it
        disconnects.
    journal_unavailable | The host's disk is full: it starts no new games (create_room, start_game)
        while the running ones go on; if it cannot save even those, it refuses every request that
        changes something until it can again (so too while another program holds its database's
        write lock). The message says which.
    token_unknown | The seat token in 'hello' or 'resume_seat' matches no seat (room closed, kicked,
        left, or the seat was taken back with the table's consent and the token was the one it then
        gave).
    internal | The host failed to handle the request; nothing changed.
    # lobby
    unknown_game | No game with that id on this host.
    unknown_deck | No deck with that name for that game on this host.
    bad_deck | A deck cannot be used (a broken file of the host, an uploaded file with problems, or
        decks that cannot be played together); 'problems' lists each at its line.
    bad_option | A rule option is unknown or has a bad value.
    too_many_rooms | The host has as many rooms as it allows, in all or from this address.
    no_such_room | No open room has that code.
    wrong_password | The room's password does not match.
    room_full | Every seat is taken.
    game_in_progress | The game has started and takes no new players; spectate instead.
    too_many_spectators | The room has as many spectators as it allows.
    already_in_room | Leave your current room first.
    banned | The room's owner kicked a player of that name (or a look-alike of it), or one connected
        from your address; neither may join or watch that room again.
    name_in_use | During a game, a connected player already has that name in the room; or a seat
        whose player is not connected has a name that looks like it but is not written the same.
    reclaim_refused | Taking back a seat by name was not confirmed: the table said no, nobody
        answered in time, nobody is there to ask, or someone else is already asking for that seat.
    not_in_room | That request needs you to be in a room.
    # room
    not_owner | Only the room's owner may do that.
    not_a_player | Spectators cannot do that.
    not_in_lobby | Only before the game starts (or after it ends).
    player_count | The game needs a different number of players.
    bad_seat | No such seat, or not one this request can apply to.
    not_a_bot | That seat is not a bot.
    bad_level | A bot level other than easy, normal or hard.
    cannot_start | The game could not be set up (its message says why).
    empty_chat | A chat line that shows nothing after cleaning: only spaces, or zero-width, tag,
        filler, combining or blank characters.
    not_playing | No game is running in this room.
    paused | The game is paused: no moves until the owner (or most of the table) resumes it, or its
        time limit ends the pause (or it is already paused).
    not_paused | 'resume_game' while the game is not paused.
    player_connected | 'replace_with_bot' on a player who is connected.
    not_connected | 'give_ownership' to a player who is not connected.
    no_such_ask | 'reclaim_answer' to a question that is not yours or already settled.
    # past games
    no_such_game | No past game on this host has that number.
    game_running | That game is still being played; its replay opens when it is over.
    game_unfinished | That game's room closed before it ended; it cannot be replayed.
    replay_failed | The game could not be played again on this host (its message says why).
    no_such_step | The replay has no step with that number.
    replay_locked | A password room's game: only its players (their seat token) or the password open
        its replay.
    bad_night | A night is written YYYY-MM-DD.
    no_change | The command would leave the table exactly as it is; nothing was done.
    game_too_long | The game reached the host's ceiling of moves or journal bytes and stopped.
""")
)
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
        if _field_problems(name, field, message[name]):
            raise ProtocolError(
                "bad_message", f"Field {name!r} of '{kind}' must be {field.expected}."
            )
    unknown = [key for key in message if key != "t" and key not in fields]
    if unknown:
        listed = ", ".join(repr(key) for key in unknown)[:80]
        raise ProtocolError("bad_message", f"'{kind}' has unknown field(s): {listed}.")
    return message


# --- framing ---------------------------------------------------------------

HEADER: Final = struct.Struct(">I")


def encode(message: dict[str, Any]) -> bytes:
    """One frame: length prefix plus the msgpack map."""
    body = msgpack.packb(message, use_bin_type=True)
    return HEADER.pack(len(body)) + body


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

        An oversized length is fatal, decided before its body arrives; complete
        frames before it are returned first (the error waits in :attr:`error`), so
        a client's last good messages count however its bytes were split.
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


# --- view frames -------------------------------------------------------------


_MAP, _ARRAY = (0x80, 0xDE), (0x90, 0xDC)
"""msgpack's first byte of a short map or array header, and of a 16-bit one (+1: 32-bit)."""


def _header(kind: tuple[int, int], size: int) -> bytes:
    """The msgpack header of a map or array (``_MAP``, ``_ARRAY``) of ``size`` items."""
    fixed, long = kind
    if size < 16:
        return bytes((fixed | size,))
    if size < 0x10000:
        return bytes((long,)) + size.to_bytes(2, "big")
    return bytes((long + 1,)) + size.to_bytes(4, "big")


class ViewFrames:
    """The ``view`` frames of one change, one per seat, packing what the seats share once.

    A game builds its public parts once per state, so keys whose values are the
    very same object in every view (and events shown alike) are packed once.
    Each frame is byte for byte ``encode`` of the ``view`` message it stands for.
    """

    def __init__(self, version: int, views: Sequence[dict[str, Any]], now: float) -> None:
        self._pack = msgpack.Packer(use_bin_type=True).pack
        self._head = _header(_MAP, 5) + self._items(["t", VIEW, "version", version, "view"])
        self._events_key: bytes = self._pack("events")
        self._tail = self._items(["now", now])
        self._events: dict[int, bytes] = {}
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
        return packed[len(_header(_ARRAY, len(items))) :]

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
        self._map_header = _header(_MAP, len(keys))
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
        parts = [b"", self._head, *self._view(view), self._events_key, _header(_ARRAY, len(events))]
        parts.extend(events)
        parts.append(self._tail)
        parts[0] = HEADER.pack(sum(map(len, parts)))
        return b"".join(parts)
