"""Wire-level leak test: no seat is ever sent another seat's hidden data.

Every raw frame each seat (and a spectator) receives over a whole game is
captured. Hidden data is found generically from the deck: a card text is
private while the spectator has not been sent it; no two seats may hold the
same text privately, and no seat may learn which *other* seat a text belongs
to (a map with that seat next to that text) before the spectator does. For
The T-Shirt Game, submissions must also stay anonymous until the pick.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pytest
from nethelpers import Seat, connect, counting, play_out, running_host, table
from partyhost.engine.registry import all_games, get_game
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p

GAMES: dict[str, dict[str, Any]] = {"counting": {"target": 40}, "tshirt": {}}
MIN_SECRET = 8


def registered() -> list[str]:
    """The test game always; real games when they are registered."""
    known = {game.id for game in all_games()} | {"counting"}
    return [game for game in GAMES if game in known]


def _leaves(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)


def card_texts(deck_data: dict[str, Any]) -> set[str]:
    """Texts that identify one card: in a card list, unique, not inside another text."""
    counted: dict[str, int] = defaultdict(int)
    for value in deck_data.values():
        if isinstance(value, list):
            for text in _leaves(value):
                counted[text] += 1
    unique = {t for t, n in counted.items() if n == 1 and len(t) >= MIN_SECRET}
    return {t for t in unique if not any(t != other and t in other for other in unique)}


def pairs(value: Any, texts: set[str]) -> Iterator[tuple[int, str]]:
    """(seat, text) wherever a map puts a seat number next to a card text."""
    if isinstance(value, dict):
        seat = value.get("seat")
        if isinstance(seat, int) and not isinstance(seat, bool):
            for item in value.values():
                if isinstance(item, str) and item in texts:
                    yield seat, item
        for item in value.values():
            yield from pairs(item, texts)
    elif isinstance(value, list):
        for item in value:
            yield from pairs(item, texts)


class Capture:
    """Raw frames per recipient, in arrival order."""

    def __init__(self) -> None:
        self.frames: dict[str, list[bytes]] = defaultdict(list)

    def tap(self, name: str) -> Any:
        return self.frames[name].append

    def views(self, name: str) -> Iterator[tuple[int, bytes, dict[str, Any]]]:
        for raw in self.frames[name]:
            message = p.decode_body(raw[p.HEADER.size :])  # host frames have text keys only
            if message["t"] == p.VIEW:
                yield int(message["version"]), raw, message


@pytest.mark.parametrize("game_id", registered())
async def test_no_frame_carries_another_seats_hidden_data(game_id: str) -> None:
    game = counting() if game_id == "counting" else get_game(game_id)
    capture = Capture()
    names = ["Ann", "Bob", "Cy", "Di"]

    async def opener(port: int, name: str) -> Seat:
        return Seat(await connect(port, name, tap=capture.tap(name)))

    async with running_host() as host:
        seats, code = await table(
            host.port, names, options=GAMES[game_id], game=game_id, opener=opener
        )
        spectator = await opener(host.port, "Spectator")
        await spectator.join_room(code, spectate=True)
        await spectator.expect(p.VIEW)
        steps = await play_out(seats, game, Rng(17))
        final = seats[0].version
        await spectator.until(lambda: spectator.version == final)
        assert host.lobby is not None
        texts = card_texts(host.lobby.rooms[code].deck_data)
    assert steps > 4 and len(texts) > 50

    seat_of = {name: i for i, name in enumerate(names)}
    first_public: dict[str, int] = {}
    public_pairs: dict[tuple[int, str], int] = {}
    pattern = re.compile(
        b"|".join(re.escape(t.encode()) for t in sorted(texts, key=len, reverse=True))
    )
    for version, raw, message in capture.views("Spectator"):
        for found in pattern.findall(raw):
            first_public.setdefault(found.decode(), version)
        for pair in pairs(message, texts):
            public_pairs.setdefault(pair, version)

    holders: dict[str, set[str]] = defaultdict(set)
    for name in names:
        for version, raw, message in capture.views(name):
            for found in pattern.findall(raw):
                text = found.decode()
                if version < first_public.get(text, 1 << 60):
                    holders[text].add(name)
            for seat, text in pairs(message, texts):
                if seat != seat_of[name]:
                    assert version >= public_pairs.get((seat, text), 1 << 60), (
                        f"{name} learned seat {seat} holds {text!r} at version {version}"
                    )
    shared = {text: who for text, who in holders.items() if len(who) > 1}
    assert not shared, f"hidden card texts sent to more than one seat: {shared}"
    assert len(holders) >= 4 * 3  # every seat held private cards (the check saw them)
    for name in [*names, "Spectator"]:
        for raw in capture.frames[name]:
            assert p.decode_body(raw[p.HEADER.size :])  # strict text keys: a clean wire

    if game_id == "tshirt":
        for _, _, message in capture.views("Spectator"):
            view = message["view"]
            if view["phase"] in ("submitting", "judging"):
                shown = {s["text"] for s in view["submissions"]}
                assert all(set(s) <= {"index", "text"} for s in view["submissions"])
                assert not [pair for pair in pairs(message, texts) if pair[1] in shown]
