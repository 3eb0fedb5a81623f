"""What the host sends, field by field, and the maps inside its messages.

The counterpart of :data:`~partyhost.net.messages.CLIENT_MESSAGES` for the
other direction. The host does not check its own frames against these at run
time; the tests do (:func:`host_problems` on every frame they receive) and
``docs/protocol.md``'s tables are generated from them, so a field added,
dropped or retyped in the host's messages shows up in both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Protocol

from partyhost.net.hostshapes import HOST_TIME, SHAPES
from partyhost.net.messages import (
    ACCEPTED,
    BOOL,
    BYE,
    CHAT_LINE,
    DECKS,
    ERROR,
    FLOAT,
    INT,
    JOINED,
    LEFT,
    MAP,
    MAX_PASSWORD_LENGTH,
    NOTICE,
    PAST_GAMES,
    PING,
    PONG,
    REPLAY,
    ROOM,
    ROOMS,
    STANDINGS,
    STR,
    VIEW,
    WELCOME,
    Fields,
    array_of,
    nil_or,
    shaped,
    spec,
)


class LimitSettings(Protocol):
    """The host settings ``welcome.limits`` reports (``HostConfig`` has them all)."""

    max_client_frame: int
    max_name_length: int
    max_chat_length: int
    chat_per_second: float
    chat_burst: int
    messages_per_second: float
    message_burst: int
    heartbeat_interval: float
    heartbeat_misses: int
    grace_seconds: float
    ghost_grace_seconds: float
    max_unsent_bytes: int


# --- host messages ---------------------------------------------------------

HOST_MESSAGES: Final[dict[str, Fields]] = {
    WELCOME: {
        "protocol": spec(INT, "the host's protocol version"),
        "host": spec(STR, "the host's name"),
        "host_id": spec(STR, "stays the same across restarts of this host's data folder"),
        "resumed": spec(BOOL, "whether `hello.token` took you back to a seat"),
        "games": spec(array_of(shaped("game")), "every game this host runs"),
        "limits": spec(shaped("limits"), "the host's limits (see Limits)"),
        "waiting_seats": spec(
            array_of(shaped("waiting seat")),
            "seats held for a person of your name who is not connected (joining takes one back)",
        ),
    },
    ERROR: {
        "code": spec(STR, "stable; see Error codes (a refused `play` gives the game's own code)"),
        "message": spec(STR, "a sentence for people"),
        "ref": spec(INT, "the request's `ref`, when it had one", False),
        "host_protocol": spec(INT, "with `protocol_mismatch` only: the host's version", False),
        "client_protocol": spec(INT, "with `protocol_mismatch` only: yours", False),
        "problems": spec(
            array_of(shaped("deck problem")),
            "with `bad_deck` for a deck that failed its checks: each problem (at most 50)",
            False,
        ),
    },
    ACCEPTED: {
        "ref": spec(INT, "the `ref` of your `play`, which the game accepted"),
        "version": spec(INT, "the game's version after it; the `view` showing it comes next"),
    },
    ROOMS: {"rooms": spec(array_of(shaped("room summary")), "every open room")},
    DECKS: {
        "decks": spec(
            array_of(shaped("deck")),
            "every deck file in the host's deck folders, in search order, broken ones too",
        )
    },
    JOINED: {
        "code": spec(STR, "the room's code"),
        "seat": spec(nil_or(INT), "your seat; nil when you spectate"),
        "token": spec(nil_or(STR), "your seat token (keep it to come back); nil for spectators"),
    },
    ROOM: {
        "code": spec(STR, "the room's code"),
        "game": spec(STR, "the game's id"),
        "game_name": spec(STR, "the game's name"),
        "deck": spec(STR, "the deck's name (decks played together: their names joined by ` + `)"),
        "decks": spec(array_of(shaped("room deck")), "the decks in play"),
        "options": spec(MAP, "the options as the owner set them"),
        "rules": spec(MAP, "every option, defaults filled in"),
        "bot_takeover": spec(BOOL, "whether a bot plays for an away player"),
        "has_password": spec(BOOL, "whether joining takes a password"),
        "owner": spec(nil_or(INT), "the owner's seat"),
        "you": spec(nil_or(INT), "your seat; nil for spectators"),
        "status": spec(STR, "`lobby`, `playing` or `over`"),
        "seats": spec(array_of(shaped("seat")), "every seated member, in seat order"),
        "spectators": spec(INT, "how many watch"),
        "min_players": spec(INT, "the fewest players the game starts with"),
        "max_players": spec(INT, "the most players the game seats"),
        "paused": spec(nil_or(shaped("pause")), "who paused the game and when; nil while it runs"),
        "pause": spec(
            nil_or(shaped("result pause")),
            "the table stopped to show a round's result: until when, and who has not read it",
        ),
    },
    VIEW: {
        "version": spec(INT, "the game state's version (one more per change)"),
        "view": spec(
            MAP, "your seat's view of the game (spectators: the public one), with `legal`"
        ),
        "events": spec(array_of(MAP), "what just happened, as your seat may see it: `{kind, ...}`"),
        "now": spec(FLOAT, f"when the host sent the frame, {HOST_TIME}"),
    },
    CHAT_LINE: {
        "seat": spec(nil_or(INT), "the speaker's seat; nil for a spectator"),
        "name": spec(STR, "the speaker's name"),
        "text": spec(STR, "the line, cleaned"),
        "at": spec(FLOAT, f"when it was said, {HOST_TIME}"),
    },
    NOTICE: {"text": spec(STR, "an announcement for people; do not parse it")},
    LEFT: {
        "code": spec(STR, "the room you are no longer in"),
        "reason": spec(
            STR,
            "`left`, `kicked`, `removed`, `disconnected`, `replaced`, `room_closed` or"
            " `closed_by_host`",
        ),
    },
    BYE: {"reason": spec(STR, "why the host is closing the connection")},
    PAST_GAMES: {
        "night": spec(nil_or(STR), "the night asked for; nil for every kept night"),
        "games": spec(array_of(shaped("past game")), "newest first, at most 200"),
    },
    REPLAY: {
        "id": spec(INT, "the game's number"),
        "info": spec(
            shaped("replay info"), "the game's `past_games` entry, its step count and rounds"
        ),
        "first": spec(INT, "the number of the first step in `steps`"),
        "steps": spec(array_of(shaped("replay step")), "consecutive steps from `first` on"),
        "total": spec(INT, "steps in the whole replay"),
    },
    STANDINGS: {
        "night": spec(STR, "the night shown, as its evening's date (`YYYY-MM-DD`)"),
        "tonight": spec(STR, "tonight's date the same way"),
        "nights": spec(array_of(STR), "every night with a finished game, oldest first"),
        "rows": spec(array_of(shaped("standing")), "best first"),
    },
    PING: {"n": spec(INT, "answer with `pong` carrying the same `n`")},
    PONG: {"n": spec(INT, "the `n` of your `ping` (0 if it had none)")},
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
        if name not in value:
            if field.required:
                problems.append(f"{where}: missing {name!r}")
            continue
        item = value[name]
        if not field.check(item):
            problems.append(f"{where}.{name}: {item!r} is not {field.type.label}")
            continue
        shape = field.type.shape
        if shape is not None and item is not None:
            items = item if isinstance(item, list) else [item]
            for index, entry in enumerate(items):
                label = f"{where}.{name}[{index}]" if isinstance(item, list) else f"{where}.{name}"
                problems += _map_problems(label, entry, SHAPES[shape])
    return problems


def welcome_limits(
    config: LimitSettings, max_password: int = MAX_PASSWORD_LENGTH
) -> dict[str, Any]:
    """``welcome.limits`` for a host with ``config``: times and rates always as floats."""
    return {
        "max_frame": int(config.max_client_frame),
        "max_name": int(config.max_name_length),
        "max_chat": int(config.max_chat_length),
        "max_password": max_password,
        "chat_per_second": float(config.chat_per_second),
        "chat_burst": int(config.chat_burst),
        "messages_per_second": float(config.messages_per_second),
        "message_burst": int(config.message_burst),
        "heartbeat_interval": float(config.heartbeat_interval),
        "heartbeat_misses": int(config.heartbeat_misses),
        "grace_seconds": float(config.grace_seconds),
        "ghost_grace_seconds": float(config.ghost_grace_seconds),
        "max_unsent_bytes": int(config.max_unsent_bytes),
    }
