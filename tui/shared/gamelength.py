"""How long a game runs: a rough number of rounds for its target and its players.

The figures are the medians of ``bench/game_length.py`` (40 bot games for each
target and table size, played by the engine): rerun it after a rule or a bot
changes a game's pace, and copy its medians here, rounded. Bots play as
people do in rounds, so the rounds hold; minutes would not.
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


def rough_rounds(game: str, options: Mapping[str, Any], players: int) -> int | None:
    """About how many rounds ``game`` lasts with ``players``; None when nothing was measured."""
    if game != "tshirt" or players < 1:
        return None
    target = options.get("target")
    if not isinstance(target, int) or isinstance(target, bool) or target <= 0:
        return None
    nearest = min(TSHIRT_ROUNDS, key=lambda measured: abs(measured - target))
    by_players = TSHIRT_ROUNDS[nearest]
    seated = min(max(players, min(by_players)), max(by_players))
    return max(1, round(by_players[seated] * target / nearest))


def length_words(game: str, options: Mapping[str, Any], players: int) -> str | None:
    """``Length: ~31 rounds (4 players)`` (short: the room lists it in a narrow column)."""
    rounds = rough_rounds(game, options, players)
    if rounds is None:
        return None
    counted = max(players, min(TSHIRT_ROUNDS[min(TSHIRT_ROUNDS)]))  # before enough are seated
    return f"Length: ~{rounds} rounds ({counted} players)"
