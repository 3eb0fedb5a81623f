"""What every client shares: the errors, and one typed method per client message.

:class:`RequestMethods` is the only place a client builds a message: one
method per type in :data:`partyhost.net.protocol.CLIENT_MESSAGES`, with every
field the host accepts (a test holds the two in step). What a method does
with the message is its class's ``send``: the connections send it
(:class:`Requests`), the terminal client queues it from the UI, and
:data:`build` just returns it. Split from :mod:`partyhost.net.client` (which
re-exports everything here) so each module stays readable.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable
from typing import Any, Generic, TypeVar

from partyhost.net import protocol as p

Message = dict[str, Any]
Sent = TypeVar("Sent")
"""What a class's ``send`` returns, and so every request method (an awaitable, a flag...)."""


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


class RequestMethods(Generic[Sent]):
    """One method per client message; optional fields left at ``None`` are not sent."""

    def send(self, message: Message) -> Sent:
        raise NotImplementedError

    def _send_with(self, kind: str, **fields: Any) -> Sent:
        return self.send({"t": kind, **{k: v for k, v in fields.items() if v is not None}})

    def hello(
        self, protocol: int, name: str, client: str | None = None, token: str | None = None
    ) -> Sent:
        """The first message of a connection (``connect`` sends it; a second is refused)."""
        return self._send_with(p.HELLO, protocol=protocol, name=name, client=client, token=token)

    def ping(self, n: int | None = None) -> Sent:
        return self._send_with(p.PING, n=n)

    def pong(self, n: int | None = None) -> Sent:
        """The answer to the host's ``ping`` (the connections send it by themselves)."""
        return self._send_with(p.PONG, n=n)

    def list_rooms(self) -> Sent:
        return self._send_with(p.LIST_ROOMS)

    def list_decks(self) -> Sent:
        """Every deck file of the host, broken ones too; the host answers ``decks``."""
        return self._send_with(p.LIST_DECKS)

    def create_room(
        self,
        game: str,
        deck: str | None = None,
        options: dict[str, Any] | None = None,
        password: str | None = None,
        bot_takeover: bool | None = None,
        decks: list[str] | None = None,
        deck_files: list[dict[str, str]] | None = None,
    ) -> Sent:
        """A new room; ``decks`` plays several of the host's decks together and
        ``deck_files`` sends decks from this computer, ``{"name", "text"}`` each
        (:func:`partyhost.net.deckupload.read_deck_files` reads them)."""
        return self._send_with(
            p.CREATE_ROOM,
            game=game,
            deck=deck,
            decks=decks,
            deck_files=deck_files,
            options=options,
            password=password,
            bot_takeover=bot_takeover,
        )

    def join_room(self, code: str, password: str | None = None, spectate: bool = False) -> Sent:
        return self._send_with(
            p.JOIN_ROOM, code=code, password=password, spectate=True if spectate else None
        )

    def resume_seat(self, token: str) -> Sent:
        """Back to the seat a token from ``joined`` names (as ``hello``'s token does)."""
        return self._send_with(p.RESUME_SEAT, token=token)

    def leave_room(self) -> Sent:
        return self._send_with(p.LEAVE_ROOM)

    def set_ready(self, ready: bool = True) -> Sent:
        return self._send_with(p.SET_READY, ready=ready)

    def set_options(self, options: dict[str, Any], bot_takeover: bool | None = None) -> Sent:
        return self._send_with(p.SET_OPTIONS, options=options, bot_takeover=bot_takeover)

    def start_game(self) -> Sent:
        return self._send_with(p.START_GAME)

    def kick(self, seat: int) -> Sent:
        return self._send_with(p.KICK, seat=seat)

    def add_bot(self, level: str | None = None) -> Sent:
        """An in-host bot: ``easy``, ``normal`` or ``hard`` (None: the host's default)."""
        return self._send_with(p.ADD_BOT, level=level)

    def remove_bot(self, seat: int) -> Sent:
        return self._send_with(p.REMOVE_BOT, seat=seat)

    def replace_with_bot(self, seat: int) -> Sent:
        """The owner has a bot play a disconnected or away player's seat now."""
        return self._send_with(p.REPLACE_WITH_BOT, seat=seat)

    def give_ownership(self, seat: int) -> Sent:
        return self._send_with(p.GIVE_OWNERSHIP, seat=seat)

    def pause_game(self) -> Sent:
        return self._send_with(p.PAUSE_GAME)

    def resume_game(self) -> Sent:
        return self._send_with(p.RESUME_GAME)

    def chat(self, text: str) -> Sent:
        return self._send_with(p.CHAT, text=text)

    def play(self, cmd: dict[str, Any], ref: int | None = None) -> Sent:
        """A game command, one of the view's ``legal`` templates (``ref`` comes back in errors)."""
        return self._send_with(p.PLAY, cmd=cmd, ref=ref)

    def list_past_games(self, night: str | None = None) -> Sent:
        """The games the host kept (``past_games``), of one night (``YYYY-MM-DD``) or all."""
        return self._send_with(p.LIST_PAST_GAMES, night=night)

    def get_replay(self, id: int, first: int | None = None, count: int | None = None) -> Sent:
        """A page of past game ``id``'s replay (``replay``) from step ``first`` (default 0)."""
        return self._send_with(p.GET_REPLAY, id=id, first=first, count=count)

    def get_standings(self, night: str | None = None) -> Sent:
        """A night's standings (``standings``; default tonight's)."""
        return self._send_with(p.GET_STANDINGS, night=night)

    def seen(self) -> Sent:
        """This player has read the round's result (the room's ``pause`` waits for it)."""
        return self._send_with(p.SEEN)


class MessageBuilder(RequestMethods[Message]):
    """The messages themselves, sent nowhere: ``build.add_bot("hard")``."""

    def send(self, message: Message) -> Message:
        return message


build = MessageBuilder()
"""Every client message as a value (handshakes, tests, tools that write frames themselves)."""


class Requests(RequestMethods[Awaitable[None]]):
    """What both connection classes share: every request awaits its ``send``, and
    ``async for message in client`` runs over :meth:`recv`, ending when the link does."""

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
