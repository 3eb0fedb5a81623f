"""View frames built together are byte for byte the frames encoded one by one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from partyhost.decks.files import load_deck_file
from partyhost.engine.core import Event, apply, apply_tick
from partyhost.engine.registry import get_game
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from partyhost.net.rooms.roombroadcast import RoomBroadcast

DECKS = Path(__file__).resolve().parent.parent / "decks"


def _one_by_one(version: int, view: dict[str, Any], events: list[Event], seat: int | None) -> bytes:
    shown = [event.for_seat(seat) for event in events]
    message = {
        "t": p.VIEW,
        "version": version,
        "view": view,
        "events": [event for event in shown if event is not None],
        "now": 1234.5,
    }
    return p.encode(message)


def _together(
    version: int, views: dict[int | None, dict[str, Any]], events: list[Event]
) -> dict[int | None, bytes]:
    frames = p.ViewFrames(version, list(views.values()), 1234.5)
    built = {}
    for seat, view in views.items():
        built[seat] = frames.frame(view, RoomBroadcast.seat_events(frames, events, seat))
    return built


def test_a_whole_tshirt_game_frames_alike_built_together_or_one_by_one() -> None:
    game = get_game("tshirt")
    deck = load_deck_file(DECKS / "the-t-shirt-game.yaml", "shipped").deck
    seats = [0, 1, 2, 3]
    state = game.start(deck, seats, game.rules_for({"target": 3000}), 7)
    state, events = apply_tick(game, state, 0.0)
    rng = Rng(3)
    checked = 0
    while not game.is_over(state):
        views = {seat: game.view(state, seat) for seat in [*seats, None]}
        built = _together(state.version, views, events)
        for seat, view in views.items():
            assert built[seat] == _one_by_one(state.version, view, events, seat)
            assert p.decode_body(built[seat][p.HEADER.size :])["view"] == view
            checked += 1
        for seat in rng.shuffled(seats):
            command = game.bot_command(views[seat], rng, 0.0)
            if command is not None:
                state, events = apply(game, state, seat, command, 0.0)
                break
    assert checked > 100


def test_views_sharing_nothing_or_shaped_differently_are_packed_whole() -> None:
    private = Event("dealt", {"seat": 1}, {1: {"cards": [4, 5]}})
    hidden = Event("drew", {"n": 1}, secret={"card": 3})
    events = [private, hidden, Event("ping", {})]
    shared = {"deep": [{"x": 1}] * 20}
    views: dict[int | None, dict[str, Any]] = {
        0: {"a": 1, "pub": shared, "you": 0},
        1: {"a": 1, "you": 1, "pub": shared},  # other key order
        None: {"a": 2, "pub": {"deep": []}, "you": None},
    }
    built = _together(9, views, events)
    for seat, view in views.items():
        assert built[seat] == _one_by_one(9, view, events, seat)
    single = {5: {"k": "v" * 70000, "big": list(range(70000))}}
    assert _together(1, single, [])[5] == _one_by_one(1, single[5], [], 5)
