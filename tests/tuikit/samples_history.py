"""Sample past games, replay and standings, as the host's ``past_games``, ``replay`` and
``standings`` frames carry them.

The replay is real: a T-Shirt Game the engine's bots played to the end
(fixed seed and times), kept and replayed by the host's own code, so the
screens are tested against exactly what a host sends.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

import msgpack
from partyhost.engine.registry import get_game
from partyhost.net.store.database import Store
from partyhost.net.store.pastgames import describe_entry
from partyhost.net.store.records import GameStart, Player
from partyhost.net.store.replaybuilder import build_replay
from playedgames import keep_game, play_game

Frame = dict[str, Any]

FINISHED_ID = 1
RUNNING_ID = 2
NIGHT = "2026-11-27"
STARTED = 1_795_814_000.0
"""A Friday evening (UTC), so pictures of the times never depend on today."""
NAMES = ["Ann", "Bob", "Cy", "Bot 1"]


def _plain(value: Any) -> Any:
    return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False)


@functools.cache
def _kept() -> tuple[list[Frame], Frame, list[Frame]]:
    played = play_game("tshirt", 4, seed=8, start=STARTED)
    players = [Player(seat, NAMES[seat], seat == 3) for seat in played.seats]
    start = GameStart(
        "KQZD",
        played.seed,
        "tshirt",
        played.deck_name,
        played.deck_data,
        played.rules,
        played.seats,
        STARTED,
        players,
    )
    store = Store(None)
    results = get_game("tshirt").results(played.final)
    ended = played.commands[-1].now
    keep_game(store, start, played.commands, results, ended)
    running = play_game("meme", 2, seed=3)
    keep_game(
        store,
        GameStart(
            "HTWX",
            running.seed,
            "meme",
            running.deck_name,
            running.deck_data,
            running.rules,
            running.seats,
            ended + 60,
            [Player(0, "Dana", False), Player(1, "Eli", False)],
        ),
        [],
    )
    entries = store.games()
    numbers = {entry.id: FINISHED_ID if entry.room == "KQZD" else RUNNING_ID for entry in entries}
    archived = store.archived(next(n for n, shown in numbers.items() if shown == FINISHED_ID))
    assert archived is not None
    replay = build_replay(archived)
    store.close()
    games = _plain([{**describe_entry(e), "id": numbers[e.id]} for e in entries])
    info = {**_plain(replay.info()), "id": FINISHED_ID}  # the store numbers games at random
    return games, info, _plain(replay.all_steps())


def sample_past_games() -> list[Frame]:
    """The finished T-Shirt Game (number 1) and a meme game still running (number 2)."""
    return copy.deepcopy(_kept()[0])


def sample_replay() -> tuple[Frame, list[Frame]]:
    """Game 1's replay: its info and every step."""
    _, info, steps = _kept()
    return copy.deepcopy(info), copy.deepcopy(steps)


def sample_standings() -> Frame:
    return {
        "t": "standings",
        "night": NIGHT,
        "tonight": NIGHT,
        "nights": [NIGHT],
        "rows": [
            {
                "name": "Ann",
                "bot": False,
                "played": 3,
                "won": 2,
                "games": [
                    {"game": "scramble", "played": 1, "won": 1},
                    {"game": "tshirt", "played": 2, "won": 1},
                ],
                "points": 1450,
                "money": None,
            },
            {
                "name": "[red]Bob",
                "bot": False,
                "played": 3,
                "won": 1,
                "games": [
                    {"game": "meme", "played": 1, "won": 1},
                    {"game": "tshirt", "played": 2, "won": 0},
                ],
                "points": 600,
                "money": 14,
            },
            {
                "name": "Bot 1",
                "bot": True,
                "played": 2,
                "won": 0,
                "games": [{"game": "tshirt", "played": 2, "won": 0}],
                "points": 250,
                "money": None,
            },
        ],
    }
