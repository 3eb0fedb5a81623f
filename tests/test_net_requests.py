"""The client library's requests: one method per client message, every field the host accepts.

:class:`RequestMethods` is where every client (the terminal client, network
bots, scripts) builds its messages, so it must not drift from the protocol's
list of messages and fields: these tests tie the two together.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from nethelpers import connect, running_host
from partyhost.net import protocol as p
from partyhost.net.clients.client import RequestMethods, build

EXAMPLES: dict[str, Any] = {
    "protocol": p.PROTOCOL_VERSION,
    "name": "Ann",
    "client": "partyhost-test",
    "token": "a-seat-token",
    "n": 3,
    "game": "tshirt",
    "deck": "office-party",
    "decks": ["the-t-shirt-game", "office-party"],
    "deck_files": [{"name": "office.yaml", "text": "game: tshirt\n"}],
    "options": {"target": 2000},
    "password": "hunter2",
    "bot_takeover": False,
    "code": "KQZD",
    "spectate": True,
    "ready": False,
    "seat": 2,
    "level": "hard",
    "text": "hello table",
    "cmd": {"type": "roll", "v": 4},
    "ref": 7,
    "night": "2026-11-27",
    "id": 12,
    "first": 40,
    "count": 20,
    "ask": 5,
    "yes": True,
}
"""A value every field of every client message may carry."""


def request_methods() -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(method)
        for name, method in inspect.getmembers(RequestMethods, inspect.isfunction)
        if not name.startswith("_") and name != "send"
    }


def test_there_is_one_request_method_per_client_message() -> None:
    assert set(request_methods()) == set(p.CLIENT_MESSAGES)


@pytest.mark.parametrize("kind", sorted(p.CLIENT_MESSAGES))
def test_a_request_method_takes_exactly_the_fields_of_its_message(kind: str) -> None:
    parameters = dict(request_methods()[kind].parameters)
    del parameters["self"]
    fields = p.CLIENT_MESSAGES[kind]
    assert set(parameters) == set(fields)
    for name, parameter in parameters.items():
        if not fields[name].required:
            assert parameter.default in (None, False), f"{name} may be left out"


@pytest.mark.parametrize("kind", sorted(p.CLIENT_MESSAGES))
def test_every_field_given_is_sent_and_the_host_accepts_it(kind: str) -> None:
    given = {name: EXAMPLES[name] for name in p.CLIENT_MESSAGES[kind]}
    message = getattr(build, kind)(**given)
    assert message == {"t": kind, **given}
    assert p.validate_client_message(message) is message


@pytest.mark.parametrize("kind", sorted(p.CLIENT_MESSAGES))
def test_with_only_the_required_fields_nothing_else_is_sent(kind: str) -> None:
    required = {
        name: EXAMPLES[name] for name, field in p.CLIENT_MESSAGES[kind].items() if field.required
    }
    message = getattr(build, kind)(**required)
    assert message == {"t": kind, **required}
    p.validate_client_message(message)


def test_defaults_that_mean_nothing_are_left_out() -> None:
    assert build.join_room("KQZD", spectate=False) == {"t": "join_room", "code": "KQZD"}
    assert build.add_bot() == {"t": "add_bot"}
    assert build.add_bot("easy") == {"t": "add_bot", "level": "easy"}
    assert build.set_ready() == {"t": "set_ready", "ready": True}
    assert build.create_room("tshirt", options={}) == {
        "t": "create_room",
        "game": "tshirt",
        "options": {},
    }


async def test_a_bot_level_asked_for_through_the_library_reaches_the_room() -> None:
    async with running_host() as host:
        ann = await connect(host.port, "Ann")
        try:
            await ann.create_room("counting")
            await ann.wait_for(p.ROOM)
            await ann.add_bot("hard")
            room = await ann.wait_for(p.ROOM)
            assert [(s["bot"], s["bot_level"]) for s in room["seats"]] == [
                (False, None),
                (True, "hard"),
            ]
        finally:
            await ann.close()
