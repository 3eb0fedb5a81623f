"""What a room tells the game history: a game began, a game ended, a room closed mid-game.

Called from the room's own task at those three moments (and on restore, for
a game that ended just before a crash). Nothing here may take the room down:
a game whose results cannot be read is still kept for its replay.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from partyhost.engine.core import SeatResult
from partyhost.net.history import GameStart
from partyhost.net.historyrows import Player

if TYPE_CHECKING:
    from partyhost.net.room import Room

log = logging.getLogger(__name__)


def _players(room: Room, seats: set[int]) -> list[Player]:
    """Who sat in ``seats`` (people who left included: the seat was theirs)."""
    sitting = [m for m in room.members if m.seat is not None and m.seat in seats]
    return sorted(
        (Player(m.seat, m.name, m.bot) for m in sitting if m.seat is not None),
        key=lambda player: player.seat,
    )


def game_start(room: Room, started: float) -> GameStart | None:
    """The room's current game as the history keeps it (None: no game has started)."""
    if room.seed is None or room.start_seats is None or room.rules is None:
        return None
    return GameStart(
        room=room.code,
        seed=room.seed,
        game=room.game.id,
        deck_name=room.deck_name,
        deck_data=room.deck_data,
        rules=dict(room.rules),
        start_seats=list(room.start_seats),
        started=started,
        players=_players(room, set(room.start_seats)),
    )


def game_started(room: Room, now: float) -> None:
    start = game_start(room, now)
    if start is not None:
        room.services.history.game_started(start)


def game_over(room: Room, now: float) -> None:
    """Keep the room's finished game: its commands for replays, its results for standings.

    The game started and ended when its first and last commands were applied
    (``now`` for a game over before any command), so a game kept late, on
    restore, gets the same times as one kept at once.
    """
    table = room.table
    if table is None:
        return
    started = table.records[0].now if table.records else now
    ended = table.records[-1].now if table.records else now
    start = game_start(room, started)
    if start is None:
        return
    try:
        results: list[SeatResult] = list(room.game.results(table.state))
    except Exception:
        log.exception("room %s: %s could not tell its results", room.code, room.game.id)
        results = []
    players = _players(room, room.game_seats)
    room.services.history.game_over(start, table.records, results, players, ended)


def room_closed(room: Room) -> None:
    """A game cut short by its room closing is never replayed nor counted."""
    if room.seed is not None and room.table is not None and not room.table.over:
        room.services.history.game_abandoned(room.code, room.seed, time.time())
