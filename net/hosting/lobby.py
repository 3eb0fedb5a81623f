"""The lobby: which rooms exist, their codes, and which token returns to which seat.

Rooms are found by a 4-letter code made of letters nobody misreads. The lobby
itself runs on the event loop and never awaits in the middle of a change, so
it needs no locks either; slow work (deck files, password hashing) happens in
threads before the lobby is touched.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

from partyhost.engine.core import Game
from partyhost.engine.registry import all_games, get_game
from partyhost.net import protocol as p
from partyhost.net.config import HostConfig
from partyhost.net.deckshelf import DeckShelf, TableDeck
from partyhost.net.rooms import roomtask
from partyhost.net.rooms.outbox import Outgoing
from partyhost.net.rooms.room import Room
from partyhost.net.rooms.roomqueue import CloseRoom, Observer, Refused, Stop
from partyhost.net.store.database import Store
from partyhost.net.store.records import RoomRecord

log = logging.getLogger(__name__)


def find_game(game_id: str) -> Game:
    try:
        return get_game(game_id)
    except KeyError:
        known = ", ".join(game.id for game in all_games())
        raise Refused("unknown_game", f"No game {game_id!r}; this host has: {known}.") from None


class Lobby:
    """Every open room, and the seat-token index used by reconnecting players."""

    def __init__(
        self,
        config: HostConfig,
        store: Store,
        shelf: DeckShelf,
        outgoing: Outgoing,
        observer: Observer,
    ) -> None:
        self.config = config
        self.store = store
        self.shelf = shelf
        self._outgoing = outgoing
        self._observer = observer
        self.rooms: dict[str, Room] = {}
        self._tasks: dict[Room, asyncio.Task[None]] = {}
        self._tokens: dict[str, tuple[str, int]] = {}
        """Seat token hash -> (room code, member id)."""
        self._creators: dict[str, str] = {}
        """Room code -> the address that created the room (rooms made since the host started)."""
        self._table_decks: dict[str, TableDeck] = {}
        """Each room's cards by room code: holding them keeps them shared (see DeckShelf)."""

    # --- RoomServices ------------------------------------------------------

    def remember_token(self, token_hash: str, code: str, member_id: int) -> None:
        self._tokens[token_hash] = (code, member_id)

    def forget_token(self, token_hash: str) -> None:
        self._tokens.pop(token_hash, None)

    def room_closed(self, room: Room) -> None:
        self._tasks.pop(room, None)
        if self.rooms.get(room.code) is not room:
            return
        del self.rooms[room.code]
        self._creators.pop(room.code, None)
        self._table_decks.pop(room.code, None)
        for token, (code, _) in list(self._tokens.items()):
            if code == room.code:
                del self._tokens[token]

    # --- lookups -----------------------------------------------------------

    def seat_for(self, token_hash: str) -> tuple[Room, int] | None:
        found = self._tokens.get(token_hash)
        if found is None:
            return None
        code, member_id = found
        room = self.rooms.get(code)
        if room is None or room.closed:
            return None
        return room, member_id

    def task_of(self, room: Room) -> asyncio.Task[None] | None:
        """The task running ``room`` (None once it closed)."""
        return self._tasks.get(room)

    def find(self, code: str) -> Room:
        room = self.rooms.get(code.strip().upper())
        if room is None or room.closed:
            raise Refused("no_such_room", f"No open room has the code {code.strip()!r}.")
        return room

    def rooms_created_by(self, address: str) -> list[str]:
        """Codes of the open rooms ``address`` created."""
        return [code for code, creator in self._creators.items() if creator == address]

    def check_rooms_of(self, address: str, allowed: int) -> None:
        """Refused when ``address`` already has ``allowed`` open rooms it created."""
        if len(self.rooms_created_by(address)) >= allowed:
            raise Refused(
                "too_many_rooms",
                f"Your address {address} already has {allowed} open room(s), this host's limit;"
                " close one (everyone leaves it) or join a room instead.",
            )

    def creator_of(self, code: str) -> str | None:
        return self._creators.get(code)

    def room_listing(self) -> list[dict[str, Any]]:
        """Every open room's summary and the address that created it (the host's console)."""
        return [{**room, "creator": self.creator_of(room["code"])} for room in self.listing()]

    def close_room(self, code: str) -> bool:
        """Close room ``code`` for everyone in it (the host's console); False if none is open."""
        try:
            room = self.find(code)
        except Refused:
            return False
        room.post(CloseRoom())
        return True

    def waiting_seats(self, name: str) -> list[dict[str, Any]]:
        """Seats held for a person called ``name`` who is not connected, one per room."""
        found = (room.waiting_seat(name) for room in self.rooms.values())
        return [seat for seat in found if seat is not None]

    def listing(self) -> list[dict[str, Any]]:
        return [room.summary() for room in self.rooms.values() if not room.closed]

    def games(self) -> list[dict[str, Any]]:
        """The games this host runs, each with its decks, as ``welcome`` lists them."""
        described = []
        for game in all_games():
            entry = game.describe()
            entry["decks"] = self.shelf.for_game(game)
            described.append(entry)
        return described

    # --- creating and restoring rooms ------------------------------------------

    def new_code(self) -> str:
        for _ in range(1000):
            code = "".join(secrets.choice(p.ROOM_CODE_LETTERS) for _ in range(p.ROOM_CODE_LENGTH))
            if code not in self.rooms:
                return code
        raise Refused("too_many_rooms", "No free room code; try again later.")

    def check_room_limit(self) -> None:
        if len(self.rooms) >= self.config.max_rooms:
            raise Refused(
                "too_many_rooms", f"This host has its maximum of {self.config.max_rooms} rooms."
            )

    def create(
        self,
        game: Game,
        table_deck: TableDeck,
        options: dict[str, Any],
        password_hash: str | None,
        bot_takeover: bool,
        creator: str = "?",
    ) -> Room:
        """A new, empty room (the creator joins it next through its queue)."""
        self.check_room_limit()
        record = RoomRecord(
            code=self.new_code(),
            game=game.id,
            deck_name=table_deck.name,
            deck_data=table_deck.data,
            options=options,
            password_hash=password_hash,
            bot_takeover=bot_takeover,
            owner=None,
            status=p.LOBBY,
            next_member=0,
            created=time.time(),
        )
        room = Room(self, record, game, table_deck.deck)
        room.save()
        self._creators[room.code] = creator
        self._open(room, table_deck)
        return room

    def restore(self) -> int:
        """Rebuild every stored room; returns how many came back."""
        now = time.time()
        for stored in self.store.load():
            code = stored.room.code
            try:
                game = get_game(stored.room.game)
                table_deck = self.shelf.restore(game, stored.room.deck_name, stored.room.deck_data)
                room = Room.restore(self, stored, game, table_deck.deck, now)
            except Exception as error:  # a damaged or foreign room: the others still come back
                self.store.set_aside(code, f"it cannot be rebuilt: {type(error).__name__}: {error}")
                continue
            for member in room.members:
                if member.token_hash is not None and not member.left:
                    self.remember_token(member.token_hash, code, member.member_id)
            self._open(room, table_deck)
        return len(self.rooms)

    def _open(self, room: Room, table_deck: TableDeck) -> None:
        """List ``room`` and start its task."""
        self.rooms[room.code] = room
        self._table_decks[room.code] = table_deck
        self._tasks[room] = roomtask.start(room, self._outgoing, self._observer)

    async def stop(self, timeout: float) -> None:
        """Stop every room task (the store keeps the rooms); cancel any that lingers."""
        tasks = []
        for room in list(self.rooms.values()):
            room.post(Stop())
            task = self._tasks.get(room)
            if task is not None:
                tasks.append(task)
        if not tasks:
            return
        _, lingering = await asyncio.wait(tasks, timeout=timeout)
        for task in lingering:
            task.cancel()
        if lingering:
            await asyncio.wait(lingering, timeout=timeout)
