"""The maps with declared keys that host messages carry, field by field.

A host message's field whose type is ``shaped("name")`` holds one of these
maps (or an array of them). They are declared apart from the messages
themselves (:data:`~partyhost.net.hostmessages.HOST_MESSAGES`) because
several messages share them; the tests check received frames against both and
``docs/protocol.md``'s tables of inner maps are generated from these.
"""

from __future__ import annotations

from typing import Final

from partyhost.net.messages import (
    ANY,
    BOOL,
    FLOAT,
    INT,
    MAP,
    STR,
    Fields,
    array_of,
    nil_or,
    shaped,
    spec,
    text,
)

HOST_TIME: Final = "seconds since the Unix epoch on the host's clock"
"""How a host message's times are told: the words every time field's description ends with."""

SHAPES: Final[dict[str, Fields]] = {
    "game": {
        "id": spec(STR, "the id `create_room` takes"),
        "name": spec(STR, "the game's name"),
        "min_players": spec(INT, "the fewest players it starts with"),
        "max_players": spec(INT, "the most players it seats"),
        "deck_game": spec(STR, "the `game:` its deck files declare"),
        "default_deck": spec(STR, "the deck a room gets when it names none"),
        "options": spec(array_of(shaped("option")), "the rule options a room may set"),
        "joins_mid_game": spec(BOOL, "whether players may join once the game has started"),
        "decks": spec(array_of(shaped("deck")), "its usable decks on this host (`problem` nil)"),
    },
    "option": {
        "name": spec(STR, "the key in `options`"),
        "label": spec(STR, "a short label for people"),
        "kind": spec(STR, "`int`, `bool` or `choice`"),
        "default": spec(ANY, "the value when the room sets none (int, bool, str or nil)"),
        "help": spec(STR, "a sentence for people"),
        "min": spec(nil_or(INT), "the smallest `int` allowed"),
        "max": spec(nil_or(INT), "the largest `int` allowed"),
        "choices": spec(array_of(STR), "the values a `choice` takes"),
        "allow_none": spec(BOOL, 'whether nil (shown as "off") is allowed too'),
    },
    "deck": {
        "name": spec(STR, "the file name without `.yaml`: what `create_room.deck` takes"),
        "title": spec(STR, "the deck's `name:` (the file name if it has none)"),
        "description": spec(STR, "a sentence about it; may be empty"),
        "game": spec(nil_or(STR), "the `game:` it declares (a `deck_game`); nil if unreadable"),
        "source": spec(STR, "`shipped` or `host` (one of the host's deck folders)"),
        "cards": spec(MAP, 'cards per section, e.g. `{"slogans": 160, "tshirts": 70}`'),
        "samples": spec(array_of(STR), "a few cards, one short line each"),
        "problem": spec(
            nil_or(STR), "why it cannot be used (`file:line:column: ...`); nil when usable"
        ),
    },
    "deck problem": {
        "file": spec(STR, "the file's name as sent (or the host's file)"),
        "line": spec(INT, "the line, from 1"),
        "column": spec(INT, "the column, from 1"),
        "message": spec(STR, "what is wrong, and what would be right"),
    },
    "room deck": {
        "name": spec(STR, "the deck's name"),
        "title": spec(STR, "its title"),
        "source": spec(STR, "`host` or `upload` (sent with `create_room`)"),
    },
    "past game": {
        "id": spec(INT, "the game's number (what `get_replay` takes)"),
        "room": spec(STR, "the room's code"),
        "game": spec(STR, "the game's id"),
        "game_name": spec(STR, "the game's name"),
        "deck": spec(STR, "the deck's name"),
        "status": spec(STR, "`over`, or `playing` (listed, not replayed)"),
        "started": spec(FLOAT, f"when it started, {HOST_TIME}"),
        "ended": spec(nil_or(FLOAT), "when it ended; nil while it runs"),
        "night": spec(nil_or(STR), "the night it ended in (`YYYY-MM-DD`)"),
        "players": spec(array_of(shaped("past player")), "who played"),
        "results": spec(array_of(shaped("result")), "each seat's result, once it is over"),
    },
    "replay info": {
        "id": spec(INT, "the game's number (what `get_replay` takes)"),
        "room": spec(STR, "the room's code"),
        "game": spec(STR, "the game's id"),
        "game_name": spec(STR, "the game's name"),
        "deck": spec(STR, "the deck's name"),
        "status": spec(STR, "`over`, or `playing` (listed, not replayed)"),
        "started": spec(FLOAT, f"when it started, {HOST_TIME}"),
        "ended": spec(nil_or(FLOAT), "when it ended; nil while it runs"),
        "night": spec(nil_or(STR), "the night it ended in (`YYYY-MM-DD`)"),
        "players": spec(array_of(shaped("past player")), "who played"),
        "results": spec(array_of(shaped("result")), "each seat's result, once it is over"),
        "steps": spec(INT, "how many steps in all"),
        "rounds": spec(array_of(INT), "the first step of each round"),
    },
    "past player": {
        "seat": spec(INT, "the seat"),
        "name": spec(STR, "the player's name"),
        "bot": spec(BOOL, "an in-host bot"),
    },
    "result": {
        "seat": spec(INT, "the seat"),
        "name": spec(STR, "the player's name"),
        "bot": spec(BOOL, "an in-host bot"),
        "won": spec(BOOL, "one of the winners"),
        "points": spec(nil_or(INT), "points scored, in games that keep them"),
        "money": spec(nil_or(INT), "money held, in games that keep it"),
    },
    "replay step": {
        "step": spec(INT, "the step's number (0: the game as dealt)"),
        "version": spec(INT, "the game state's version after it"),
        "round": spec(ANY, "the round it belongs to, as the game's view names it"),
        "kind": spec(STR, "`setup`, `move`, `system` or `timer`"),
        "seat": spec(nil_or(INT), "who moved (-1: the host's seat change)"),
        "command": spec(nil_or(MAP), "the command applied"),
        "at": spec(nil_or(FLOAT), f"when, {HOST_TIME}"),
        "events": spec(array_of(MAP), "what it caused, each as the log tells it"),
        "private": spec(
            array_of(MAP), "what single seats were told besides: `{event, seat, fields}`"
        ),
        "view": spec(MAP, "the game's replay view: the table with nothing hidden"),
    },
    "standing": {
        "name": spec(STR, "the player's name"),
        "bot": spec(BOOL, "an in-host bot"),
        "played": spec(INT, "games played"),
        "won": spec(INT, "games won"),
        "games": spec(array_of(MAP), "per game id: `{game, played, won}`"),
        "points": spec(nil_or(INT), "points over the games that keep them"),
        "money": spec(nil_or(INT), "money over the games that keep it"),
    },
    "deck file": {
        "name": spec(text(255), "the file's name: shown in messages, never a path on the host"),
        "text": spec(STR, "the whole file as text"),
    },
    "limits": {
        "max_frame": spec(INT, "largest client frame body, in bytes"),
        "max_name": spec(INT, "characters a name is cut to"),
        "max_chat": spec(INT, "characters a chat line is cut to"),
        "max_password": spec(INT, "characters a password may have"),
        "chat_per_second": spec(FLOAT, "chat lines a second, on average"),
        "chat_burst": spec(INT, "chat lines at once"),
        "messages_per_second": spec(FLOAT, "messages a second, on average"),
        "message_burst": spec(INT, "messages at once"),
        "heartbeat_interval": spec(FLOAT, "seconds between the host's pings"),
        "heartbeat_misses": spec(INT, "intervals of silence after which you are dropped"),
        "grace_seconds": spec(FLOAT, "seconds a dropped player keeps their seat as it was"),
        "ghost_grace_seconds": spec(
            FLOAT, "the same for a player who joined mid-game and has not acted yet"
        ),
        "max_unsent_bytes": spec(INT, "bytes queued for you past which you are dropped"),
    },
    "seat": {
        "seat": spec(INT, "the seat number"),
        "name": spec(STR, "the member's name"),
        "ready": spec(BOOL, "set to go (bots always are)"),
        "bot": spec(BOOL, "an in-host bot"),
        "bot_level": spec(nil_or(STR), "a bot's `easy`, `normal` or `hard`; nil for a person"),
        "connected": spec(BOOL, "connected now (bots always are)"),
        "away": spec(BOOL, "gone past the grace period"),
        "stand_in": spec(BOOL, "a bot plays this away seat"),
        "left": spec(BOOL, "a player who left during the game (listed until it ends)"),
        "presence": spec(
            STR, "`connected`, `disconnected` (within the grace), `away` (past it) or `gone`"
        ),
        "grace_left": spec(nil_or(FLOAT), "seconds of grace left while disconnected, else nil"),
    },
    "pause": {
        "by": spec(STR, "the name of who paused"),
        "at": spec(FLOAT, f"when, {HOST_TIME}"),
    },
    "result pause": {
        "until": spec(FLOAT, f"when the table goes on by itself, {HOST_TIME}"),
        "waiting": spec(array_of(INT), "the seats of the people who have not sent `seen` yet"),
        "at": spec(FLOAT, f"where the game's clock stands meanwhile, {HOST_TIME}"),
    },
    "waiting seat": {
        "code": spec(STR, "the room's code"),
        "game": spec(STR, "the game's id"),
        "game_name": spec(STR, "the game's name"),
        "status": spec(STR, "`lobby`, `playing` or `over`"),
        "has_password": spec(BOOL, "whether taking it back takes the room password"),
        "seat": spec(INT, "the seat"),
        "name": spec(STR, "the name it is held under"),
    },
    "room summary": {
        "code": spec(STR, "the code `join_room` takes"),
        "game": spec(STR, "the game's id"),
        "game_name": spec(STR, "the game's name"),
        "deck": spec(STR, "the deck's name"),
        "seats": spec(INT, "seated members"),
        "max_seats": spec(INT, "the game's most players"),
        "status": spec(STR, "`lobby`, `playing` or `over`"),
        "has_password": spec(BOOL, "whether joining takes a password"),
        "owner_name": spec(nil_or(STR), "the owner's name"),
        "spectators": spec(INT, "how many watch"),
    },
}
"""The maps with declared keys inside host messages, by the name their type gives."""
