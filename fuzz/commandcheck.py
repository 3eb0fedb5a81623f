"""What every game promises about a ``play`` command, checked on any input.

A fuzz input picks a prepared mid-game state (see :mod:`tables`), a seat and
a command to start from, and its remaining bytes are msgpack that is decoded
the way the host decodes a frame and laid over that command. The command
then takes the host's path: the ``play`` message is validated, and what
passes goes through the engine's ``apply``. The promises:

* ``apply`` returns a new state and events, or raises ``IllegalMove`` with a
  code; any other exception is a bug (the host would only log it);
* the state given to ``apply`` is never changed, whatever happens;
* an accepted command bumps the version once, keeps every card in exactly one
  place, and leaves views and events the host can send (plain msgpack data,
  text keys) for every seat and spectators;
* replaying the journaled command (msgpack round trip) gives the same state.

Input layout: byte 0 picks the state, byte 1 the seat, byte 2 the starting
command (0: none, the decoded value is the whole command), the rest is msgpack.
"""

from __future__ import annotations

import re
from typing import Any

import msgpack
from partyhost.engine.core import Event, IllegalMove, apply
from partyhost.net import protocol as p
from partyhost.net.protocol import ProtocolError
from tables import Prepared, prepared

OK = "ok"
ILLEGAL = "illegal:"
PROTOCOL = "protocol:"
_CODE = re.compile(r"[a-z][a-z0-9_]*")


def command_input(state: int, seat: int, base: int, body: bytes) -> bytes:
    """The fuzz input for a state index, seat index, base index (0: none) and msgpack body."""
    return bytes((state % 256, seat % 256, base % 256)) + body


def describe(data: bytes) -> dict[str, Any]:
    """What an input means, for people reading the corpus."""
    table, seat, base, overlay = _parse(data)
    return {"state": table.label, "seat": seat, "base": base, "overlay": overlay}


def _parse(data: bytes) -> tuple[Prepared, int, Any, Any]:
    head = data[:3].ljust(3, b"\0")
    tables = prepared()
    table = tables[head[0] % len(tables)]
    seat = table.seats[head[1] % len(table.seats)]
    base = None if head[2] == 0 else table.bases[(head[2] - 1) % len(table.bases)]
    body = data[3:]
    if not body:
        return table, seat, base, {} if base is not None else _decode(b"")
    return table, seat, base, _decode(body)


def _decode(body: bytes) -> Any:
    try:
        return p.decode_body(body)
    except ProtocolError as refused:
        return refused


def check_command(data: bytes) -> str:
    """Run one fuzz input through the host's ``play`` path; return its outcome.

    ``ok``, ``illegal:<code>`` (the game refused it) or ``protocol:<code>``
    (the host refused the frame before the game saw it).
    """
    table, seat, base, overlay = _parse(data)
    if isinstance(overlay, ProtocolError):
        return PROTOCOL + overlay.code
    command = {**base, **overlay} if base is not None and isinstance(overlay, dict) else overlay
    try:
        message = p.validate_client_message({"t": p.PLAY, "cmd": command})
    except ProtocolError as refused:
        assert refused.code in p.ERROR_CODES, refused.code
        return PROTOCOL + refused.code
    command = message["cmd"]
    game, state = table.game, table.state
    try:
        after, events = apply(game, state, seat, command, table.now)
    except IllegalMove as refused:
        assert _CODE.fullmatch(refused.code), refused.code
        assert isinstance(refused.message, str) and refused.message, refused.code
        _check_untouched(table)
        return ILLEGAL + refused.code
    _check_untouched(table)
    _check_accepted(table, after, events)
    # The host journals the command as msgpack and replays it after a restart.
    journaled = msgpack.unpackb(
        msgpack.packb(command, use_bin_type=True), raw=False, strict_map_key=False
    )
    replayed, _ = apply(game, state, seat, journaled, table.now)
    assert replayed == after, "replaying the journaled command gave another state"
    return OK


def _check_untouched(table: Prepared) -> None:
    assert table.state == table.twin, f"apply changed the state it was given ({table.label})"


def _packs(value: Any) -> None:
    """Plain msgpack data with text keys only, as the host sends it."""
    msgpack.unpackb(msgpack.packb(value, use_bin_type=True), strict_map_key=True)


def _check_accepted(table: Prepared, after: Any, events: list[Event]) -> None:
    game = table.game
    assert after.version == table.state.version + 1, (after.version, table.state.version)
    assert all(isinstance(event, Event) for event in events)
    for event in events:
        for seat in (None, *event.private):
            shown = event.for_seat(seat)
            if shown is not None:
                _packs(shown)
    if table.cards is not None and game.card_locations is not None:
        listed = [card for card, _place in game.card_locations(after)]
        assert len(listed) == len(set(listed)), "a card is in two places"
        assert set(listed) == table.cards, "a card appeared or vanished"
    _packs(game.view(after, None))
    for seat in table.seats:
        if seat >= 0:
            _packs(game.view(after, seat))
    game.is_over(after)
    game.deadline(after)
