"""Lobby requests: what the host answers itself rather than passing to a room.

A connection's worker hands its lobby requests here
(``connection.LOBBY_REQUESTS``): hello, listing rooms and decks, creating or
joining a room, taking a seat back by its token, and the past-games requests.
A refusal is a ``Refused`` (or ``DeckNotFound``), sent to the asker as
an ``error``.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from partyhost.net import protocol as p
from partyhost.net.addresslimits import AddressLimits, PasswordThrottle
from partyhost.net.config import HostConfig
from partyhost.net.credentials import hash_password, token_hash, verify_password
from partyhost.net.deckshelf import DeckNotFound
from partyhost.net.hosting.connection import Connection
from partyhost.net.hosting.lobby import Lobby, find_game
from partyhost.net.names import clean_name
from partyhost.net.rooms.roomqueue import Join, Refused, Resume
from partyhost.net.store import pastgames
from partyhost.net.store.pastgames import PastGames


class LobbyHost(Protocol):
    """What answering lobby requests needs of the host (:class:`.host.Host`)."""

    @property
    def config(self) -> HostConfig: ...

    @property
    def lobby(self) -> Lobby | None: ...

    @property
    def past_games(self) -> PastGames | None: ...

    @property
    def passwords(self) -> PasswordThrottle: ...

    @property
    def address_limits(self) -> AddressLimits: ...

    @property
    def host_id(self) -> str: ...


async def handle(host: LobbyHost, connection: Connection, message: dict[str, Any]) -> None:
    """Answer one lobby request of ``connection``."""
    kind = message["t"]
    try:
        if kind == p.HELLO:
            _hello(host, connection, message)
        elif kind == p.LIST_ROOMS:
            assert host.lobby is not None
            connection.send({"t": p.ROOMS, "rooms": host.lobby.listing()}, journaled=False)
        elif kind == p.LIST_DECKS:
            assert host.lobby is not None
            listing = {"t": p.DECKS, "decks": host.lobby.shelf.listing()}
            connection.send(listing, journaled=False)
        elif kind == p.CREATE_ROOM:
            await _create_room(host, connection, message)
        elif kind == p.RESUME_SEAT:
            _resume_seat(host, connection, message["token"])
        elif kind in pastgames.REQUESTS:
            assert host.past_games is not None
            await host.past_games.handle(connection, message)
        else:
            await _join_room(host, connection, message)
    except Refused as refused:
        connection.send(p.error(refused.code, refused.message), journaled=False)
    except DeckNotFound as refused:
        connection.send(refused.frame(), journaled=False)


def _hello(host: LobbyHost, connection: Connection, message: dict[str, Any]) -> None:
    assert host.lobby is not None
    connection.name = clean_name(message["name"], host.config.max_name_length)
    token = message.get("token")
    seat = host.lobby.seat_for(token_hash(token)) if token else None
    connection.send(
        {
            "t": p.WELCOME,
            "protocol": p.PROTOCOL_VERSION,
            "host": host.config.display_name,
            "host_id": host.host_id,
            "resumed": seat is not None,
            "games": host.lobby.games(),
            "limits": p.welcome_limits(host.config),
            "waiting_seats": [] if seat else host.lobby.waiting_seats(connection.name),
        },
        journaled=False,
    )
    if token:
        _resume_seat(host, connection, token)


def _resume_seat(host: LobbyHost, connection: Connection, token: str) -> None:
    """Back to a seat by its token (``resume_seat``, or a hello with the token)."""
    assert host.lobby is not None
    _not_in_a_room(connection)
    seat = host.lobby.seat_for(token_hash(token))
    if seat is None:
        raise Refused("token_unknown", "That seat token matches no seat here.")
    room, member_id = seat
    connection.room = room
    room.post(Resume(connection, member_id, token))


def _not_in_a_room(connection: Connection) -> None:
    if connection.room is not None:
        raise Refused("already_in_room", "Leave your current room first.")


async def _create_room(host: LobbyHost, connection: Connection, message: dict[str, Any]) -> None:
    assert host.lobby is not None
    _not_in_a_room(connection)
    host.lobby.check_room_limit()
    _check_rooms_of(host, connection.peer_host)
    game = find_game(message["game"])
    options = message.get("options") or {}
    try:
        game.rules_for(options)
    except Exception as bad:
        raise Refused("bad_option", str(bad)) from None
    table_deck = await asyncio.to_thread(host.lobby.shelf.for_request, game, message)
    password = message.get("password")
    password_hash = await asyncio.to_thread(hash_password, password) if password else None
    if connection.closed:
        return  # it went away while we hashed and read files
    _not_in_a_room(connection)  # it may have joined elsewhere meanwhile
    _check_rooms_of(host, connection.peer_host)
    takeover = message.get("bot_takeover")
    room = host.lobby.create(
        game,
        table_deck,
        options,
        password_hash,
        True if takeover is None else takeover,
        creator=connection.peer_host,
    )
    connection.room = room
    room.post(Join(connection, spectate=False))


def _check_rooms_of(host: LobbyHost, address: str) -> None:
    assert host.lobby is not None
    host.lobby.check_rooms_of(address, host.address_limits.rooms_allowed(address))


async def _join_room(host: LobbyHost, connection: Connection, message: dict[str, Any]) -> None:
    assert host.lobby is not None
    _not_in_a_room(connection)
    room = host.lobby.find(message["code"])
    if room.password_hash is not None:
        address = connection.peer_host
        await asyncio.sleep(host.passwords.wait_before_try(address))
        given = message.get("password") or ""
        if not await asyncio.to_thread(verify_password, given, room.password_hash):
            host.passwords.failed(address, room.code)
            raise Refused("wrong_password", "That is not the room's password.")
    if connection.closed:
        return
    _not_in_a_room(connection)
    connection.room = room
    room.post(Join(connection, spectate=bool(message.get("spectate"))))
