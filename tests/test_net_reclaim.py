"""Taking an absent player's seat by name, tried as a stranger would, against a real host.

After Ann drops, a visitor of her name used to get her seat, hand, score and
the room's ownership, and her own token stopped working. Now a look-alike of
her name is refused, the name as she wrote it only asks the table ("Ann is
back?"), the answer (or its absence) decides, ownership never follows the
name, and Ann's own token always takes her seat back. Each test runs
``python -m partyhost.net`` in its own process.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from nethelpers import HostProcess, Seat, counting, quiet, step, table
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p

Message = dict[str, Any]
LOOK_ALIKES = ["\u0410nn", "\uff41\uff4e\uff4e", "A\u200bnn"]
"""Ann with a Cyrillic A, in full-width letters, with a zero-width space inside."""


@contextlib.asynccontextmanager
async def host_process(tmp_path: Path, answer_seconds: float = 30.0) -> AsyncIterator[int]:
    """A host in its own process; yields its port."""
    host = HostProcess(tmp_path / "data", extra=["--reclaim-answer-seconds", str(answer_seconds)])
    try:
        yield await host.ready()
    finally:
        host.stop()


def presence(room: Message, seat: int) -> str:
    return next((str(s["presence"]) for s in room["seats"] if s["seat"] == seat), "")


@dataclass
class AnnDropped:
    """Ann, who owns the room, was killed four moves into a game of three."""

    bob: Seat
    cy: Seat
    code: str
    view: Message
    token: str


async def ann_dropped(port: int) -> AnnDropped:
    seats, code = await table(port, ["Ann", "Bob", "Cy"])
    ann, bob, cy = seats
    game, rng = counting(), Rng(5)
    for _ in range(4):
        await step(seats, game, rng)
    view, token = ann.view, ann.conn.token
    assert view is not None and token is not None
    mark = bob.mark()
    ann.conn.abort()
    await bob.expect(p.ROOM, since=mark, where=lambda room: presence(room, 0) == "disconnected")
    return AnnDropped(bob, cy, code, view, token)


async def asks(port: int, name: str, code: str) -> Seat:
    """A visitor of ``name`` joins room ``code`` and is told to wait for the table."""
    visitor = await Seat.open(port, name)
    await visitor.join_room(code)
    waiting = await visitor.expect(p.RECLAIM_WAITING)
    assert (waiting["code"], waiting["name"], waiting["seat"]) == (code, "Ann", 0)
    return visitor


async def test_a_name_that_only_looks_like_an_absent_players_gets_no_seat(tmp_path: Path) -> None:
    async with host_process(tmp_path) as port:
        dropped = await ann_dropped(port)
        for name in LOOK_ALIKES:
            stranger = await Seat.open(port, name)
            await stranger.join_room(dropped.code)
            refusal = await stranger.expect(p.ERROR)
            assert refusal["code"] == "name_in_use", name
            assert "away" in refusal["message"] and "exactly" in refusal["message"]
            assert stranger.last(p.JOINED) is None and stranger.last(p.RECLAIM_WAITING) is None
        # A spectator who leaves and joins as a player is a visitor like any other.
        watcher = await Seat.open(port, LOOK_ALIKES[0])
        await watcher.join_room(dropped.code, spectate=True)
        await watcher.expect(p.JOINED)
        mark = watcher.mark()
        await watcher.leave_room()
        await watcher.expect(p.LEFT, since=mark)
        await watcher.join_room(dropped.code)
        assert (await watcher.expect(p.ERROR, since=mark))["code"] == "name_in_use"
        await quiet([dropped.bob])
        assert dropped.bob.last(p.RECLAIM_ASK) is None
        assert dropped.bob.room is not None and presence(dropped.bob.room, 0) == "disconnected"


async def test_the_name_as_written_waits_for_the_table_and_a_yes_gives_the_seat_not_the_room(
    tmp_path: Path,
) -> None:
    async with host_process(tmp_path) as port:
        dropped = await ann_dropped(port)
        bob, cy = dropped.bob, dropped.cy
        visitor = await asks(port, "Ann", dropped.code)
        assert visitor.last(p.JOINED) is None
        # The owner is the absent one, so a seated person is asked: Bob, and only Bob.
        ask = await bob.expect(p.RECLAIM_ASK)
        assert (ask["name"], ask["seat"]) == ("Ann", 0) and 0 < ask["seconds"] <= 30
        await quiet([cy])
        assert cy.last(p.RECLAIM_ASK) is None
        await cy.reclaim_answer(ask["ask"], True)
        assert (await cy.expect(p.ERROR))["code"] == "no_such_ask"
        assert visitor.last(p.JOINED) is None

        await bob.reclaim_answer(ask["ask"], True)
        joined = await visitor.expect(p.JOINED)
        assert joined["seat"] == 0 and joined["token"] not in (None, dropped.token)
        view = await visitor.expect(p.VIEW)
        assert view["view"] == dropped.view["view"]  # her hand and her score
        room = await visitor.expect(p.ROOM)
        assert room["you"] == 0 and room["owner"] == 1  # Bob confirmed: Bob owns the room


async def test_no_or_no_answer_turns_the_visitor_away_and_the_token_still_resumes(
    tmp_path: Path,
) -> None:
    async with host_process(tmp_path, answer_seconds=0.5) as port:
        dropped = await ann_dropped(port)
        bob = dropped.bob
        # Nobody answers the first one in time: that is no.
        silent = await asks(port, "Ann", dropped.code)
        await bob.expect(p.RECLAIM_ASK)
        refusal = await silent.expect(p.ERROR, timeout=5)
        assert refusal["code"] == "reclaim_refused" and "in time" in refusal["message"]
        assert silent.last(p.JOINED) is None
        # "ANN" is Ann's name as written, up to case: it may ask, and Bob says no.
        mark = bob.mark()
        shouting = await asks(port, "ANN", dropped.code)
        ask = await bob.expect(p.RECLAIM_ASK, since=mark)
        await bob.reclaim_answer(ask["ask"], False)
        assert (await shouting.expect(p.ERROR))["code"] == "reclaim_refused"
        assert shouting.last(p.JOINED) is None
        # Asking again at once is refused without bothering Bob.
        mark = bob.mark()
        again = await Seat.open(port, "Ann")
        await again.join_room(dropped.code)
        refusal = await again.expect(p.ERROR)
        assert refusal["code"] == "reclaim_refused" and "just said no" in refusal["message"]
        # Ann herself, with her token, is back at once.
        ann = await Seat.open(port, "Ann", token=dropped.token)
        assert ann.conn.welcome["resumed"] is True
        joined = await ann.expect(p.JOINED)
        assert (joined["seat"], joined["token"]) == (0, dropped.token)
        room = await ann.expect(p.ROOM)
        assert room["owner"] == 0
        await quiet([bob])
        assert not [message for message in bob.log[mark:] if message["t"] == p.RECLAIM_ASK]


async def test_the_first_token_wins_over_a_seat_taken_back_by_name(tmp_path: Path) -> None:
    async with host_process(tmp_path) as port:
        dropped = await ann_dropped(port)
        visitor = await asks(port, "ann", dropped.code)
        ask = await dropped.bob.expect(p.RECLAIM_ASK)
        await dropped.bob.reclaim_answer(ask["ask"], True)
        second = (await visitor.expect(p.JOINED))["token"]

        ann = await Seat.open(port, "Ann", token=dropped.token)
        assert ann.conn.welcome["resumed"] is True
        assert (await ann.expect(p.JOINED))["seat"] == 0
        left = await visitor.expect(p.LEFT)
        assert left["reason"] == "replaced"
        # The token the reclaim gave stops working; Ann's keeps working.
        again = await Seat.open(port, "Ann", token=second)
        assert again.conn.welcome["resumed"] is False
        assert (await again.expect(p.ERROR))["code"] == "token_unknown"


async def test_nobody_to_ask_means_no(tmp_path: Path) -> None:
    async with host_process(tmp_path) as port:
        ann = await Seat.open(port, "Ann")
        await ann.create_room("counting")
        code = (await ann.expect(p.JOINED))["code"]
        await ann.add_bot()
        await ann.expect(p.ROOM, where=lambda room: len(room["seats"]) == 2)
        await ann.start_game()
        await ann.expect(p.VIEW)
        watcher = await Seat.open(port, "Wes")
        await watcher.join_room(code, spectate=True)
        await watcher.expect(p.JOINED)
        ann.conn.abort()
        await watcher.expect(p.ROOM, where=lambda room: presence(room, 0) == "disconnected")
        visitor = await Seat.open(port, "Ann")
        await visitor.join_room(code)
        refusal = await visitor.expect(p.ERROR)
        assert refusal["code"] == "reclaim_refused" and "Nobody" in refusal["message"]
        assert watcher.last(p.RECLAIM_ASK) is None  # a spectator is never asked


async def test_a_visitor_who_leaves_while_waiting_is_out_and_the_question_is_settled(
    tmp_path: Path,
) -> None:
    async with host_process(tmp_path) as port:
        dropped = await ann_dropped(port)
        visitor = await asks(port, "Ann", dropped.code)
        ask = await dropped.bob.expect(p.RECLAIM_ASK)
        await visitor.chat("let me in")  # not in the room yet: it says nothing there
        assert (await visitor.expect(p.ERROR))["code"] == "not_in_room"
        mark = visitor.mark()
        await visitor.leave_room()
        await visitor.expect(p.LEFT, since=mark)
        await dropped.bob.reclaim_answer(ask["ask"], True)
        assert (await dropped.bob.expect(p.ERROR))["code"] == "no_such_ask"
        assert dropped.bob.last(p.CHAT_LINE) is None


@pytest.mark.parametrize("name", ["Ann", "Eve"])
async def test_the_welcome_names_no_one_elses_seat(tmp_path: Path, name: str) -> None:
    async with host_process(tmp_path) as port:
        dropped = await ann_dropped(port)
        stranger = await Seat.open(port, name)
        welcome = stranger.conn.welcome
        assert "waiting_seats" not in welcome and welcome["resumed"] is False
        assert dropped.code not in repr(welcome)
