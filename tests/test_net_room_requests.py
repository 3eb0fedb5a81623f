"""Every client message is answered by exactly one place: the host's lobby or a room handler."""

from __future__ import annotations

from partyhost.net import protocol as p
from partyhost.net.hosting.connection import LOBBY_REQUESTS
from partyhost.net.rooms.room import HANDLERS

CONNECTION_ONLY = {p.PING, p.PONG}
"""Answered by the connection itself, never queued."""


def test_every_client_message_for_a_room_has_one_room_handler() -> None:
    for_rooms = set(p.CLIENT_MESSAGES) - LOBBY_REQUESTS - CONNECTION_ONLY
    assert set(HANDLERS) == for_rooms


def test_no_message_is_both_a_lobby_request_and_a_room_request() -> None:
    assert not LOBBY_REQUESTS & set(HANDLERS)
    assert set(p.CLIENT_MESSAGES) >= LOBBY_REQUESTS
