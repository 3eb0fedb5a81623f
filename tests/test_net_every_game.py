"""Every registered game, played to the end by bots over a real host on loopback.

The host must send each seat exactly what the engine says that seat may see:
every ``view`` frame equals ``game.view(state, seat)`` for the state at that
version, and its events are exactly ``Event.for_seat(seat)`` of the events of
that change. The engines' own tests prove their views keep hidden cards
hidden; this test proves the host adds nothing to them (no other seat's hand,
board, guess or pile order) and loses nothing on the way. The state rebuilt
from the journal must also end with every card in exactly one place.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import msgpack
import pytest
from nethelpers import Seat, connect, quiet, running_host, seat_number, step, table
from partyhost.engine.core import SYSTEM_SEAT, Event, Game, apply, apply_tick
from partyhost.engine.registry import all_games, get_game
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from test_meme_games import check_money_conserved

QUICK_OPTIONS: dict[str, dict[str, Any]] = {"tshirt": {"target": 1500}}
"""Options that keep a whole game short; the rest play with their defaults."""
NAMES = ["Ann", "Bob", "Cy", "Di"]


def table_size(game: Game) -> int:
    return min(game.max_players, max(game.min_players, 3))


async def play_to_the_end(seats: list[Seat], game: Game, rng: Rng, max_steps: int = 3000) -> int:
    """Lockstep bot play; when nobody can move, let the host's timers run (bounded)."""
    idle_rounds = 0
    for taken in range(max_steps):
        if await step(seats, game, rng):
            idle_rounds = 0
            continue
        room = seats[0].room
        if room is not None and room["status"] == p.OVER:
            return taken
        idle_rounds += 1
        assert idle_rounds < 40, "nobody could move and no timer moved the game on"
        await quiet(seats, for_seconds=0.2)
    raise AssertionError("the game did not end")


def wire(value: Any) -> Any:
    """``value`` as it looks after a trip over the wire (tuples become lists)."""
    return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False)


def replay(game: Game, stored: Any) -> tuple[dict[int, Any], dict[int, list[Event]], Any]:
    """States and events by version, from the room's journal, as the host made them."""
    room = stored.room
    deck = game.build_deck(room.deck_data)
    state = game.start(deck, room.start_seats, room.rules, room.seed)
    states = {state.version: state}
    events_at: dict[int, list[Event]] = {}
    for record in stored.commands:
        if record.command is None:
            state, events = apply_tick(game, state, record.now)
        else:
            seat = SYSTEM_SEAT if record.seat is None else record.seat
            state, events = apply(game, state, seat, record.command, record.now)
        states[state.version] = state
        events_at[state.version] = events
    return states, events_at, state


@pytest.mark.parametrize("game_id", sorted(game.id for game in all_games()))
async def test_every_game_plays_out_and_each_seat_gets_exactly_its_own_view(game_id: str) -> None:
    game = get_game(game_id)
    names = NAMES[: table_size(game)]
    frames: dict[str, list[bytes]] = defaultdict(list)

    async def opener(port: int, name: str) -> Seat:
        return Seat(await connect(port, name, tap=frames[name].append))

    async with running_host() as host:
        seats, code = await table(
            host.port, names, options=QUICK_OPTIONS.get(game_id, {}), game=game_id, opener=opener
        )
        spectator = await opener(host.port, "Spectator")
        await spectator.join_room(code, spectate=True)
        await spectator.expect(p.VIEW)
        steps = await play_to_the_end(seats, game, Rng(23))
        final_version = seats[0].version
        await spectator.until(lambda: spectator.version == final_version)
        assert host.journal is not None
        (stored,) = [item for item in host.journal.load() if item.room.code == code]
        seat_of: dict[str, int | None] = {
            name: seat_number(seat) for name, seat in zip(names, seats, strict=True)
        }
    seat_of["Spectator"] = None

    states, events_at, final = replay(game, stored)
    assert steps >= 4  # at least one whole round was played
    assert game.is_over(final), f"{game_id} did not reach its end in {steps} steps"

    checked = 0
    for name, raw_frames in frames.items():
        seat = seat_of[name]
        for raw in raw_frames:
            message = p.decode_body(raw[p.HEADER.size :])
            if message["t"] != p.VIEW:
                continue
            version = message["version"]
            assert message["view"] == wire(game.view(states[version], seat)), (
                f"{name} got a view at version {version} that is not the engine's view"
            )
            expected_events = [
                shown for event in events_at.get(version, []) if (shown := event.for_seat(seat))
            ]
            if message["events"]:
                assert message["events"] == wire(expected_events), (
                    f"{name} got events at version {version} other than its audience allows"
                )
            checked += 1
    assert checked >= steps

    if game_id == "meme":
        # Money paid out over the host's game equals the winning stakes, turn by turn.
        history = [event for version in sorted(events_at) for event in events_at[version]]
        check_money_conserved(final, history)

    locate = getattr(game, "card_locations", None)
    if locate is not None:
        places = Counter(card for card, _ in locate(final))
        assert places and max(places.values()) == 1, "a card is in two places at the end"
