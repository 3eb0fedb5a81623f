"""Finished games played by the engine's bot policy alone, for tests that need one kept.

No host, no network: seats take turns asking the game's bot for a command,
and the game's clock is ticked whenever it is due, the way the host runs it.
The accepted commands are what the host's store would hold; :func:`keep_game`
puts a game there the way a host does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import SeatResult, apply, apply_tick
from partyhost.engine.registry import get_game
from partyhost.engine.rng import Rng
from partyhost.net.deckshelf import DeckShelf
from partyhost.net.store.database import Store
from partyhost.net.store.records import CommandRecord, GameStart, RoomRecord

START = 1000.0
"""The host clock when a played game begins."""


@dataclass
class PlayedGame:
    game: str
    deck_name: str
    deck_data: Any
    rules: dict[str, Any]
    seats: list[int]
    seed: int
    commands: list[CommandRecord]
    final: Any


def play_game(
    game_id: str,
    seats: int = 2,
    seed: int = 5,
    options: dict[str, Any] | None = None,
    start: float = START,
) -> PlayedGame:
    """Play ``game_id`` to the end with ``seats`` bots from ``start`` (half a second a step)."""
    game = get_game(game_id)
    shelf = DeckShelf()
    shelf.scan()
    deck = shelf.table_deck(game, [shelf.for_game(game)[0]["name"]])
    rules = game.rules_for(options or {})
    players = list(range(seats))
    state = game.start(deck.deck, players, rules, seed)
    rng, commands, now = Rng(seed), [], start
    for _ in range(20_000):
        if game.is_over(state):
            break
        now += 0.5
        due = game.deadline(state)
        if due is not None and due <= now:  # the game's clock first, as the host runs it
            state, events = apply_tick(game, state, now)
            if events:
                commands.append(CommandRecord(None, None, now))
            continue
        for seat in players:
            command = game.bot_command(game.view(state, seat), rng, now)
            if command is not None:
                state, _ = apply(game, state, seat, command, now)
                commands.append(CommandRecord(seat, command, now))
                break
        else:
            if due is not None:  # nobody can act: wait for the game's clock
                now = max(now, due - 0.5)
    assert game.is_over(state), f"{game_id} did not end"
    return PlayedGame(game_id, deck.name, deck.data, rules, players, seed, commands, state)


def keep_game(
    store: Store,
    start: GameStart,
    commands: Sequence[CommandRecord],
    results: Sequence[SeatResult] = (),
    ended: float | None = None,
) -> None:
    """Keep a game in ``store`` as a host does: started in its room, each command as accepted,
    then (given ``ended``) marked over with its results and its room closed."""
    room = RoomRecord(
        code=start.room,
        game=start.game,
        deck_name=start.deck_name,
        deck_data=start.deck_data,
        options={},
        password_hash=None,
        bot_takeover=False,
        owner=None,
        status="playing",
        next_member=len(start.players),
        created=start.started,
        seed=start.seed,
        start_seats=start.start_seats,
        rules=start.rules,
    )
    store.start_game(room, [], start)
    for index, command in enumerate(commands):
        store.append(start.room, index, command)
    if ended is not None:
        store.game_over(start.room, results, start.players, ended)
        store.forget(start.room, ended)
    store.commit()
