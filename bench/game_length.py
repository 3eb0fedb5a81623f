"""How long is a game? Rounds per game by player count, from bot games played by the engine.

Run with ``.venv/bin/python bench/game_length.py`` (``--smoke``: one game of
two games at two table sizes, to check that it still runs; its figures mean
nothing). Not a test: it prints a table and, as its last line, one JSON object
with the figures. The client's "about N rounds" (``tui/shared/gamelength.py``)
comes from this table: rerun it after a rule or a bot changes a game's pace.

No host and no network: seats take turns asking the game's bot for a command,
and the game's clock is ticked when it is due, as the host runs it. Bots play
faster than people, so the rounds say how long a game is, the clock does not.
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from partyhost.engine.core import Game, apply, apply_tick
from partyhost.engine.registry import get_game
from partyhost.engine.rng import Rng
from partyhost.net.deckshelf import DeckShelf

GAMES: dict[str, list[dict[str, Any]]] = {
    "tshirt": [{"target": 1000}, {"target": 2000}, {"target": 3000}],
    "meme": [{}],
    "stealing-home": [{}],
}
"""Each game and the option sets measured (the T-Shirt Game at each offered target). The
games whose views count rounds; Scramble, Gridiron and Four Corners count hands won."""
MAX_PLAYERS = 8
GAMES_EACH = 40
SMOKE_GAMES: dict[str, list[dict[str, Any]]] = {"tshirt": [{"target": 1000}], "stealing-home": [{}]}
SMOKE_PLAYERS = 3
STEP_SECONDS = 0.5
MAX_STEPS = 50_000


def rounds_of_one(game: Game, deck: Any, players: int, options: dict[str, Any], seed: int) -> int:
    """Play one bot game to its end; the highest round its public view showed."""
    seats = list(range(players))
    state = game.start(deck, seats, game.rules_for(options), seed)
    rng, now, rounds = Rng(seed), 1000.0, 0
    for _ in range(MAX_STEPS):
        if game.is_over(state):
            return rounds
        rounds = max(rounds, int(game.view(state, None).get("round") or 0))
        now += STEP_SECONDS
        due = game.deadline(state)
        if due is not None and due <= now:
            state, _ = apply_tick(game, state, now)
            continue
        for seat in seats:
            command = game.bot_command(game.view(state, seat), rng, now)
            if command is not None:
                state, _ = apply(game, state, seat, command, now)
                break
        else:
            if due is not None:
                now = max(now, due - STEP_SECONDS)
    raise RuntimeError(f"{game.id} with {players} players did not end in {MAX_STEPS} steps")


def measure(smoke: bool) -> list[dict[str, Any]]:
    shelf = DeckShelf()
    shelf.scan()
    rows = []
    for game_id, option_sets in (SMOKE_GAMES if smoke else GAMES).items():
        game = get_game(game_id)
        deck = shelf.table_deck(game, [shelf.for_game(game)[0]["name"]]).deck
        top = min(game.max_players, MAX_PLAYERS)
        counts = [SMOKE_PLAYERS] if smoke else range(max(2, game.min_players), top + 1)
        for options in option_sets:
            for players in counts:
                games = 1 if smoke else GAMES_EACH
                rounds = [rounds_of_one(game, deck, players, options, s) for s in range(games)]
                rows.append(
                    {
                        "game": game_id,
                        "options": options,
                        "players": players,
                        "games": games,
                        "median": statistics.median(rounds),
                        "min": min(rounds),
                        "max": max(rounds),
                    }
                )
    return rows


def print_table(rows: list[dict[str, Any]]) -> None:
    print(f"{'game':<14} {'options':<14} {'players':>7} {'games':>5} {'median':>6} {'range':>9}")
    for row in rows:
        options = ",".join(f"{k}={v}" for k, v in row["options"].items()) or "-"
        spread = f"{row['min']}-{row['max']}"
        print(
            f"{row['game']:<14} {options:<14} {row['players']:>7} {row['games']:>5}"
            f" {row['median']:>6g} {spread:>9}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a quick check that it runs")
    args = parser.parse_args()
    rows = measure(args.smoke)
    print_table(rows)
    print(json.dumps({"rounds": rows}))


if __name__ == "__main__":
    main()
