"""What both client classes share: their errors and the request helpers.

Split from :mod:`partyhost.net.client` (which re-exports everything here) so
each module stays readable; import from ``partyhost.net.client``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from partyhost.net import protocol as p

Message = dict[str, Any]


class NetError(Exception):
    """Base of the client library's errors."""


class ConnectionFailed(NetError):
    """Could not connect, or the host refused the hello (``code`` says why)."""

    def __init__(self, message: str, code: str = "connect_failed") -> None:
        super().__init__(message)
        self.code = code


class ProtocolMismatch(ConnectionFailed):
    """The host speaks another protocol version; the message names both."""

    def __init__(self, message: str, host_protocol: int | None, client_protocol: int) -> None:
        super().__init__(message, "protocol_mismatch")
        self.host_protocol = host_protocol
        self.client_protocol = client_protocol


class ConnectionLost(NetError):
    """The connection ended (``reason`` says how); nothing more will arrive."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class End:
    """Queued after the last message: the stream is over, for this ``reason``."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


class Requests:
    """What both client classes share: the request helpers (each is one ``send``)
    and ``async for message in client`` over :meth:`recv`, ending when the link does."""

    async def send(self, message: Message) -> None:
        raise NotImplementedError

    async def recv(self) -> Message:
        """The next message; :class:`ConnectionLost` once the stream is over."""
        raise NotImplementedError

    def __aiter__(self) -> AsyncIterator[Message]:
        return self

    async def __anext__(self) -> Message:
        try:
            return await self.recv()
        except ConnectionLost:
            raise StopAsyncIteration from None

    async def list_rooms(self) -> None:
        await self.send({"t": p.LIST_ROOMS})

    async def create_room(
        self,
        game: str,
        deck: str | None = None,
        options: dict[str, Any] | None = None,
        password: str | None = None,
        bot_takeover: bool | None = None,
    ) -> None:
        message: Message = {"t": p.CREATE_ROOM, "game": game}
        for key, value in (
            ("deck", deck),
            ("options", options),
            ("password", password),
            ("bot_takeover", bot_takeover),
        ):
            if value is not None:
                message[key] = value
        await self.send(message)

    async def join_room(
        self, code: str, password: str | None = None, spectate: bool = False
    ) -> None:
        message: Message = {"t": p.JOIN_ROOM, "code": code, "spectate": spectate}
        if password is not None:
            message["password"] = password
        await self.send(message)

    async def leave_room(self) -> None:
        await self.send({"t": p.LEAVE_ROOM})

    async def set_ready(self, ready: bool = True) -> None:
        await self.send({"t": p.SET_READY, "ready": ready})

    async def set_options(self, options: dict[str, Any], bot_takeover: bool | None = None) -> None:
        message: Message = {"t": p.SET_OPTIONS, "options": options}
        if bot_takeover is not None:
            message["bot_takeover"] = bot_takeover
        await self.send(message)

    async def start_game(self) -> None:
        await self.send({"t": p.START_GAME})

    async def kick(self, seat: int) -> None:
        await self.send({"t": p.KICK, "seat": seat})

    async def add_bot(self) -> None:
        await self.send({"t": p.ADD_BOT})

    async def remove_bot(self, seat: int) -> None:
        await self.send({"t": p.REMOVE_BOT, "seat": seat})

    async def chat(self, text: str) -> None:
        await self.send({"t": p.CHAT, "text": text})

    async def play(self, cmd: dict[str, Any], ref: int | None = None) -> None:
        message: Message = {"t": p.PLAY, "cmd": cmd}
        if ref is not None:
            message["ref"] = ref
        await self.send(message)

    async def list_past_games(self, night: str | None = None) -> None:
        """Ask for the games the host kept (``past_games``), of one night or all."""
        message: Message = {"t": p.LIST_PAST_GAMES}
        if night is not None:
            message["night"] = night
        await self.send(message)

    async def get_replay(self, game_id: int, first: int = 0, count: int | None = None) -> None:
        """Ask for a page of a finished game's replay (``replay``) from step ``first``."""
        message: Message = {"t": p.GET_REPLAY, "id": game_id, "first": first}
        if count is not None:
            message["count"] = count
        await self.send(message)

    async def get_standings(self, night: str | None = None) -> None:
        """Ask for a night's standings (``standings``; default tonight's)."""
        message: Message = {"t": p.GET_STANDINGS}
        if night is not None:
            message["night"] = night
        await self.send(message)
