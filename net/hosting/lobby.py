"""The lobby: the rooms by code, the seat-token index, and the requests the host answers
itself rather than passing to a room.

It never awaits in the middle of a change, so it needs no locks; slow work (deck
files, password hashing) runs in threads before the lobby is touched.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

from partyhost.engine.registry import all_games, get_game
from partyhost.net import protocol as p
from partyhost.net.addresslimits import AddressLimits, PasswordThrottle
from partyhost.net.config import HostConfig
from partyhost.net.credentials import hash_password, token_hash, verify_password
from partyhost.net.deckshelf import DeckShelf, TableDeck
from partyhost.net.hosting.connection import Connection
from partyhost.net.names import clean_name, written_name
from partyhost.net.protocol import Refused
from partyhost.net.rooms.room import Room
from partyhost.net.rooms.roomqueue import CloseRoom, Join, Observer, Outgoing, Resume, Stop
from partyhost.net.store import pastgames
from partyhost.net.store.database import Store
from partyhost.net.store.pastgames import PastGames
from partyhost.net.store.records import RoomRecord

log = logging.getLogger(__name__)


class Lobby:
    """Every open room, the seat-token index used by reconnecting players, and the
    answers to lobby requests."""

    def __init__(
        self,
        config: HostConfig,
        store: Store,
        shelf: DeckShelf,
        outgoing: Outgoing,
        observer: Observer,
        *,
        host_id: str,
        address_limits: AddressLimits,
        passwords: PasswordThrottle,
    ) -> None:
        self.config = config
        self.store = store
        self.shelf = shelf
        self.host_id = host_id
        """Stable across restarts on one data folder (``welcome.host_id``)."""
        self.web_door: str | None = None
        """The browser door's URL once it is open (``welcome.web_door``), set by the host."""
        self._address_limits = address_limits
        self._passwords = passwords
        self.past_games = PastGames(store, config, passwords)
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
        code, member_id = self._tokens.get(token_hash, ("", 0))
        room = self.rooms.get(code)
        return None if room is None or room.closed else (room, member_id)

    def task_of(self, room: Room) -> asyncio.Task[None] | None:
        """The task running ``room`` (None once it closed)."""
        return self._tasks.get(room)

    def find(self, code: str) -> Room:
        room = self.rooms.get(code.strip().upper())
        if room is None or room.closed:
            raise Refused("no_such_room", f"No open room has the code {code.strip()!r}.")
        return room

    def _check_room_limits(self, address: str) -> None:
        """Refused when the host has its maximum of rooms, or ``address`` as many open rooms
        it created as it may."""
        if len(self.rooms) >= self.config.max_rooms:
            raise Refused(
                "too_many_rooms", f"This host has its maximum of {self.config.max_rooms} rooms."
            )
        allowed = self._address_limits.rooms_allowed(address)
        if sum(creator == address for creator in self._creators.values()) >= allowed:
            raise Refused(
                "too_many_rooms",
                f"Your address {address} already has {allowed} open room(s), this host's limit;"
                " close one (everyone leaves it) or join a room instead.",
            )

    def room_listing(self) -> list[dict[str, Any]]:
        """Every open room's summary and the address that created it (the host's console)."""
        return [{**room, "creator": self._creators.get(room["code"])} for room in self.listing()]

    def close_room(self, code: str) -> bool:
        """Close room ``code`` for everyone in it (the host's console); False if none is open."""
        try:
            room = self.find(code)
        except Refused:
            return False
        room.post(CloseRoom())
        return True

    def listing(self) -> list[dict[str, Any]]:
        return [room.summary() for room in self.rooms.values() if not room.closed]

    # --- creating and restoring rooms ------------------------------------------

    def _new_code(self) -> str:
        """A free room code, of letters nobody misreads."""
        for _ in range(1000):
            code = "".join(secrets.choice(p.ROOM_CODE_LETTERS) for _ in range(p.ROOM_CODE_LENGTH))
            if code not in self.rooms:
                return code
        raise Refused("too_many_rooms", "No free room code; try again later.")

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
            for member in (*room.members, *room.waiting):
                if member.token_hash is not None and not member.left:
                    self.remember_token(member.token_hash, code, member.member_id)
            self._open(room, table_deck)
        return len(self.rooms)

    def _open(self, room: Room, table_deck: TableDeck) -> None:
        self.rooms[room.code] = room
        self._table_decks[room.code] = table_deck
        task = room.run(self._outgoing, self._observer)
        self._tasks[room] = asyncio.get_running_loop().create_task(task, name=f"room {room.code}")

    async def stop(self, timeout: float) -> None:
        """Stop every room task (the store keeps the rooms); cancel any that lingers."""
        for room in self.rooms.values():
            room.post(Stop())
        tasks = list(self._tasks.values())  # (a room's task goes with the room)
        if not tasks:
            return
        _, lingering = await asyncio.wait(tasks, timeout=timeout)
        for task in lingering:
            task.cancel()
        if lingering:
            await asyncio.wait(lingering, timeout=timeout)

    # --- lobby requests ----------------------------------------------------------

    async def handle(self, connection: Connection, message: dict[str, Any]) -> None:
        kind = message["t"]
        try:
            if kind == p.HELLO:
                self._hello(connection, message)
            elif kind == p.LIST_ROOMS:
                connection.send({"t": p.ROOMS, "rooms": self.listing()}, journaled=False)
            elif kind == p.LIST_DECKS:
                connection.send({"t": p.DECKS, "decks": self.shelf.listing()}, journaled=False)
            elif kind == p.CREATE_ROOM:
                await self._create_room(connection, message)
            elif kind == p.RESUME_SEAT:
                self._resume_seat(connection, message["token"])
            elif kind in pastgames.REQUESTS:
                await self.past_games.handle(connection, message)
            else:
                await self._join_room(connection, message)
        except Refused as refused:  # a deck's problems too (DeckNotFound)
            connection.send(refused.frame(), journaled=False)

    def _hello(self, connection: Connection, message: dict[str, Any]) -> None:
        connection.name = clean_name(message["name"], self.config.max_name_length)
        connection.written_name = written_name(message["name"], self.config.max_name_length)
        token = message.get("token")
        seat = self.seat_for(token_hash(token)) if token else None
        connection.send(
            {
                "t": p.WELCOME,
                "protocol": p.PROTOCOL_VERSION,
                "host": self.config.display_name,
                "host_id": self.host_id,
                "resumed": seat is not None,
                "games": [g.describe() | {"decks": self.shelf.for_game(g)} for g in all_games()],
                "limits": self.config.welcome_limits(),
                "web_door": self.web_door,
            },
            journaled=False,
        )
        if token:
            self._resume_seat(connection, token)

    def _resume_seat(self, connection: Connection, token: str) -> None:
        """Back to a seat by its token (``resume_seat``, or a hello with the token)."""
        _not_in_a_room(connection)
        seat = self.seat_for(token_hash(token))
        if seat is None:
            raise Refused("token_unknown", "That seat token matches no seat here.")
        room, member_id = seat
        connection.room = room
        room.post(Resume(connection, member_id, token))

    async def _create_room(self, connection: Connection, message: dict[str, Any]) -> None:
        """A new room; the creator joins it next through its queue."""
        _not_in_a_room(connection)
        self._check_room_limits(connection.peer_host)
        try:
            game = get_game(message["game"])
        except KeyError:
            known = ", ".join(game.id for game in all_games())
            raise Refused(
                "unknown_game", f"No game {message['game']!r}; this host has: {known}."
            ) from None
        options = message.get("options") or {}
        try:
            game.rules_for(options)
        except Exception as bad:
            raise Refused("bad_option", str(bad)) from None
        table_deck = await asyncio.to_thread(self.shelf.for_request, game, message)
        password = message.get("password")
        password_hash = await asyncio.to_thread(hash_password, password) if password else None
        if connection.closed:
            return  # it went away while we hashed and read files
        _not_in_a_room(connection)  # it may have joined elsewhere meanwhile
        self._check_room_limits(connection.peer_host)
        code = self._new_code()
        takeover = message.get("bot_takeover")
        record = RoomRecord(
            code=code,
            game=game.id,
            deck_name=table_deck.name,
            deck_data=table_deck.data,
            options=options,
            password_hash=password_hash,
            bot_takeover=True if takeover is None else takeover,
            owner=None,
            status=p.LOBBY,
            next_member=0,
            created=time.time(),
        )
        room = Room(self, record, game, table_deck.deck)
        room.save()
        self._creators[code] = connection.peer_host
        self._open(room, table_deck)
        connection.room = room
        room.post(Join(connection, spectate=False))

    async def _join_room(self, connection: Connection, message: dict[str, Any]) -> None:
        _not_in_a_room(connection)
        room = self.find(message["code"])
        if room.password_hash is not None:
            address = connection.peer_host
            await asyncio.sleep(self._passwords.wait_before_try(address))
            given = message.get("password") or ""
            if not await asyncio.to_thread(verify_password, given, room.password_hash):
                self._passwords.failed(address, room.code)
                raise Refused("wrong_password", "That is not the room's password.")
        if connection.closed:
            return
        _not_in_a_room(connection)
        connection.room = room
        room.post(Join(connection, spectate=bool(message.get("spectate"))))


def _not_in_a_room(connection: Connection) -> None:
    if connection.room is not None:
        raise Refused("already_in_room", "Leave your current room first.")
