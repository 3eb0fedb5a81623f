"""How long a game runs: a rough number of rounds for its target and its players.

The figures are the medians of ``bench/game_length.py`` (bot games by target and table
size): rerun it after a rule or a bot changes a game's pace and copy them here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TSHIRT_ROUNDS: dict[int, dict[int, int]] = {
    1000: {3: 7, 4: 7, 5: 8, 6: 8, 7: 9, 8: 10},
    2000: {3: 16, 4: 19, 5: 21, 6: 25, 7: 25, 8: 28},
    3000: {3: 26, 4: 31, 5: 36, 6: 44, 7: 45, 8: 49},
}
"""The T-Shirt Game: rounds to reach the target (points) by players at the table."""

TSHIRT_TARGETS = tuple(sorted(TSHIRT_ROUNDS))
"""The targets the create dialog offers (any other stays possible with ``--option``)."""

MEME_ROUNDS: dict[int, int] = {2: 4, 3: 4, 4: 4, 5: 4, 6: 4}
"""What Do You Meme?: rounds by players (three, then the final; every seat reacts once a
round, so the turns grow with the table, the rounds do not)."""

STEALING_HOME_ROUNDS: dict[int, int] = {2: 28, 3: 28, 4: 28, 5: 28, 6: 28, 7: 28, 8: 28}
"""Stealing Home: rounds by players (the deck sets them: the same at every table size)."""

ROUNDS: dict[str, dict[int | None, dict[int, int]]] = {
    "tshirt": {target: by_players for target, by_players in TSHIRT_ROUNDS.items()},
    "meme": {None: MEME_ROUNDS},
    "stealing-home": {None: STEALING_HOME_ROUNDS},
}
"""Every game whose view counts rounds: its rounds by target (None: the game has no target)
and by players at the table."""

COUNTING_HANDS = frozenset({"scramble", "gridiron", "four-corners"})
"""The games whose views count hands won, not rounds: their length is not told."""


def _by_players(game: str, options: Mapping[str, Any]) -> tuple[dict[int, int], float] | None:
    """The measured rounds by players for ``options``, and how much to scale them by (a
    target between or past the measured ones scales the nearest)."""
    tables = ROUNDS.get(game)
    if tables is None:
        return None
    if None in tables:
        return tables[None], 1.0
    target = options.get("target")
    if not isinstance(target, int) or isinstance(target, bool) or target <= 0:
        return None
    nearest = min((t for t in tables if t is not None), key=lambda measured: abs(measured - target))
    return tables[nearest], target / nearest


def rough_rounds(game: str, options: Mapping[str, Any], players: int) -> int | None:
    """About how many rounds ``game`` lasts with ``players``; None when nothing was measured."""
    measured = _by_players(game, options)
    if measured is None or players < 1:
        return None
    by_players, scale = measured
    seated = min(max(players, min(by_players)), max(by_players))
    return max(1, round(by_players[seated] * scale))


def length_words(game: str, options: Mapping[str, Any], players: int) -> str | None:
    """``Length: ~31 rounds (4 players)`` (short: the room lists it in a narrow column)."""
    rounds = rough_rounds(game, options, players)
    measured = _by_players(game, options)
    if rounds is None or measured is None:
        return None
    counted = max(players, min(measured[0]))  # before enough are seated
    return f"Length: ~{rounds} rounds ({counted} players)"
